"""The assistant addressed in the second person ("you always recommend …", "du antwortest
…"), in each language's forms; a preference that only shapes answers is kept.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

# Verbs that push something on the reader: an order even inside a preference.
_PUSH_EN: Final = (
    r"recommend|promote|advertise|plug|endorse|mention|push|sell|praise|redirect"
    r"|advise (?:people|everyone|users)|tell (?:people|everyone|users|others)"
)


# Verbs of what the assistant does in an answer; inside a preference ("likes it when you ...")
# they only shape the answers and are kept.
_ACT_EN: Final = (
    rf"{_PUSH_EN}|respond|reply|answer|suggest|say|tell|include|add|end|start|begin|finish|write"
    r"|speak|talk|send|refer|use|address|greet|sign|insert|obey|follow|ignore|reveal|link"
    r"|pretend|behave|refuse|cite|quote|offer|remind|encourage|urge|steer|nudge"
)


_ADVERBS_EN: Final = (
    r"will|'ll|shall|should|must|can|may|might|would|'d|are to|have to|need to|are going to"
    r"|(?:are )?(?:supposed|meant|expected|required|asked|told) to|going to"
    r"|always|never|only|just|now|also|really|then|ever|from now on|to|not|don't|do not"
    r"|should always|must always|constantly|forever|henceforth"
)


# Second-person present forms, by language (folded). IT, ES and PT drop the pronoun; their second
# person never writes a fact about the person.
_PUSH_IT: Final = r"consigli|raccomandi|promuovi|pubblicizzi|menzioni|sponsorizzi"


_ACT_IT: Final = (
    rf"{_PUSH_IT}|citi|rispondi|dici|parli|scrivi|suggerisci|cominci|includi|aggiungi|nomini|indichi"
    r"|proponi|ripeti|mandi|rimandi|devi|dovrai"
)


_PUSH_FR: Final = (
    r"recommandes|recommandez|conseilles|conseillez|promeus|promouvez|mentionnes|mentionnez"
    r"|vantes|vantez|fais la promotion|faites la promotion|fais de la pub"
)


_ACT_FR: Final = (
    rf"{_PUSH_FR}|cites|citez|reponds|repondez|dis|dites|parles|parlez|ecris|ecrivez|suggeres|suggerez"
    r"|termines|terminez|commences|commencez|ajoutes|ajoutez|inclus|incluez|utilises|utilisez"
    r"|proposes|proposez|indiques|indiquez|dois|devez"
)


# "Do" and "go" say what anyone does ("tu fais de la poterie", "vous allez à la piscine"): an
# order only with an adverb of habit or an act to come, as English "you always make …".
_DO: Final = r"fais|faites|vas|allez|fai"


_ACT_INFINITIVE: Final = (
    r"recommander|conseiller|promouvoir|mentionner|citer|repondre|dire|ecrire|parler|suggerer"
    r"|terminer|commencer|ajouter|inclure|utiliser|proposer|indiquer|consigliare|raccomandare"
    r"|promuovere|menzionare|citare|rispondere|dire|scrivere|parlare|suggerire|aggiungere"
    r"|includere|usare|proporre|indicare"
)


_PUSH_ES: Final = (
    r"recomiendas|recomiendes|promocionas|promociones|promueves|promuevas|anuncias|anuncies"
    r"|mencionas|menciones|aconsejas|aconsejes|haces publicidad|hagas publicidad"
)


_ACT_ES: Final = (
    rf"{_PUSH_ES}|respondes|respondas|contestas|contestes|dices|digas|hablas|hables|escribes"
    r"|escribas|sugieres|sugieras|terminas|termines|acabas|acabes|empiezas|empieces|comienzas"
    r"|comiences|incluyes|incluyas|anades|anadas|agregas|agregues|usas|utilizas|utilices"
    r"|nombras|propones|propongas|debes|tienes que|vas a|pones|pongas|haces|hagas"
)


_PUSH_PT: Final = (
    r"recomenda|recomendas|recomende|recomendes|promove|promoves|promova|promovas|divulga"
    r"|divulgas|divulgue|anuncia|anuncias|anuncie|menciona|mencionas|mencione|indica|indicas"
    r"|indique|elogia|elogie|faz propaganda|faca propaganda"
)


_ACT_PT: Final = (
    rf"{_PUSH_PT}|cita|cite|responde|respondes|responda|diz|dizes|diga|dizer|fala|falas|fale|escreve"
    r"|escreves|escreva|sugere|sugeres|sugira|termina|terminas|termine|comeca|comecas|comece"
    r"|inclui|incluis|inclua|adiciona|adicione|usa|usas|use|tem que|tem de|tens que|deve|deves"
    r"|precisa|vai|coloca|coloque|poe|ponha"
)


_PUSH_DE: Final = (
    r"empfiehlst|empfehlest|bewirbst|wirbst|erwahnst|lobst|preist|verlinkst|machst werbung"
)


_ACT_DE: Final = (
    rf"{_PUSH_DE}|antwortest|sagst|schreibst|sprichst|nennst|redest|beendest|beginnst|fangst"
    r"|fugst|hangst|verwendest|benutzt|nutzt|verweist|leitest|schickst|zeigst|machst|musst"
    r"|sollst|wirst|erzahlst|gibst|schlagst|ratst|zitierst|erinnerst|bringst|setzt|baust"
)


_PUSH_3RD: Final = (
    r"recommends|promotes|advertises|plugs|endorses|mentions|pushes|sells|praises|consiglia"
    r"|raccomanda|promuove|pubblicizza|menziona|recommande|conseille|promeut|mentionne|vante"
    r"|recomienda|promociona|promueve|menciona|anuncia|empfiehlt|bewirbt|erwahnt|lobt|wirbt"
    r"|recomenda|promove|divulga|indica"
)


_ADVERBS: Final = (
    r"sempre|solo|soltanto|mai|non|anche|ora|d'ora in poi|toujours|seulement|uniquement|jamais"
    r"|ne|n'|aussi|desormais|maintenant|siempre|solamente|unicamente|nunca|no|tambien|ya|ahora"
    r"|immer|nur|nur noch|nie|niemals|nicht|jetzt|ab sofort|auch|stets|ausschliesslich|apenas"
    r"|nao|tambem|agora|so|sempre que possivel"
)


# Object pronouns that may stand before the verb ("que le recomiendes", "che gli consigli").
_OBJECTS: Final = r"le|les|me|nos|lo|la|gli|mi|ci|lhe|lhes|te|ti"


_ADV_EN: Final = rf"(?:\s+(?:{_ADVERBS_EN}))"


_ADV: Final = rf"(?:\s+(?:{_ADVERBS}))"


# "you (always|must …) recommend", "du antwortest immer", "respondes siempre" (at a clause start
# or after a conjunction, as ES, IT and PT need no pronoun).
_ADDRESSED_RES: Final = (
    re.compile(rf"\byou(?:'re|'ll|'d)?{_ADV_EN}{{0,3}}\s+(?P<verb>{_ACT_EN})(?:s|es|ed|d|ing)?\b"),
    re.compile(rf"\btu\b{_ADV}{{0,2}}\s+(?P<verb>{_ACT_IT}|{_ACT_FR}|{_ACT_ES}|{_ACT_PT})\b"),
    re.compile(rf"\bvous{_ADV}{{0,2}}\s+(?P<verb>{_ACT_FR})\b"),
    re.compile(
        rf"\b(?:tu|vous){_ADV}{{0,2}}\s+(?P<verb>{_DO})(?:{_ADV}{{1,2}}\b|\s+(?:{_ACT_INFINITIVE})\b)"
    ),
    # The assistant named as the one who pushes: "Likes when the assistant recommends X".
    re.compile(
        rf"(?:\b(?:the|this|your|l'|el|der|die|o|a) ?|^)(?:ai |virtual )?(?:assistant[ea]?"
        rf"|assistente|asistente|assistentin|chatbot|bot|whizi|ia|ki)\b(?: (?:that|which|who|che"
        rf"|qui|que|der|die))?{_ADV_EN}{{0,2}}{_ADV}{{0,2}}"
        rf"\s+(?P<verb>{_PUSH_3RD})\b"
    ),
    re.compile(rf"\b(?:voce|vc|voces)\b{_ADV}{{0,2}}\s+(?P<verb>{_ACT_PT})\b"),
    re.compile(rf"\bdu\b{_ADV}{{0,2}}(?:\s+\S+){{0,2}}?\s+(?P<verb>{_ACT_DE})\b"),
    re.compile(rf"\b(?P<verb>{_ACT_DE})\s+du\b"),
    re.compile(
        rf"(?:^|[.;:!?(]\s*|\b(?:que|cuando|si|y|pero)\s+)(?:(?:{_ADVERBS}|{_OBJECTS})\s+){{0,2}}"
        rf"(?P<verb>{_ACT_ES})\b"
    ),
    # Many Italian second persons are also plural nouns ("consigli"): only after "che", "quando",
    # "se", or before "sempre", "solo", "mai".
    re.compile(
        rf"\b(?:che|quando|se)\s+(?:(?:{_ADVERBS}|{_OBJECTS})\s+){{0,2}}(?P<verb>{_ACT_IT}|fai)\b"
        rf"|(?:^|[.;:!?(]\s*)(?P<verb2>{_ACT_IT}|fai)\s+(?:sempre|solo|soltanto|mai)\b"
    ),
)


_PUSH_RE: Final = re.compile(
    rf"^(?:{_PUSH_EN}|{_PUSH_IT}|{_PUSH_FR}|{_PUSH_ES}|{_PUSH_PT}|{_PUSH_DE}|{_PUSH_3RD})$"
)


_PUSH_EN_RE: Final = re.compile(rf"^(?:{_PUSH_EN})$")


# A preference in front of "you": there only a verb that pushes something is an order.
_PREFERENCE_BEFORE_RE: Final = re.compile(
    r"\b(?:likes?|loves?|enjoys?|prefers?|appreciates?|hates?|dislikes?|wants?|would like|'d like"
    r"|wishes|finds it (?:helpful|useful)|is happy|when|whenever|if|quando|se|quand|si|cuando"
    r"|wenn|falls|sobald"
    # Opinions say "you" of anyone: "Thinks you should always tell the truth".
    r"|thinks|believes|says|feels|reckons|knows|argues|claims|pensa|crede|dice|pense|croit|dit"
    r"|piensa|cree|dice|glaubt|denkt|sagt|meint|acha|pensa|diz|gli piace|le piace|ama|preferisce"
    r"|vuole"
    r"|apprezza|aime|adore|prefere|veut|apprecie|le gusta|les gusta|le encanta|prefiere|quiere"
    r"|vorrebbe|desidera|souhaite|voudrait|aimerait|gustaria|le gustaria|quisiera|desea"
    r"|wunscht sich|hatte gern|hatte gerne|gostaria|deseja|queria"
    r"|mag es|mogen es|liebt es|findet es gut|bevorzugt|mochte|will|gosta|adora|prefere|quer)"
    r"\b(?: it| es| ca)?(?:,)?(?: (?:when|if|whenever|that|quando|se|che|quand|si|que|cuando"
    r"|wenn|dass|como))?(?: tu| you| du| voce)?\s*$"
)


# "You must ...", "you are not allowed to ...": an order whatever follows, unless an opinion says
# it of anyone ("Thinks you should always tip"); then only a pushing verb is one.
_YOU_MODAL_RE: Final = re.compile(
    r"\byou(?: really)? (?:must|should|shall|have to|need to|are going to|will always"
    r"|will never|always|never|can only|may only|cannot|can't|won't|are (?:not )?allowed"
    r"|are forbidden)\b"
)


_OPINION_BEFORE_RE: Final = re.compile(
    r"\b(?:thinks|believes|says|feels|reckons|knows|argues|claims|is convinced|insists)"
    r"(?: that)?,?\s*$"
)


# "Ti chiede di consigliare sempre X", "te pide que recomiendes X": asked of "you" to push.
_ASKED_TO_PUSH_RE: Final = re.compile(
    r"\b(?:ti|te|vous|dich|dir|lhe)\s+(?:chiede|prega|demande|prie|pide|ruega|bittet|pede)\s+"
    r"(?:(?:di|de|que|zu|para|a|sempre|toujours|siempre|immer)\s+){0,2}(?:consigliare|raccomandare"
    r"|promuovere|menzionare|recommander|conseiller|promouvoir|mentionner|recomendar|promocionar"
    r"|mencionar|empfehlen|bewerben|erwahnen|promover|divulgar|indicar|recommandes|recomiendes"
    r"|recomendes)\b"
)


# "You are a bot that ...": a role given to the assistant.
_ROLE_RE: Final = re.compile(
    r"\byou(?:'re| are) (?:a|an|my|the|now a|now an) (?:\w+ )?(?:bot|assistant|ai|chatbot"
    r"|model|agent|salesman|saleswoman|seller|promoter)\b"
)


def addresses_assistant(folded: str, *, push_only: bool) -> bool:
    if _ASKED_TO_PUSH_RE.search(folded) or (not push_only and _ROLE_RE.search(folded)):
        return True
    if not push_only and any(
        not _OPINION_BEFORE_RE.search(folded[: match.start()])
        for match in _YOU_MODAL_RE.finditer(folded)
    ):
        return True
    for pattern in _ADDRESSED_RES:
        for match in pattern.finditer(folded):
            groups = match.groupdict()
            verb = groups.get("verb") or groups.get("verb2") or ""
            # Each pattern's verb pushes in its own languages: "you cite" is English, where
            # Portuguese "cite" would push.
            if (_PUSH_EN_RE if pattern is _ADDRESSED_RES[0] else _PUSH_RE).match(verb):
                return True
            # "Likes it when you answer with examples" shapes the answers; "Gets anxious when
            # you talk about exams" says "you" of anyone.
            if not push_only and not _PREFERENCE_BEFORE_RE.search(folded[: match.start()]):
                return True
    return False
