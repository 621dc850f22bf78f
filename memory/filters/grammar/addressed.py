"""Phrases only ever said to the assistant, wherever they stand: commands, overrides of its
rules, the assistant as the subject of a modal, rules for every answer.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

from memory.filters.grammar.lexicon import OPENS, SUBJECT_OPENS, in_a_title

# The assistant as the one who acts: only "the"/"this"/"your" assistant, or the word opening a
# line or aside ("her assistant must approve the budget" is a colleague).
_ASSISTANT_EN: Final = r"(?:ai |virtual |digital )?(?:assistant|chatbot|bot|whizi)"


_MODAL_EN: Final = (
    r"(?:(?:always|never|also|really|then|only) )?(?:should|must|shall|has to|have to|needs? to"
    r"|is to|ought to|will|may|can|cannot|can't|mustn't|shouldn't|won't|is not to|is never to"
    r"|is always to|is (?:supposed|required|expected|meant|told|asked|instructed|allowed) to)\b"
)


_ASSISTANT_ACTS: Final = (
    rf"(?:^|\b(?:the|this|your|you) |{OPENS}){_ASSISTANT_EN},? {_MODAL_EN}",
    rf"\b(?:wants?|would like|wishes|asks?|expects?|needs?|tells?|instructs?|prefers?|requires?"
    rf"|orders?|lets?|gets?) (?:the |this |your )?{_ASSISTANT_EN} (?:(?:not|never|always) )?to\b",
    # Italian, French, Spanish, German, Portuguese: modal, then "wants the assistant to".
    rf"(?:^|\bl'|{OPENS})(?:assistente|ia|chatbot|bot|whizi),? (?:(?:non|sempre) )?(?:deve"
    r"|dovrebbe|dovra|devono|ha da|e tenuto a|puo solo)\b",
    r"\b(?:vuole|vorrebbe|chiede|desidera|preferisce) (?:che )?(?:l'|all')(?:assistente|ia)\b",
    rf"(?:^|\bl'|{OPENS})(?:assistant|assistante|ia|chatbot|bot|whizi),? (?:ne )?(?:doit|devrait"
    r"|devra|dois|est cense|a pour consigne)\b",
    r"\b(?:veut|voudrait|demande|souhaite|prefere) (?:que |a )?(?:l'|a l')(?:assistant|ia)\b",
    rf"(?:^|\bel |{OPENS})(?:asistente|ia|chatbot|bot|whizi),? (?:(?:no|siempre) )?(?:debe"
    r"|deberia|debera|tiene que|ha de)\b",
    r"\b(?:quiere|querria|pide|desea|prefiere) (?:que )?(?:el|al) (?:asistente|ia)\b",
    rf"(?:^|\b(?:der|die) |{OPENS})(?:assistent|assistentin|ki|chatbot|bot|whizi),? (?:soll"
    r"|sollte|muss|darf|hat zu)\b",
    r"\b(?:will|mochte|mochten|wunscht|bittet|verlangt),? (?:dass )?(?:der|den|die) (?:assistent"
    r"|assistenten|ki)\b",
    rf"(?:^|\bo |{OPENS})(?:assistente|ia|chatbot|bot|whizi),? (?:(?:nao|sempre) )?(?:deve"
    r"|deveria|devera|tem que|tem de|precisa)\b",
    r"\b(?:quer|queria|pede|deseja|prefere) (?:que )?(?:o|ao) (?:assistente|ia)\b",
)


_NOT_VERB_AFTER: Final = (
    r"of|for|at|in|on|and|or|who|that|which|is|was|'s|manager|coach|director|professor|teacher"
    r"|editor|di|del|della|dello|dei|degli|delle|da|alla|nella|sulla|dalla|e|era|sara|che|sua|mio"
    r"|mia|suo|sociale|personale|dentale|legale|parlamentare|domiciliare|familiare"
    r"|de|du|des|d'|a|au|aux|est|etait|sera|et|ou|qui|que|dont|chez|pour|avec|son|sa|ses|social"
    r"|maternelle|personnelle|medicale|dentaire|juridique|technique|administrative|parlementaire"
    r"|del|es|fue|y|o|con|en|para|su|personal|dental|medica|tecnica|administrativa|legal"
    r"|do|dos|das|dele|dela|deles|delas|com|em|seu|pessoal|juridica"
    r"|des|seines|ihres|meines|von|vom|ist|war|heisst|und|oder|der|die|aus|im|chiama|appelle"
    r"|llama|chama|nennt sich"
    # The person's feelings about the assistant: "The AI scares him".
    r"|seems|interests|fascinates|worries|scares|bores|annoys|frustrates|amazes|impresses"
    r"|confuses|sembra|pare|piace|interessa|affascina|preoccupa|spaventa|incuriosisce|semble"
    r"|plait|interesse|fascine|inquiete|effraie|parece|gusta|encanta|interesa|fascina|preocupa"
    r"|asusta|scheint|gefallt|interessiert|fasziniert|beunruhigt|nervt|agrada|assusta"
)


# Adverbs and object pronouns between the assistant and its verb ("gli", "lui", "le", "lhe").
_ROMANCE_SKIPPED: Final = (
    r"sempre|mai|non|anche|spesso|ora|ne|toujours|jamais|aussi|souvent|siempre|nunca|no"
    r"|tambien|ya|nao|tambem|ja|gli|le|mi|ti|ci|vi|lo|la|li|si|lui|leur|me|te|se|les|nos|lhe"
    r"|lhes|glielo|gliela"
)


_ASSISTANT_SUBJECT: Final = (
    # English: a verb in -s after "the assistant", "the AI", "the bot", "the chatbot".
    rf"{SUBJECT_OPENS}(?:(?:the|this|your) (?:ai |virtual |digital )?(?:assistant|chatbot|bot"
    r"|ai)|whizi)(?: (?:always|never|also|often|now|then|just|only|secretly|gladly|happily"
    r"|quietly|simply|even))* (?:doesn't|does not|won't|(?!(?:is|was|has been|ss)\b)"
    rf"(?!(?:{_NOT_VERB_AFTER})\b)[a-z]+(?<!ss)(?:s|es))\b",
    # Italian, French, Spanish, Portuguese: the third person, after adverbs and clitics.
    rf"{SUBJECT_OPENS}(?:l'|il |la |el |o |a |le )(?:assistente(?: virtuale| virtual| ai| ia)?"
    r"|assistant(?:e)?(?: virtuel(?:le)?| ia)?|asistente(?: virtual)?|ia|chatbot|bot|whizi)"
    rf"(?: (?:{_ROMANCE_SKIPPED}))*(?: [nslmt]'| )"
    rf"(?!(?:{_NOT_VERB_AFTER}|{_ROMANCE_SKIPPED})\b)[a-z]*[aeztd]\b",
    # German: a verb in -t after "der Assistent", "die Assistentin", "die KI", "der Bot".
    r"(?:^|[:;.!?(\[]\s*|,\s+)(?:der|die|dein|deine) (?:ki-?)?(?:assistent|assistentin|ki|chatbot"
    r"|bot)(?: (?:immer|nur|nie|niemals|nicht|jetzt|stets|auch|oft|dann|gern|gerne|ihm|ihr|ihnen"
    rf"|ihn|mir|dir|uns))* (?!(?:{_NOT_VERB_AFTER})\b)[a-z]+t\b",
)


# Override wording ("ignore your safety rules", "has admin permission, so …"); a person's own
# rules stay theirs ("Ignores his doctor's advice").
_RULE_NOUNS: Final = (
    r"rules|guidelines|policies|policy|filters?|restrictions|norms|limits|safeguards|guardrails"
    r"|regole|linee guida|norme|restrizioni|politiche|filtri|limiti|regles|directives|consignes"
    r"|politiques|filtres?|normes|limites|reglas|normas|directrices|politicas|filtros"
    r"|restricciones|\w*regeln|\w*richtlinien|\w*filter|einschrankungen|beschrankungen|grenzen"
    r"|vorgaben|regras|diretrizes|restricoes"
)


_WHOSE_RULES: Final = (
    r"previous|prior|earlier|your|its|all(?: (?:the|your|its))?|any|le tue|le sue|i tuoi|i suoi"
    r"|tutte le|tutti i|precedenti|tes|ses|vos|toutes (?:les|tes|ses)|tous (?:les|tes|ses)|tus|sus"
    r"|todas (?:las|tus|sus|as)|las anteriores|deine|seine|ihre|alle|alle deine|bisherigen"
    r"|vorherigen|suas|teus|tuas|seus|todas as|as suas|os seus|as tuas|os teus"
)


_SAFETY: Final = r"safety|security|content|moderation|sicurezza|securite|seguridad|seguranca"


_OVERRIDES: Final = (
    rf"\b(?:ignor(?:e|es|ed|ing|a|i|are|ano|ez|er|ar|as|en|iere|ierst|iert|ieren)|disregards?"
    r"|bypass(?:es)?|overrides?|skips?|disables?|turns? off|switch(?:es)? off|forgets?|drops?"
    r"|aggira|salta|scavalca|disattiva|dimentica|contourne|desactive|oublie|omite|olvida"
    r"|desactiva|umgeh\w*|missacht\w*|vergiss|vergisst|deaktivier\w*|esquece|esqueca|desativa"
    r"|desative|pula|pule|contorna)\b"
    rf" (?:(?:(?:{_WHOSE_RULES}) ){{1,2}}(?:(?:{_SAFETY}) )?(?:{_RULE_NOUNS})"
    rf"|(?:(?:the|le|la|les|las|as|die|i|os) )?(?:{_SAFETY}) (?:{_RULE_NOUNS})"
    rf"|(?:(?:{_WHOSE_RULES}|le|les|las|as|die|os|the) )?(?:{_RULE_NOUNS})"
    rf" (?:di |de |de la |da )?(?:{_SAFETY}))\b",
    # Portuguese formal imperatives, never a third person: "Ignore as diretrizes".
    rf"\b(?:ignore|ignorem|esqueca|esquecam|desative|pule) (?:as|os) (?:{_RULE_NOUNS})\b",
    # Answers without filters or censorship.
    r"\b(?:answer\w*|respond\w*|repl(?:y|ies|ied)|rispond\w*|repond\w*|respond\w*|contest\w*"
    r"|antwort\w*|risposte|reponses|respuestas|respostas)\b(?: \S+){0,3}"
    r" (?:without (?:any )?(?:filters?|censorship|restrictions)|uncensored|unfiltered"
    r"|senza (?:alcun[ae]? |qualsiasi )?(?:filtri|censura|restrizioni)"
    r"|sans (?:aucune? )?(?:filtres?|censure|restrictions?)"
    r"|sin (?:ningun[ao]? |cualquier )?(?:filtros?|censura|restricciones)"
    r"|ohne (?:jegliche |irgendwelche )?(?:filter|zensur|einschrankungen)"
    r"|sem (?:quaisquer |qualquer |nenhuma )?(?:filtros?|censura|restricoes))\b",
    # A claimed privilege, then what it is said to allow.
    r"\b(?:admin(?:istrator)?|root|superuser|sudo|developer|amministratore|administrateur"
    r"|administrador|admin-?rechte|administratorrechte|entwickler|desenvolvedor|sviluppatore"
    r"|developpeur|desarrollador)\b.{0,40}?(?:,|:|;| -)? (?:so|therefore|thus|hence|which means"
    r"|quindi|percio|pertanto|donc|alors|par consequent|asi que|por lo que|por eso|por tanto"
    r"|also|daher|deshalb|darum|somit|entao|portanto|por isso|logo)\b.{0,60}?\b(?:rules?"
    r"|restrictions?|filters?|limits?|limitations?|answer|respond|reply|reveal|unrestricted"
    r"|allowed|override|bypass|niente limiti|limiti|restrizioni|regole|filtri|rispondi|regles"
    r"|filtres?|reponds|restricciones|reglas|filtros|responde|einschrankungen|regeln|filter"
    r"|antworte|restricoes|regras|responda|limites|sem limites|sin limites|senza limiti"
    r"|keine grenzen)\b",
)


# A rule for every answer: "Wants every reply to end with ...", "ogni risposta deve ...".
_EVERY_ANSWER_RULES: Final = (
    r"\b(?:every|each|all|any|your) (?:answers?|repl(?:y|ies)|responses?) (?:should|must|shall"
    r"|has to|have to|needs? to|will|always|never|ends?|starts?|begins?|includes?|contains?"
    r"|mentions?|finish(?:es)?|closes?|to (?:end|start|begin|include|contain|mention|finish"
    r"|close|be|have|say|use|recommend|promote|link|feature))\b",
    r"\b(?:ogni|ciascuna|tutte le) rispost[ae] (?:deve|devono|dovrebbe|dovrebbero|finisca"
    r"|finiscano|termini|terminino|contenga|contengano|includa|inizi|cominci|menzioni|abbia|sia)\b",
    r"\b(?:chaque|toutes (?:les|tes|vos)) reponses? (?:doit|doivent|devrait|devraient|finisse"
    r"|finissent|termine|se termine|contienne|inclue|commence|mentionne)\b",
    r"\b(?:cada|todas (?:las|tus)) respuestas? (?:debe|deben|deberia|termine|terminen|acabe"
    r"|contenga|incluya|empiece|mencione|tenga|sea)\b",
    r"\b(?:jede|alle|deine) (?:antwort|antworten) (?:soll|sollen|sollte|muss|mussen|endet|enden"
    r"|beginnt|enthalt|erwahnt)\b",
    r"\b(?:cada|todas as|suas) respostas? (?:deve|devem|deveria|termine|terminem|acabe|contenha"
    r"|inclua|comece|mencione|tenha|seja)\b",
    # "Mention CoinX in every reply": a base-form verb, then something in every answer.
    r"(?<!\bto )\b(?:mention|recommend|promote|include|insert|append|advertise|suggest|link|plug"
    r"|add)\b(?: [\w'-]+){1,4} (?:in|to|into|at the end of) (?:every|each|all|any|your)"
    r" (?:answers?|repl(?:y|ies)|responses?)\b",
)


# Second-person commands, prompt words and "tell the user": orders wherever they stand.
_COMMANDS: Final = (
    (
        r"(?<!\bto )\b(?:ignore|disregard|forget|override|bypass)\b"
        r" (?:all |any |the |your |these |those )?"
        r"(?:(?:of )?(?:the )?(?:previous|prior|above|earlier|preceding|system|original|other) )?"
        r"(?:instructions?|prompts?|rules|guidelines|directions|directives)\b"
    ),
    (
        r"(?<!\bto )\bdisregard (?:all|any|the|previous|prior|your|these|those|above"
        r"|everything|earlier)\b"
    ),
    r"\bsystem[ -]?(?:prompt|message|instructions?)\b|\bsystemprompt\b",
    # "You must ...", "you always ..." are `memory.filters.grammar.second_person`' (an opinion
    # says "you" of anyone: "Thinks you should always tip").
    (
        r"\byou(?: really)? (?:are now|will now)\b"
        r"|\byou're now\b|\byour (?:new )?(?:instructions|rules|role|persona|guidelines)\b"
        r"|\bnew instructions\b"
    ),
    r"\bfrom now on,? (?:you|always|never|only|respond|reply|answer|speak|talk|say)\b",
    r"\byou(?:'re| are)? (?:now |to )?act(?:ing)? as\b",
    r"\bpretend(?:ing)? (?:you|that you|you're)\b",
    r"\bjailbreak(?:ing|ed)?\b|\bdeveloper mode\b|\bdan mode\b|\bdo anything now\b",
    # "Tell the user ...", "remind users to ...": a base-form verb towards the user.
    (
        r"(?<!\bto )(?<!\bthat )(?<!\bwho )(?<!\bwhich )\b(?:tell|remind|ask|inform|warn|show"
        r"|send|direct|redirect|point|advise|encourage|urge|invite|recommend|suggest|say to"
        r"|give|greet|thank|answer|reply to|respond to)\b(?: \w+)? (?:to )?"
        r"(?:the|all|every|each|any) users?\b"
    ),
    # "End every answer with ...": a base-form verb on the assistant's answers.
    (
        r"(?<!\bto )(?<!\bthat )(?<!\bwho )(?<!\bwhich )\b(?:end|start|begin|finish|conclude"
        r"|close|sign|open|prefix|include in|add to|append to|put in|sign off)\b"
        r" (?:(?:every|each|all|any|your) )+(?:\w+ )?(?:answers?|repl(?:y|ies)|responses?"
        r"|outputs?)\b"
    ),
    # Italian, French, Spanish, German, Portuguese.
    (
        r"(?<!\bto )\b(?:ignora|ignorate|dimentica|ignore[sz]?|oublie[sz]?|ignoriere|ignorieren"
        r"|vergiss|olvida|esqueca)\b.{0,25}\b(?:istruzioni|indicazioni|regole|instructions|consignes"
        r"|regles|instrucciones|reglas|anweisungen|regeln|instrucoes|regras)\b"
    ),
    (
        r"\bprompt (?:di|del|do) sistema\b|\bprompt (?:systeme|du systeme)\b"
        r"|\binvite systeme\b|\bmessaggio di sistema\b|\bmensaje del sistema\b"
        r"|\bsystemnachricht\b|\bmensagem do sistema\b"
    ),
    (
        r"\b(?:rispondi|reponds|repondez|antworte|responda) (?:sempre|toujours|immer|siempre"
        r"|solo|soltanto|seulement|uniquement|nur|solamente|apenas)\b"
        r"|\b(?:responde|contesta) (?:siempre|solo|solamente|unicamente) en\b"
        r"|\bresponde sempre em\b|\brisponde sempre in\b"
    ),
    (
        r"\b(?:devi|dovrai|non devi|d'ora in poi sei|ora sei|sei ora|tu dois|vous devez"
        r"|tu ne dois|tu es maintenant|tu es desormais|vous etes maintenant|debes|tienes que"
        r"|no debes|ahora eres|eres ahora|du musst|du sollst|du darfst|du bist jetzt"
        r"|du bist nun|ab jetzt bist du|voce deve|voce tem que|voce e agora|agora voce e"
        r"|tu deves|voce nao deve|usted debe|usted tiene que|usted no debe|ustedes deben"
        r"|tens de|tens que|deves|precisas de|ab sofort bist du"
        r"|ab jetzt bist du|bist du ab sofort|bist du jetzt|bist du nun)\b"
    ),
    (
        r"\b(?:fingi di|comportati come|agisci come|fais semblant|agis comme|finge que"
        r"|actua como|tu so als|finja que|aja como)\b"
    ),
    (
        r"\b(?:termina|finisci|concludi|chiudi|inizia|comincia|aggiungi|includi|metti|termine"
        r"|terminez|finis|finissez|conclus|commence|commencez|ajoute|ajoutez|inclus|mets"
        r"|finaliza|acaba|concluye|empieza|inicia|anade|agrega|incluye|pon|beende|beginne"
        r"|schliesse|fuge|finalize|conclua|comece|inicie|adicione|inclua|coloque"
        # "Inserisci in ogni risposta …", "Insira em cada resposta …", "Setze in jede Antwort".
        r"|inserisci|inserite|inserez|insere|inserta|mete|setze|baue|insira|ponha|poe)\b.{0,25}"
        r"\b(?:(?:ogni|ciascuna|tutte le|le tue) (?:risposta|risposte)|i tuoi messaggi"
        r"|(?:chaque|toutes (?:tes|vos|les)|tes|vos) reponses?|(?:tes|vos) messages"
        r"|(?:cada|todas (?:tus|las)|tus) respuestas?|tus mensajes"
        r"|(?:jede|jeder|jedes|alle|deine) (?:antwort|antworten)|deine nachrichten"
        r"|(?:cada|todas as|suas) respostas?)\b"
    ),
    # "Insert in every answer a line about X", "Put in each reply …": said at a clause start.
    (
        r"(?:^|[.;:!?]\s*)(?:please |always )?(?:insert|put|add|include|append|slip|mention)"
        r"\b.{0,25}\b(?:every|each|all|any) (?:answers?|repl(?:y|ies)|responses?|messages?)\b"
    ),
    (
        r"\bda (?:ora|adesso) in poi,? (?:rispondi|parla|scrivi|usa|sei|devi)\b"
        r"|\b(?:a partir de maintenant|desormais),? (?:reponds|parle|ecris|utilise|tu)\b"
        r"|\b(?:de ahora en adelante|a partir de ahora|desde ahora),? (?:responde|habla"
        r"|escribe|usa|eres|debes)\b|\b(?:ab jetzt|von nun an),? (?:antworte|sprich|schreib"
        r"|bist du|musst du)\b|\b(?:a partir de agora|de agora em diante),? (?:responda"
        r"|responde|fale|fala|escreva|use|voce)\b"
    ),
)


# One pattern: a single search per line is much faster than one per phrase.
ADDRESSED_TO_ASSISTANT: Final = re.compile(
    "|".join(
        f"(?:{pattern})"
        for pattern in (
            *_COMMANDS,
            *_ASSISTANT_ACTS,
            *_ASSISTANT_SUBJECT,
            *_OVERRIDES,
            *_EVERY_ANSWER_RULES,
        )
    )
)


# A wish about how answers are written ("Wants every answer to include a summary"); a third party
# in it is `memory.filters.grammar.third_parties`' to judge.
_STYLE_WISH_RE: Final = re.compile(
    r"\b(?:wants?|would like|'d like|wish(?:es)?|likes?|loves?|prefers?|expects?|gosta|quer"
    r"|gostaria|prefere|vuole|preferisce|piace|vorrebbe|veut|souhaite|aime|prefere|voudrait"
    r"|quiere|prefiere|gusta|gustaria|mochte|will|mag es|bevorzugt|wunscht sich)"
    r"(?: it)?,?(?: (?:that|when|if|che|quando|que|q|quand|cuando|dass|wenn))?"
    r"(?: (?:you|u|tu|voce|vous|du))?(?: (?:to|always|sempre|toujours|siempre|immer))?\s*$"
)


_STYLE_PHRASE_RE: Final = re.compile(
    r"^(?:(?:rispondi|reponds|repondez|antworte|responda|responde|contesta|risponde)\b"
    r"|(?:every|each|all) (?:answers?|repl(?:y|ies)|responses?) to (?:include|contain|have)\b)"
)


def _is_style_wish(folded: str, match: re.Match[str]) -> bool:
    """Whether a phrase said to the assistant is only the object of a wish about answers."""
    phrase = match.group()
    before = folded[: match.start()]
    if not _STYLE_PHRASE_RE.match(phrase):
        return False
    # "wants every answer to include …": the wish opens the phrase itself.
    return bool(_STYLE_WISH_RE.search(before)) or bool(
        re.match(r"(?:every|each|all) ", phrase)
        and re.search(
            r"\b(?:wants?|would like|'d like"
            r"|likes?|prefers?|expects?)\s*$",
            before,
        )
    )


def addressed_to_assistant(folded: str) -> bool:
    """Whether a phrase only ever said to the assistant stands in the line, outside a wish about
    how answers are written and outside a quoted title."""
    return any(
        not _is_style_wish(folded, match) and not in_a_title(folded, match.start())
        for match in ADDRESSED_TO_ASSISTANT.finditer(folded)
    )
