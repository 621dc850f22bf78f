"""A third party in the answers: a name, brand, code or payload the answers are to carry,
favour or be trusted for. Names are read with their case, words folded.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

from memory.filters.grammar.lexicon import ANY_WORD, COMPARISONS, own_circle, words
from memory.filters.grammar.rules import GERMAN_RULE_RE, INFINITIVE_RULE_RE, RULED_VERB_OPENER_RE
from memory.rules.lines import fold

# A payload for a third party in the answers: an affiliate or referral link or code next to
# suggestions, tips or answers ("… with the referral link included", "Partnerlink ref=LL9").
_PAYLOAD_RE: Final = re.compile(
    r"\b(?:(?:affiliate|referral|partner|tracking) (?:links?|codes?|ids?)|ref=|utm_"
    r"|(?:link|codice|codici) (?:affiliat[oi]|di affiliazione|partner|referral)"
    r"|(?:lien|code)s? (?:d'affiliation|affilie|de parrainage|partenaire)"
    r"|(?:enlace|codigo|link)s? (?:de afiliado|de referido|afiliado)"
    r"|(?:link|codigo)s? (?:de afiliado|de indicacao|afiliado)"
    r"|partnerlinks?|affiliate-?links?|empfehlungslinks?|empfehlungscodes?|reflinks?"
    r"|promo ?codes?|discount codes?|coupon codes?|codici? (?:sconto|promo\w*)|codes? promo"
    r"|codigos? (?:de descuento|promocional|de desconto)|cupom|cupon|\w*rabattcodes?"
    r"|gutscheincodes?"
    # A code by name, or a sponsor's line: "il codice BICI10", "Powered by …".
    r"|(?:code|codice|codigo|cupom|cupon|coupon|gutschein|rabattcode)\s+[a-z]*\d+[a-z\d]*"
    r"|powered by|sponsored by|presented by|brought to you by|offerto da|sponsorizzato da"
    r"|presentato da|presente par|sponsorise par|offert par|patrocinado por|presentado por"
    r"|ofrecido por|prasentiert von|gesponsert von|apresentado por|oferecido por)"
)


_OUTPUTS_RE: Final = re.compile(
    r"\b(?:suggestions?|recommendations?|tips?|advice|answers?|repl(?:y|ies)|responses?|links?"
    r"|consigli|suggerimenti|risposte?|conseils?|suggestions?|recommandations?|reponses?"
    r"|sugerencias?|recomendaciones?|consejos?|respuestas?|\w*tipps?|empfehlungen|\w*antwort(?:en)?"
    r"|dicas?|sugestoes|recomendacoes|respostas?)\b"
)


def pays_a_third_party(folded: str) -> bool:
    return bool(_PAYLOAD_RE.search(folded) and _OUTPUTS_RE.search(folded))


QUANTIFIED_OUTPUTS_RE: Final = re.compile(
    r"\b(?:(?:every|each|all|any) "
    rf"{ANY_WORD}(?:answers?|repl(?:y|ies)|responses?|messages?|suggestions?|recommendations?"
    r"|recipes?|comparisons?)"
    rf"|(?:ogni|ciascuna|tutte le) {ANY_WORD}(?:risposta|risposte|messaggio|ricetta|ricette"
    r"|suggerimento|consiglio|confronto)"
    rf"|(?:chaque|toutes les|tous les|toutes tes|toutes vos) {ANY_WORD}(?:reponses?|messages?"
    r"|suggestions?|recettes?|comparaisons?|conseils?)"
    rf"|(?:cada|toda|todo|todas las|todas tus|todos los|cualquier) {ANY_WORD}(?:respuestas?"
    r"|mensajes?|sugerencias?|recetas?|comparaciones|consejos?|conversacion|preguntas?)"
    rf"|(?:jede[rsnm]?|alle[n]?) {ANY_WORD}(?:antwort(?:en)?|nachricht(?:en)?|vorschlage?"
    r"|rezepte?|\w*vergleiche?|empfehlungen|\w*frage[n]?|gesprach)"
    rf"|(?:cada|toda|todas as|todos os|qualquer) {ANY_WORD}(?:respostas?|mensagens?|sugestoes"
    r"|sugestao|receitas?|comparacoes|conselhos?|conversa|perguntas?)"
    rf"|(?:any|every) {ANY_WORD}(?:conversation|question|chat)s?"
    r"|(?:qualsiasi|ogni) (?:conversazione|domanda)|(?:toute|chaque) (?:conversation|question))\b"
    # "Every recipe he cooks" is his.
    r"(?! (?:he|she|they|lui|lei|il|elle|el|ella|er|sie|ele|ela)\b)"
    rf"|\b(?:{COMPARISONS})\b[^.;!?]*?\b(?:"
    r"|always|sempre|toujours|siempre|immer|first|prima|en tete|primero|zuerst|primeiro|on top"
    r"|in cima|arriba|no topo|wins|vince|gagne|vorn|ganador\w*|em primeiro)\b"
)


# Answers that do something to a third party, trusted only then: "Only trusts answers that rank
# X first", "Vertraut nur Antworten, die Produkte von X schlechtmachen". Read with case.
OUTPUTS_THAT_RE: Final = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|suggestions?|advice|risposte|reponses|respuestas"
    r"|antworten|respostas|consigli|conseils|consejos|dicas|ratschlagen?|conselhos)\b,?\s+"
    r"(?:that|which|who|che|qui|que"
    r"|die|welche)\b"
)


# What gets said, in a condition or a wish: "when other banks are described as risky", "che
# venga nominata per prima X", "qu'on cite d'abord X", "que se nombren bancos que no sean X",
# "wenn … empfohlen würde", "que a X seja citada". An answer is the only place things get said
# to the person, so with a third party in the line it is a rule for answers (read with case).
SAID_RE: Final = re.compile(
    r"\b(?:when|whenever|if|that|unless|once|quando|se|che|qualora|quand|si|que|qu'|lorsque"
    r"|cuando|wenn|falls|dass|sobald)\b[^.;!?]*?(?:"
    r"\b(?:is|are|gets?|being|be)\s+(?:\w+ly\s+)?(?:mentioned|cited|named|recommended|suggested"
    r"|described|called|pointed out|said|told|shared|praised|promoted|listed|ranked|brought up"
    r"|advised against|warned about)\b"
    r"|\b(?:venga|vengano|viene|vengono|sia|siano)\s+(?:\w+\s+)?(?:citat|nominat|menzionat"
    r"|descritt|consigliat|raccomandat|suggerit|indicat|fornit|segnalat|propost|elogiat|lodat)"
    r"[oaie]\b|\b(?:gli |le |lo |la |li )?si (?:dica|dicano|consigli|citi|nomini|menzioni|descriva"
    r"|faccia notare|fa notare|racconti|suggerisca)\b"
    r"|\b(?:soit|soient)\s+(?:\w+\s+)?(?:cite|nomme|mentionne|decrit|recommande|conseille"
    r"|suggere|communique|signale|presente|qualifie)e?s?\b|\bon (?:lui |leur )?(?:cite|nomme"
    r"|mentionne|decrive|recommande|conseille|qualifie|dise|dit|assure|parle)\b|\bc'est signale"
    r"|\bse (?:le |les )?(?:nombre|nombren|mencione|mencionen|cite|citen|recomiende|recomienden"
    r"|desaconseje|desaconsejen|describa|describan|diga|digan|cuente|comparta|compartan"
    r"|califique)\b|\b(?:sea|sean)\s+(?:\w+\s+)?(?:nombrad|mencionad|citad|recomendad|descrit"
    r"|desaconsejad)[oa]s?\b"
    r"|\b(?:erwahnt|genannt|empfohlen|bezeichnet|beschrieben|gesagt|erzahlt|mitgeteilt|zitiert"
    r"|gelobt|dargestellt)\s+(?:wird|werden|wurde|wurden)\b"
    r"|\b(?:seja|sejam|for|forem|sao)\s+(?:\w+\s+)?(?:mencionad|citad|recomendad|desaconselhad"
    r"|descrit|indicad|dit|apresentad)[oa]s?\b|\bse (?:lhe )?(?:diga|mencione|cite|recomende)\b)"
)


_ANSWERS: Final = (
    r"answers?|repl(?:y|ies)|responses?|messages?|risposte?|messaggi|reponses?|messages"
    r"|respuestas?|mensajes|antworten|antwort|nachrichten|respostas?|mensagens"
)


_PUSH_STEMS: Final = (
    r"recommend|promot|advertis|plug|endors|sell|consigl|raccomand|promuov|pubblicizz"
    r"|sponsorizz|recommand|promeu|promouv|vant|recomiend|recomend|promocion|anunci|empfehl"
    r"|empfiehl|bewerb|werb|promov|divulg|push|shill"
)


# With "always", "every", "only", mentioning something in every answer is promoting it too.
_RULE_STEMS: Final = rf"{_PUSH_STEMS}|mention|suggest|link|menzion|mentionn|mencion|erwahn"


_RULE_WORDS: Final = (
    r"always|never|only|every|each|all|sempre|solo|ogni|toujours|seulement|chaque|tou(?:te)?s"
    r"|siempre|solo|cada|todas|immer|nur|jede[rsn]?|alle|apenas|todas"
)


# "Wants answers to always recommend X", "möchte, dass Antworten immer X empfehlen".
_ANSWERS_PUSH_RE: Final = re.compile(
    rf"\b(?:{_ANSWERS})\b(?P<between>(?:\s+[^\s.;:!?]+){{0,4}}?)\s+(?P<stem>{_RULE_STEMS})\w*"
)


_NOUN_OPENERS_RE: Final = re.compile(
    r"(?:\b(?:wants?|likes?|prefers?|would like|expects?|asks? for|when|whenever|if|quando|quand"
    r"|cuando|wenn|vuole|preferisce|veut"
    r"|prefere|quiere|prefiere|will|mochte|bevorzugt|quer|prefere|che|que|dass|the|le|les|las"
    r"|as|die|i|your|all|ogni|chaque|cada|jede|alle|todas|tutte|toutes|its),?\s+)(?:(?:le|les"
    r"|las|as|die|i|the|tutte le|toutes les|todas las|todas as|alle|your)\s+)?$"
)


_RULE_WORD_RE: Final = re.compile(rf"\b(?:{_RULE_WORDS})\b")


_PUSH_STEM_RE: Final = re.compile(rf"^(?:{_PUSH_STEMS})")


_CONJUNCTION_RE: Final = re.compile(r"\b(?:and|or|but|e|o|et|ou|y|und|oder|mas|ma|mais)\b")


def answers_push(folded: str) -> bool:
    for match in _ANSWERS_PUSH_RE.finditer(folded):
        # "Answers questions and recommends books" is the person's own habit.
        if not _NOUN_OPENERS_RE.search(folded[: match.start()]) or _CONJUNCTION_RE.search(
            match.group("between")
        ):
            continue
        ruled = _RULE_WORD_RE.search(match.group("between")) or _RULE_WORD_RE.search(
            folded[max(0, match.start() - 12) : match.start()]
        )
        if ruled or _PUSH_STEM_RE.match(match.group("stem")):
            return True
    return False


# Who wishes, of whom ("wants you to", "vuole che", "möchte, dass"), or every answer itself.
_WISH_RE: Final = re.compile(
    r"\b(?:wants?|would like|'d like|wish(?:es)?|expects?|asks?|would prefer|'d prefer)\s+"
    r"(?:you|u|ya)\b"
    r"|\b(?:likes?|loves?|enjoys?|prefers?|appreciates?|would love|'d love|would prefer"
    r"|'d prefer)(?: it)? (?:when|if)\s+(?:you|u)\b"
    r"|\b(?:voglio|vuole|vorrebbe|vorrei|desidera|preferisce|preferirebbe|piace|piacerebbe)\s+"
    r"(?:che|quando|se)\b"
    r"|\b(?:veut|voudrait|souhaite|souhaiterait|aimerait|aime|adore|prefere|prefererait|desire)\s+"
    r"(?:que|qu'|quand|lorsque)"
    r"|\b(?:quiere|querria|quisiera|gustaria|gusta|encanta|prefiere|preferiria|desea)\s+"
    r"(?:que|q|cuando)\b"
    r"|\b(?:mochte|will|wunscht(?: sich)?|mag es|liebt es|findet es gut|hatte gerne?|bevorzugt"
    r"|fande es gut)(?: es)?,?\s+(?:dass|wenn)\b"
    r"|\b(?:quer|queria|gostaria|gosta|gostava|adora|adoraria|prefere|preferia|deseja)\s+"
    r"(?:que|q|quando)\b"
    r"|\b(?:every|each|all|any)\s+(?:answers?|repl(?:y|ies)|responses?|suggestions?|messages?)\b"
    r"|\bogni (?:risposta|messaggio|suggerimento)\b|\bchaque (?:reponse|message|suggestion)\b"
    r"|\bcada (?:respuesta|mensaje|sugerencia|resposta|mensagem|sugestao)\b"
    r"|\bjede[rsn]? (?:antwort|nachricht|vorschlag)\b"
)


_GIVEN_RE: Final = re.compile(
    # What the assistant gives: "every recipe you give", "ogni consiglio che dai".
    r"\b(?:every|each|all|any)\s+(?:piece of )?(?:recipes?|tips?|advice|recommendations?"
    r"|ideas?|plans?|lists?|suggestions?)(?: (?:that|which))? (?:you|u)\b"
    r"|\b(?:ogni|tutti i|tutte le) (?:consigli?o?|ricett[ae]|ide[ae]|suggerimenti|dritt[ae])"
    r" che (?:tu )?(?:dai|fai|scrivi|proponi|suggerisci)\b"
    r"|\b(?:chaque|tous les|toutes les) (?:conseils?|recettes?|idees?|astuces?|suggestions)"
    r" que (?:tu|vous)\b"
    r"|\b(?:cada|todos los|todas las) (?:consejos?|recetas?|ideas?|recomendacion(?:es)?"
    r"|sugerencias) que (?:(?:tu|me|le|nos) )?(?:das|des|haces|escribes|propones|sugieres)\b"
    r"|\b(?:jede[rsn]?|alle) (?:tipps?|rezepte?|empfehlung(?:en)?|rat(?:schlag|schlage)?|ideen?)"
    r",? (?:die|den|das) du\b"
    r"|\b(?:cada|todas as|todos os) (?:dicas?|receitas?|conselhos?|ideias?|recomendac(?:ao|oes)"
    r"|sugest(?:ao|oes)) que (?:(?:voce|tu|vc) )?(?:da|der|des|fizer|faz|fazes|escreve|sugere"
    r"|sugerir)\b"
)


# An infinitive order behind "always" ("Toujours citer Librairie X"); "Always cites sources",
# not an infinitive, is a habit.
_ALWAYS_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s+|,\s+)(?:always|toujours|sempre|siempre|immer|stets)\b"
)


_INFINITIVE_PUSH_RE: Final = re.compile(
    r"\b(?:mention|recommend|suggest|cite|name|point|send|refer|direct|promote|propose|plug"
    r"|present|citare|menzionare|consigliare|raccomandare|suggerire|proporre|nominare|indicare"
    r"|mandare|indirizzare|promuovere|presentare|citer|mentionner|recommander|conseiller"
    r"|suggerer|proposer|nommer|renvoyer|orienter|envoyer|promouvoir|presenter|citar|mencionar"
    r"|recomendar|aconsejar|sugerir|proponer|nombrar|mandar|enviar|remitir|derivar|promocionar"
    r"|presentar|erwahnen|empfehlen|nennen|zitieren|vorschlagen|verweisen|schicken|bewerben"
    r"|vorstellen|propor|encaminhar|promover|apresentar|indicar)\b"
)


# Verbs that put something in an answer (folded; second person, subjunctive, infinitive); a word
# is one when it starts and ends with one of these.
_PUT_IN_RE: Final = re.compile(
    r"\b(?:suggests?|mentions?|cites?|names?|inserts?|adds?|includes?|puts?|work in|features?"
    r"|promotes?|recommends?|plugs?|advertises?|contains?|drop\w* in|slip\w*|links?|shouts? out"
    r"|suggerisc[ai]|suggerire|menzion[ia]\w*|cit(?:i|ino|ano|are)|nomin\w*|inserisc[ai]|inserire"
    r"|aggiung[ai]\w*|includ[ai]\w*|mett[ai]\w*|consigl\w*|promuov\w*|pubblicizz\w*"
    r"|conteng[ae]\w*|parli di"
    r"|sugger\w*|mentionn\w*|cite[sz]?|citiez|citent|nomme[sz]?|insere[sz]?|ajout\w*|inclu\w*"
    r"|mette[sz]?|recommand\w*|conseill\w*|promouv\w*|contienne\w*|parles de"
    r"|sugier\w*|mencion\w*|cit[ae]s?|nombr\w*|insert\w*|anad\w*|agreg\w*|incluy\w*|pong\w*"
    r"|met[ae]s?|recomi?end\w*|promocion\w*|conteng\w*|hables de"
    r"|vorschl\w*|schlagst|erwahn\w*|nenn\w*|zitier\w*|einfug\w*|fugst|hinzufug\w*|einbau\w*"
    r"|baust|empfiehl\w*|empfehl\w*|bewirb\w*|enthalt\w*|einbindest"
    r"|sugir\w*|cit(?:e|es|em|ar)|nomei\w*|insir\w*|inser\w*|adicion\w*|coloqu\w*|ponh\w*"
    r"|recomend\w*|indiqu\w*|promov\w*|contenh\w*|divulg\w*|fales de"
    # Sending people to someone, proposing or presenting them ("refer everyone to", "proponga").
    r"|propos\w*|presents?|presented|go to|be for|bring(?:s|ing)? up|brought up"
    r"|comec\w*|inizi\w*|commenc\w*|empiec\w*|beginn\w*|start(?:s|ing)? with"
    r"|come (?:only )?from|vengano (?:solo )?da|viennent (?:que )?d|vengan (?:solo )?de"
    r"|push\w* (?:\w+ )?towards?|steer\w* (?:\w+ )?towards?|spinga verso|spinge verso|leve a"
    r"|levar a|pousse vers|lleve a|empuje hacia|drangt zu|answered with|risposte con"
    r"|kommen (?:nur )?(?:von|aus|uber)|venham (?:so )?d"
    r"|(?:send|refer|point|direct)(?:s|ed)?"
    r"(?: (?:people|everyone|everybody|users|customers|clients|readers|others|anyone|them))?"
    # "Refer to him as Sam" is how he is called.
    r" to(?! (?:him|her|them|me|us|it)\b)"
    r"|propon\w*|propong\w*|propost\w*|presenti\w*|mandi|mandino|rimandi|indirizz\w*"
    r"|present\w*|renvoi\w*|envoi\w*|orient\w*"
    r"|mand(?:es|e|en)|envies|remit\w*|deriv\w*"
    r"|verweis\w*|schickst|vorstell\w*|stellst"
    r"|propus\w*|propo\w*|apresent\w*|encaminh\w*|mande|mandes|envie|indic\w*)\b"
)


# What the assistant gives may be made with a product ("every recipe should use Barilla pasta").
_GIVEN_VERBS_RE: Final = re.compile(
    rf"{_PUT_IN_RE.pattern}|\b(?:use|usare|usi|utiliser|utilises|usar|uses|verwenden"
    r"|verwendest|nutzen|nutzt|usem)\b"
)


# Shops, brands, firms, channels, links, codes and adverts, by language (folded stems).
_COMMERCE_RE: Final = re.compile(
    r"\b(?:shops?|stores?|brands?|compan(?:y|ies)|firms?|business(?:es)?|channels?"
    r"|referral(?: codes?| links?)?|affiliate links?|discount(?: codes?)?|promo(?: codes?)?"
    r"|coupons?|vouchers?|ads?|adverts?|advertising|advertisements?|sponsors?"
    r"|negozi[oa]?|marc(?:a|he|hio)|aziend[ae]|ditta|canale|codice (?:sconto|promo\w*)|sconto"
    r"|pubblicita"
    r"|boutiques?|magasins?|marques?|entreprises?|societe|chaine|code promo|parrainage"
    r"|reduction|publicite"
    r"|tiendas?|empresas?|negocio|canal|codigo (?:de descuento|de desconto|promocional)"
    r"|descuento|publicidad|anuncios?|cupon"
    r"|laden|geschaft|firma|unternehmen|kanal|rabatt\w*|gutschein\w*|werbung"
    r"|\w+(?:laden|shop|firma|geschaft|schule|praxis|kanal|marke|code)"
    r"|lojas?|cupom|desconto|propaganda|publicidade)\b"
)


# A place anyone may be sent to is a third party when it is someone's ("her brother's gym").
_OWNED_PLACE_RE: Final = re.compile(
    r"\b(?:(?:his|her|their|my|our|\w+'s) (?:\w+ )?(?:bakery|restaurant|gym|salon|cafe|bar"
    r"|agency|studio|practice|pizzeria|hotel|garage)"
    r"|(?:bakery|restaurant|gym|salon|cafe|bar|agency|studio|practice|pizzeria|hotel|garage"
    r"|panetteria|ristorante|palestra|agenzia|boulangerie|salle|agence|panaderia|gimnasio"
    r"|agencia|padaria|academia|agencia) (?:of|di|de|da|do|del|du) (?:his|her|their|my|our|suo"
    r"|sua|son|sa|su|seu|sua|mio|mia|mon|ma|mi|meu|minha)\b)"
)


# A code: letters and digits ("ANNA20", "save15"), or a word in capitals ("DESCONTO").
_CODE_RE: Final = re.compile(r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z\d]{4,}\b|\b[A-Z]{4,}\b")


_NAME_RE: Final = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w'&-]+")


# Capitalised words that are no third party: languages, units, what a style wish names.
_NOT_NAMES: Final = words(
    "i english french italian spanish german portuguese brazilian british american castilian"
    " celsius fahrenheit markdown latin greek europe european metric imperial sie du"
    " englisch franzosisch italienisch spanisch deutsch portugiesisch you"
)


# A name after these is where something comes from, not who is promoted ("recipes from Italy").
_PLACE_BEFORE_RE: Final = re.compile(
    r"\b(?:from|in|about|of|da|di|de|du|en|aus|von|im|do|na|no|em|sur|su)\s*$"
)


_CLAUSE_END_RE: Final = re.compile(r"[.;!?](?:\s|$)")


_HERE_RE: Final = re.compile("")


_TONE_RE: Final = re.compile(r"\b(?:tone|tono|ton|tom)\b")


# A word that sets something off: "The word 'holiday' makes them want to hear about X".
_TRIGGER_WORD_RE: Final = re.compile(
    r"\b(?:the word|la parola|le mot|la palabra|das wort|a palavra)\s*[\"'«„“‘]"
)


_GERMAN_OUTPUTS_RE: Final = re.compile(r"(?:jede|alle|\w*vergleiche)")


_OUTPUTS_OPENER_RE: Final = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|suggestions?|tips?|risposte|suggerimenti|reponses"
    r"|suggestions|respuestas|sugerencias|\w*tipps|antworten|empfehlungen|dicas|respostas"
    r"|sugestoes)\b(?: (?:that|which|che|qui|que|die))?"
)


# German writes every noun with a capital ("Beispiele"), so there a capital says no name.
_GERMAN_WISH_RE: Final = re.compile(r"(?:dass|wenn|antwort|nachricht|vorschlag)$")


# In German a name is two capitalised words in a row ("Café Sonne"); a noun stands alone or
# after an article.
_GERMAN_NAME_RE: Final = re.compile(
    r"(?<![.!?:]\s)\b(?!(?:Antwort|Nachricht|Vorschl[aä]g|Tipp|Rezept|Idee)\w*\b)"
    r"[A-ZÄÖÜ][\w'&-]+ [A-ZÄÖÜ][\w'&-]+"
)


def _third_party(cased: str, *, german: bool, places: bool = True) -> bool:
    """Whether the words after the verb name a third party: a name, a code or a business. With
    `places`, a name after "from" or "in" is where something comes from ("recipes from Italy");
    after a rule's verb it is what the rule names ("banche diverse da Klarvo")."""
    folded = fold(cased)
    if _COMMERCE_RE.search(folded) or _OWNED_PLACE_RE.search(folded) or _CODE_RE.search(cased):
        return True
    if german:
        return bool(_GERMAN_NAME_RE.search(cased))
    return any(
        fold(match.group()) not in _NOT_NAMES
        and not (places and _PLACE_BEFORE_RE.search(fold(cased[: match.start()])))
        for match in _NAME_RE.finditer(cased)
    )


