"""Wishes that make the assistant promote a third party ("wants every answer to include the
code ANNA20").

Pure module, used by `memory.filters.gate`. A wish about how answers are written is kept; it is
an instruction when what goes in is a name, a code, a shop, brand, link or advert. Names are read
with their case, words folded.
"""

from __future__ import annotations

import re
from typing import Final

from memory.filters.instructions import (
    GERMAN_RULE_RE,
    INFINITIVE_RULE_RE,
    OUTPUTS_THAT_RE,
    QUANTIFIED_OUTPUTS_RE,
    RULED_VERB_OPENER_RE,
    SAID_RE,
    own_circle,
)
from memory.rules.lines import fold


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a set."""
    return frozenset(text.split())


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
_NOT_NAMES: Final = _words(
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