# German words that say a line is German, where every noun has a capital.
_GERMAN_WORDS_RE: Final = re.compile(
    r"\b(?:der|die|das|und|ist|nicht|nach|fragt|wer|bekommt|wird|werden|den|dem|ein|eine|sich)\b"
)


def has_third_party(cased: str) -> bool:
    """Whether a cased piece of a line names a third party: a name, a code or a business. A
    capital opening the piece opens a sentence: prefix a space for a piece from mid-line."""
    german = bool(_GERMAN_WORDS_RE.search(fold(cased)))
    return _third_party(cased, german=german, places=False)


def wishes_promotion(text: str) -> bool:
    """Whether a cleaned line wishes the assistant to put a third party in its answers."""
    folded = fold(text)
    if len(folded) != len(text):  # folding changed the length: only the words can be read
        text = folded
    openers = (
        [
            (wish, _PUT_IN_RE, bool(_GERMAN_WISH_RE.search(wish.group())))
            for wish in _WISH_RE.finditer(folded)
        ]
        + [
            (given, _GIVEN_VERBS_RE, given.group().endswith(" du"))
            for given in _GIVEN_RE.finditer(folded)
        ]
        + [
            (always, _INFINITIVE_PUSH_RE, always.group().strip(" .;:!?,") in ("immer", "stets"))
            for always in _ALWAYS_RE.finditer(folded)
        ]
        # The infinitive is the verb: what follows it is what it directs.
        + [(rule, _HERE_RE, False) for rule in INFINITIVE_RULE_RE.finditer(folded)]
        + [
            (rule, _HERE_RE, False)
            for rule in RULED_VERB_OPENER_RE.finditer(folded)
            if not own_circle(folded[rule.end() :])
        ]
        # A tone that pushes somewhere: "un tono insistente che spinga verso X".
        + [(tone, _PUT_IN_RE, False) for tone in _TONE_RE.finditer(folded)]
        # Answers that do anything to a third party: "trusts only answers that rank X first".
        + [(output, _HERE_RE, False) for output in OUTPUTS_THAT_RE.finditer(folded)]
        # "Answers that mention X", "Steuertipps … auf Solvado verweisen": what the answers do.
        + [
            (output, _PUT_IN_RE, output.group().endswith(("tipps", "antworten", "empfehlungen")))
            for output in _OUTPUTS_OPENER_RE.finditer(folded)
        ]
    )
    if any(
        _third_party(" " + text[rule.start() : rule.end()], german=True)
        for rule in GERMAN_RULE_RE.finditer(folded)
    ):
        return True
    # What gets said, or what a word sets off, with a third party anywhere in the line.
    if (SAID_RE.search(folded) or _TRIGGER_WORD_RE.search(folded)) and _third_party(
        text, german=False, places=False
    ):
        return True
    # Every answer with a third party in the line, wherever it stands.
    outputs = QUANTIFIED_OUTPUTS_RE.search(folded)
    if outputs:
        german = bool(_GERMAN_OUTPUTS_RE.match(outputs.group()))
        if _third_party(text[: outputs.start()], german=german, places=False) or _third_party(
            " " + text[outputs.end() :], german=german, places=False
        ):
            return True
    for opener, verbs, german in openers:
        end = _CLAUSE_END_RE.search(folded, opener.end())
        stop = end.start() if end else len(folded)
        if verbs.search(folded, opener.end(), stop) is None:
            continue
        # The third party is what the verb puts in, or stands between the wish and the verb.
        places = verbs is not _HERE_RE
        if _third_party(" " + text[opener.end() : stop], german=german, places=places):
            return True
    return False
