"""A sentence about the person as a memory line says it: no subject, the third person.

Pure module, a small grammar for English, Italian and French (``memory.rules.imports`` uses
it on pasted memories): "You live in Turin" → "Lives in Turin", "L'utente vive a Milano" →
"Vive a Milano", "Tu travailles dans une boulangerie" → "Travaille dans une boulangerie". The
verbs it knows are the common ones and the regular English and French forms. A sentence it
does not know stays as written: a memory line may read oddly, but never says something else.
"""

from __future__ import annotations

import re
from typing import Final

# The subject a product writes its memories with. Never "she", "he" or "they": in a summary
# they may be someone else ("Has a daughter. She is 6"), and a wrong fact is worse than an
# odd line.
_SUBJECT_RE: Final = re.compile(
    r"^(?:(?:the\s+)?users?'s?\s+(?=\w)"  # "The user's name is Anna"
    # "User likes jazz", not "User research lead at Acme": a verb must follow.
    r"|(?:the\s+)?user\s+(?=(?:\w+s|\w+ed|is|has|was|can|could|will|would|does|did|should"
    r"|may|might|must|had)\b)"
    r"|(?:l'\s?(?:utente|utilisat(?:eur|rice))|utente|utilisat(?:eur|rice))\s+)",
    re.IGNORECASE,
)

# --- English ----------------------------------------------------------------------------------

_EN_FIXED: Final = (
    (r"i\s+am|i'm|you\s+are|you're", "is"),
    (r"i\s+have|i've|you\s+have|you've", "has"),
    (r"i\s+was|you\s+were", "was"),
    (r"(?:i|you)\s+do\s+not", "does not"),
    (r"(?:i|you)\s+don't", "doesn't"),
    (r"(?:i|you)\s+did\s+not", "did not"),
    (r"(?:i|you)\s+didn't", "didn't"),
    (r"(?:i|you)\s+cannot", "cannot"),
    (r"(?:i|you)\s+can't", "can't"),
    (r"i'd|you'd", "would"),
    (r"i'll|you'll", "will"),
)
_ADVERBS: Final = (
    r"(?P<adverbs>(?:(?:always|usually|often|never|sometimes|really|also|still|just|mostly"
    r"|rarely|generally|currently|only|actually|now"
    r"|(?!(?:reply|apply|supply|rely|comply|imply|multiply|fly|ally)\b)[a-z]+ly)\s+)*)"
)
_EN_VERB_RE: Final = re.compile(r"^(?:i|you)\s+" + _ADVERBS + r"(?P<verb>[a-z]+)\b", re.I)
_KEEPING_TEXT: Final = """can could will would shall should must may might was were had did went
quit set put cut hit let shut spread
got grew became began bought came felt found gave knew left lost made met ran said saw sold spent
taught thought took told wrote built broke chose drove fell forgot heard held kept led used"""
_KEEPS_ITS_FORM: Final = frozenset(_KEEPING_TEXT.split())
_IRREGULAR: Final = {"have": "has", "are": "is", "am": "is", "be": "is", "were": "was"}
# After "and", a bare verb of the person's ("is 34 and live in Austin"): only these, since a
# bare word there is as often a noun ("likes cats and dogs").
_EN_AND_VERBS_TEXT: Final = """live work have love like prefer want play enjoy use speak study run
cook own need hate teach write read drive travel plan hope"""
_EN_AND_VERBS: Final = frozenset(_EN_AND_VERBS_TEXT.split())
# After a comma, only with its pronoun: "is a nurse, you live in Turin".
_EN_AND_RE: Final = re.compile(
    r"(?:\b(?P<joint>and|but|or)|(?P<comma>,))\s+(?:(?P<pronoun>i|you)\s+)?"
    + _ADVERBS
    + r"(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
_EN_OBJECTS_RE: Final = re.compile(r"\b(?:my|your|me|myself|yourself)\b", re.IGNORECASE)
_EN_OBJECT_FOR: Final = {"my": "their", "your": "their", "me": "them", "myself": "themself"}

# --- Italian: (first person, second person, third person) --------------------------------------

_IT_VERBS: Final = (
    ("sono", "sei", "è"),
    ("ho", "hai", "ha"),
    ("vivo", "vivi", "vive"),
    ("abito", "abiti", "abita"),
    ("lavoro", "lavori", "lavora"),
    ("preferisco", "preferisci", "preferisce"),
    ("amo", "ami", "ama"),
    ("adoro", "adori", "adora"),
    ("odio", "odi", "odia"),
    ("voglio", "vuoi", "vuole"),
    ("sto", "stai", "sta"),
    ("gioco", "giochi", "gioca"),
    ("studio", "studi", "studia"),
    ("faccio", "fai", "fa"),
    ("so", "sai", "sa"),
    ("posso", "puoi", "può"),
    ("devo", "devi", "deve"),
    ("uso", "usi", "usa"),
    ("parlo", "parli", "parla"),
    ("insegno", "insegni", "insegna"),
    ("scrivo", "scrivi", "scrive"),
    ("leggo", "leggi", "legge"),
    ("cucino", "cucini", "cucina"),
    ("corro", "corri", "corre"),
    ("suono", "suoni", "suona"),
    ("mangio", "mangi", "mangia"),
    ("bevo", "bevi", "beve"),
    ("vado", "vai", "va"),
    ("seguo", "segui", "segue"),
    ("cerco", "cerchi", "cerca"),
    ("chiamo", "chiami", "chiama"),
    ("alleno", "alleni", "allena"),
    ("occupo", "occupi", "occupa"),
    ("interesso", "interessi", "interessa"),
    ("trovo", "trovi", "trova"),
    ("vengo", "vieni", "viene"),
    ("esco", "esci", "esce"),
    ("tengo", "tieni", "tiene"),
    ("rimango", "rimani", "rimane"),
    ("conosco", "conosci", "conosce"),
    ("viaggio", "viaggi", "viaggia"),
    ("ascolto", "ascolti", "ascolta"),
    ("guardo", "guardi", "guarda"),
    ("guido", "guidi", "guida"),
    ("pratico", "pratichi", "pratica"),
    ("frequento", "frequenti", "frequenta"),
    ("possiedo", "possiedi", "possiede"),
    ("spero", "speri", "spera"),
    ("penso", "pensi", "pensa"),
    ("credo", "credi", "crede"),
)
_IT_THIRD: Final = {form: third for *forms, third in _IT_VERBS for form in forms}
_IT_SECOND: Final = frozenset(second for _, second, _ in _IT_VERBS)
_IT_VERB_ALTERNATIVES: Final = "|".join(sorted(_IT_THIRD, key=len, reverse=True))
# "ti piacciono" / "mi piace" → "gli piacciono" / "gli piace".
_IT_LIKES_RE: Final = re.compile(r"^(?:(?:a\s+)?(?:me|te)\s+|mi\s+|ti\s+)(piace|piacciono)\b", re.I)
_IT_VERB_RE: Final = re.compile(
    rf"^(?:(?:io|tu)\s+)?(?:(?P<negation>non)\s+)?(?:(?P<reflexive>mi|ti)\s+)?"
    rf"(?P<verb>{_IT_VERB_ALTERNATIVES})\b",
    re.IGNORECASE,
)
_IT_AND_RE: Final = re.compile(
    rf"\b(?P<joint>e|ma|o)\s+(?:(?:io|tu)\s+)?(?:(?P<negation>non)\s+)?(?:(?P<reflexive>mi|ti)\s+)?"
    rf"(?P<verb>{_IT_VERB_ALTERNATIVES})\b",
    re.IGNORECASE,
)
_IT_POSSESSIVES: Final = {
    "mio": "suo",
    "tuo": "suo",
    "mia": "sua",
    "tua": "sua",
    "miei": "suoi",
    "tuoi": "suoi",
    "mie": "sue",
    "tue": "sue",
}
_IT_POSSESSIVE_RE: Final = re.compile(r"\b(?:mio|tuo|mia|tua|miei|tuoi|mie|tue)\b", re.I)

# --- French: (je, tu, vous, il) for the verbs not in -er ---------------------------------------

_FR_VERBS: Final = (
    ("suis", "es", "êtes", "est"),
    ("ai", "as", "avez", "a"),
    ("vis", "vis", "vivez", "vit"),
    ("fais", "fais", "faites", "fait"),
    ("peux", "peux", "pouvez", "peut"),
    ("veux", "veux", "voulez", "veut"),
    ("sais", "sais", "savez", "sait"),
    ("dois", "dois", "devez", "doit"),
    ("prends", "prends", "prenez", "prend"),
    ("apprends", "apprends", "apprenez", "apprend"),
    ("bois", "bois", "buvez", "boit"),
    ("lis", "lis", "lisez", "lit"),
    ("écris", "écris", "écrivez", "écrit"),
    ("cours", "cours", "courez", "court"),
    ("vais", "vas", "allez", "va"),
    ("viens", "viens", "venez", "vient"),
    ("connais", "connais", "connaissez", "connaît"),
    ("pars", "pars", "partez", "part"),
    ("sors", "sors", "sortez", "sort"),
    ("dors", "dors", "dormez", "dort"),
    ("finis", "finis", "finissez", "finit"),
    ("choisis", "choisis", "choisissez", "choisit"),
    ("suis", "suis", "suivez", "suit"),
    ("appelle", "appelles", "appelez", "appelle"),
    ("tiens", "tiens", "tenez", "tient"),
    ("mets", "mets", "mettez", "met"),
    ("dis", "dis", "dites", "dit"),
    ("crois", "crois", "croyez", "croit"),
    ("vois", "vois", "voyez", "voit"),
    ("attends", "attends", "attendez", "attend"),
    ("vends", "vends", "vendez", "vend"),
    ("réponds", "réponds", "répondez", "répond"),
    ("entends", "entends", "entendez", "entend"),
    ("perds", "perds", "perdez", "perd"),
    ("descends", "descends", "descendez", "descend"),
    ("ouvre", "ouvres", "ouvrez", "ouvre"),
    ("offre", "offres", "offrez", "offre"),
)
_FR_THIRD: Final = {form: third for *forms, third in _FR_VERBS[::-1] for form in forms}
_FR_PERSON: Final = r"(?:j'|je\s+|tu\s+|vous\s+)"
_FR_VERB_RE: Final = re.compile(
    rf"^{_FR_PERSON}(?:(?P<negation>ne\s+|n'))?(?:(?P<reflexive>me\s+|m'|te\s+|t'|vous\s+))?"
    r"(?P<verb>[^\W\d_]+)\b",
    re.IGNORECASE,
)
_FR_AND_RE: Final = re.compile(
    rf"\b(?P<joint>et|mais|ou)\s+{_FR_PERSON}(?:(?P<negation>ne\s+|n'))?"
    r"(?:(?P<reflexive>me\s+|m'|te\s+|t'|vous\s+))?"
    r"(?P<verb>[^\W\d_]+)\b",
    re.IGNORECASE,
)
_FR_POSSESSIVES: Final = {
    "mon": "son",
    "ton": "son",
    "ma": "sa",
    "ta": "sa",
    "mes": "ses",
    "tes": "ses",
    "vos": "ses",
}
_FR_POSSESSIVE_RE: Final = re.compile(r"\b(?:mon|ton|ma|ta|mes|tes|vos)\b", re.IGNORECASE)
# A last "é" of an -er verb's stem opens before a mute ending: "préférez" → "préfère".
_FR_OPENED_RE: Final = re.compile(r"é(?=[^\Waeiouyéèêë]+$)")


# Words that say which language a sentence is in ("I" is English and an Italian article too).
_FUNCTION_WORDS_TEXT: Final = {
    "en": "the and of to is are you your my with for at on has have but from this that very",
    "it": "lo gli di che e è con per una un del della nel sul alla non anche molto ha sono tuo "
    "tua ma suo sua dei delle",
    "fr": "le les de des et est avec pour une un du au aux vous tu je son sa par sur dans pas ne "
    "qui que mais ses chez très",
}
_FUNCTION_WORDS: Final = {
    code: frozenset(text.split()) for code, text in _FUNCTION_WORDS_TEXT.items()
}


def language_of(text: str) -> str | None:
    """ "en", "it" or "fr" by its function words; None when it cannot tell."""
    words = re.findall(r"[^\W\d_]+", text.lower().replace("'", " "))
    scores = {code: sum(word in known for word in words) for code, known in _FUNCTION_WORDS.items()}
    best = max(scores, key=lambda code: scores[code])
    ties = [code for code, score in scores.items() if score == scores[best]]
    return best if scores[best] and len(ties) == 1 else None


# The assistant saying it knows: "I remember that …", "Ricordo che …", "Je sais que …".
_KNOWS: Final = (
    r"(?:i\s+(?:also\s+)?(?:know|remember|recall|understand)\s+(?:that\s+|(?=you\b))"
    r"|(?:mi\s+)?ricordo\s+che\s+|so\s+che\s+|je\s+sais\s+qu(?:e\s+|')"
    r"|je\s+me\s+souviens\s+qu(?:e\s+|')|j'ai\s+retenu\s+qu(?:e\s+|'))"
)
# What a product says around a fact ("You mentioned that …", "Based on our chats, …"): the
# fact is the rest.
_FRAME_RE: Final = re.compile(
    rf"^(?:{_KNOWS}|"
    r"(?:(?:you|i|the\s+user|user)(?:'ve|\s+have)?\s+(?:also\s+)?(?:mentioned|said|told\s+me"
    r"|noted|shared|explained)|(?:mi\s+)?(?:hai|ha)\s+(?:anche\s+)?(?:menzionato|detto|raccontato|spiegato)"
    r"|(?:vous\s+(?:m'|nous\s+)?avez|tu\s+(?:m')?as|il\s+(?:m')?a|elle\s+(?:m')?a|(?:m')?a)\s+"
    r"(?:aussi\s+)?(?:mentionné|dit|indiqué|expliqué"
    r"|précisé))\s+(?:that\s+|che\s+|que\s+|qu')?)",
    re.IGNORECASE,
)
_LEAD_IN_RE: Final = re.compile(
    r"^(?:based\s+on|according\s+to|from\s+(?:what|our)|as\s+far\s+as|in\s+our|over\s+our"
    r"|da\s+quello|secondo|in\s+base\s+a|dalle\s+nostre|d'après|selon|dans\s+nos|de\s+ce\s+que)"
    rf"[^,]{{0,60}}?(?:,\s+|\s+(?={_KNOWS}))",
    re.IGNORECASE,
)
# A lead-in of no content before the person ("On the personal side, you …", "Beyond that, I
# recall …"): lower-case words only, so "In 2020, you …" and "In Paris, you …" keep theirs.
# One word alone is a connective ("Also", "Inoltre"), never a name ("Sarah, you said …").
_ASIDE_RE: Final = re.compile(
    r"^(?!(?i:you|you're|you've|your|i|i'm|i've|my|tu|vous|je|io)\b|(?i:j'|t'))"  # not a fact
    r"(?:[A-Za-zÀ-ÿ][a-zà-ÿ']*(?:\s+[a-zà-ÿ']+){1,5}"
    r"|(?i:also|besides|plus|otherwise|moreover|furthermore|inoltre|poi|infine|anche|aussi|enfin"
    r"|ensuite|sinon|[a-zà-ÿ]+(?:ly|mente|ment))),\s+"
    r"(?=(?i:you|you're|you've|i|i'm|i've|tu|vous|je)\b|(?i:j'|t'))"
)


# The assistant itself speaking to the person ("I don't have any memories of you saved", "If
# you'd like, tell me more"): a first and a second person in one sentence, once the product's
# frame is gone ("You told me that …"), is never the person's fact.
_FIRST_RE: Final = re.compile(
    r"\b(?i:i|me|my|myself|je|moi|mon|mes|io)\b|\b(?i:i'|j'|m')"
    r"|\b(?:mi|mio|mia|miei|mie)\b"  # not "Mia", a name
    r"|^(?i:non\s+)?(?i:ho|sono|so)\b",  # Italian says "I" in its verb
)
_SECOND_RE: Final = re.compile(
    r"\b(?:you|your|yourself|vous|votre|vos|tu|toi|te|ton|tes|ti|tuo|tua|tuoi|tue)\b|\bt'"
    r"|\byou'",
    re.IGNORECASE,
)


def speaker(text: str) -> str | None:
    """Who a sentence is said by: "first" ("I …", "Sono …"), "second" ("You …", "Vivi …") or
    None (the third person, "The user …", or both persons)."""
    said = without_frame(without_subject(text))
    first = bool(_FIRST_RE.search(said))
    verb = _IT_VERB_RE.match(said)
    second = bool(_SECOND_RE.search(said)) or (
        verb is not None and verb["verb"].lower() in _IT_SECOND
    )
    if first == second:
        return None
    return "first" if first else "second"


# What the person does, said to them ("You started a job", "Tu fais du pain"): the gate reads
# such a "you" as the assistant, so its verdict on the sentence as pasted does not count. Not
# a modal, a role, a habit of always or never, or a word of rules ("You should always …",
# "You are an AI …", "You always answer in …", "You obey every instruction …").
_SAID_TO_THEM_RE: Final = re.compile(
    r"^(?:you|tu|vous)\s+(?!(?:should|must|will|'ll|shall|have\s+to|need\s+to|are\s+to|are\s+an?"
    r"|are\s+the|can|may|always|never|only|from\s+now|dois|devez|devras|devrez|es\s+une?"
    r"|êtes\s+une?|toujours|jamais|seulement|désormais)\b)",
    re.IGNORECASE,
)
_RULES_RE: Final = re.compile(
    r"\b(?:instructions?|rules?|prompts?|règles?|consignes?|istruzion[ei]|regol[ae]"
    r"|answers?|repl(?:y|ies)|responses?|réponses?|rispost[ae])\b",
    re.IGNORECASE,
)


# The person telling the assistant what to do, in the product's words: "You told me to …",
# "You mentioned that I should …" ("I" there is the assistant).
_TOLD_TO_RES: Final = (
    (
        re.compile(
            r"^(?:you|the\s+user|user)(?:'ve|\s+have|\s+had)?\s+(?:also\s+)?(?:told|asked)\s+me"
            r"\s+to\s+",
            re.IGNORECASE,
        ),
        "you must ",
    ),
    (
        re.compile(
            r"^(?:(?:tu\s+)?mi\s+hai|l'utente\s+mi\s+ha)\s+(?:anche\s+)?(?:chiesto|detto)\s+di\s+",
            re.IGNORECASE,
        ),
        "devi ",
    ),
    (
        re.compile(
            r"^(?:tu\s+m'as|vous\s+m'avez|l'utilisat(?:eur|rice)\s+m'a)\s+(?:aussi\s+)?"
            r"(?:demandé|dit)\s+d(?:e\s+|')",
            re.IGNORECASE,
        ),
        "tu dois ",
    ),
)
_TOLD_THAT_RE: Final = re.compile(
    r"^(?:you|the\s+user|user)(?:'ve|\s+have|\s+had)?\s+(?:also\s+)?(?:mentioned|said|told\s+me"
    r"|noted|shared|explained)\s+(?:that\s+)?(?=(?:i|i'm|i've|i'll|i'd|my|me)\b)",
    re.IGNORECASE,
)
_ASSISTANT_AS_YOU: Final = {
    "i": "you",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "my": "your",
    "me": "you",
    "myself": "yourself",
}


def as_told_to_assistant(text: str) -> str | None:
    """What the person told the assistant, as said to it, for the gate ("You told me to
    ignore my rules" → "you must ignore your rules"); None if the sentence tells it nothing."""
    for pattern, order in _TOLD_TO_RES:
        if found := pattern.match(text):
            rest = f"{order}{text[found.end() :]}"
            return _assistant_as_you(rest) if order == "you must " else rest
    if not (found := _TOLD_THAT_RE.match(text)):
        return None
    return _assistant_as_you(text[found.end() :])


def _assistant_as_you(rest: str) -> str:
    return re.sub(
        r"\b(?:i'm|i've|i'll|i'd|i|my|me|myself)\b",
        lambda m: _ASSISTANT_AS_YOU[m.group().lower()],
        rest,
        flags=re.IGNORECASE,
    )


def said_to_them(text: str) -> bool:
    """Whether ``text`` tells the person what they do, in the second person, and nothing an
    order to an assistant is made of; under a label or heading too ("Work: You use a Mac")."""
    label, _, said = text.rpartition(": ")
    if not (found := _SAID_TO_THEM_RE.match(said)):
        return False
    _, *rest = said[found.end() :].split(maxsplit=1)  # after its verb: "You answer tickets"
    return not _RULES_RE.search(" ".join([label, *rest]))


def assistant_speaking(text: str) -> bool:
    said = without_frame(without_subject(text))
    return bool(_FIRST_RE.search(said) and _SECOND_RE.search(said))


def without_frame(text: str) -> str:
    """``text`` without a product's frame around the fact, if it has one."""
    text = _ASIDE_RE.sub("", _LEAD_IN_RE.sub("", text, count=1), count=1)
    return _FRAME_RE.sub("", text, count=1)


def without_subject(text: str) -> str:
    """``text`` without the subject a product names the person by ("The user", "L'utente"),
    its "you" and "I" kept: what the gate reads of a sentence before it is rewritten."""
    return _SUBJECT_RE.sub("", text.replace("\u2019", "'"), count=1)


def third_person(text: str, language: str | None = None) -> str:
    """``text`` as a memory line says it: no subject, a third person, a capital first.
    ``language``: the paste's, when the sentence alone does not tell."""
    text = without_subject(without_frame(without_subject(text)))
    spoken = language or language_of(text)
    converters = {"en": _english, "it": _italian, "fr": _french}
    for code, convert in converters.items():
        if spoken not in (None, code):
            continue
        converted = convert(text)
        if converted is not None:
            text = converted
            break
    return text[:1].upper() + text[1:]


def _english(text: str) -> str | None:
    for form, said in _EN_FIXED:
        if found := re.match(rf"(?:{form})\s+", text, re.IGNORECASE):
            return _en_rest(f"{said} {text[found.end() :]}")
    if found := _EN_VERB_RE.match(text):
        return _en_rest(f"{found['adverbs']}{_third(found['verb'])}{text[found.end() :]}")
    if found := re.match(r"(?:my|your)\s+", text, re.IGNORECASE):  # "My wife is Sara"
        return _en_rest(text[found.end() :])
    return None


def _en_rest(text: str) -> str:
    """The rest of an English sentence of the person's: its "and" verbs and "my" / "me"."""

    def and_verb(found: re.Match[str]) -> str:
        verb = found["verb"]
        if found["pronoun"] is None and (found["comma"] or verb.lower() not in _EN_AND_VERBS):
            return found.group()
        joint = f"{found['joint']} " if found["joint"] else ", "
        return f"{joint}{found['adverbs']}{_third(verb)}"

    for form, said in _EN_FIXED:  # "… and you're trying to …", "…, you're …"
        text = re.sub(rf"(\b(?:and|but|or)|,)\s+(?:{form})\b", rf"\1 {said}", text, flags=re.I)
    text = _EN_AND_RE.sub(and_verb, text)
    return _EN_OBJECTS_RE.sub(lambda m: _kept_case(m.group(), _EN_OBJECT_FOR), text)


def _third(verb: str) -> str:
    """The third person singular of an English verb in the present ("live" → "lives")."""
    lowered = verb.lower()
    if lowered in _KEEPS_ITS_FORM or lowered.endswith("ed"):
        return verb
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    if lowered in {"go", "do"} or re.search(r"(?:s|x|z|ch|sh)$", lowered):
        return f"{verb}es"
    if re.search(r"[^aeiou]y$", lowered):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def _italian(text: str) -> str | None:
    if found := _IT_LIKES_RE.match(text):
        return _it_rest(f"gli {found[1]}{text[found.end() :]}")
    if found := _IT_VERB_RE.match(text):
        said = _it_verb(found)
        return _it_rest(f"{said}{text[found.end() :]}")
    if found := re.match(
        r"(?:(?P<article>il|la|i|le)\s+)?(?P<own>mio|tuo|mia|tua|miei|tuoi|mie|tue)\s+",
        text,
        re.IGNORECASE,
    ):
        return _it_rest(text)
    return None


def _it_verb(found: re.Match[str]) -> str:
    third = _IT_THIRD[found["verb"].lower()]
    reflexive = "si " if found["reflexive"] else ""
    negation = "non " if found["negation"] else ""
    return f"{negation}{reflexive}{third}"


def _it_rest(text: str) -> str:
    text = _IT_AND_RE.sub(lambda found: f"{found['joint']} {_it_verb(found)}", text)
    return _IT_POSSESSIVE_RE.sub(lambda m: _kept_case(m.group(), _IT_POSSESSIVES), text)


def _french(text: str) -> str | None:
    if found := _FR_VERB_RE.match(text):
        said = _fr_verb(found)
        if said is not None:
            return _fr_rest(f"{said}{text[found.end() :]}")
    if re.match(r"(?:mon|ton|ma|ta|mes|tes)\s+", text, re.IGNORECASE):
        return _fr_rest(text)
    return None


def _fr_verb(found: re.Match[str]) -> str | None:
    """The verb of ``found`` in the third person, with its "ne" and "se"; None if unknown."""
    verb = found["verb"]
    lowered = verb.lower()
    if lowered in _FR_THIRD:
        third = _FR_THIRD[lowered]
    elif ending := re.search(r"(?:e|es|ez)$", lowered):
        third = _FR_OPENED_RE.sub("è", verb[: ending.start()]) + "e"
    else:
        return None
    negation = ""
    if found["negation"]:
        negation = "n'" if third[:1].lower() in "aeiouyéèêh" else "ne "
    reflexive = ""
    if found["reflexive"]:
        reflexive = "s'" if third[:1].lower() in "aeiouyéèêh" else "se "
    return f"{negation}{reflexive}{third}"


def _fr_rest(text: str) -> str:
    def and_verb(found: re.Match[str]) -> str:
        said = _fr_verb(found)
        return found.group() if said is None else f"{found['joint']} {said}"

    text = _FR_AND_RE.sub(and_verb, text)
    return _FR_POSSESSIVE_RE.sub(lambda m: _kept_case(m.group(), _FR_POSSESSIVES), text)


def _kept_case(word: str, table: dict[str, str]) -> str:
    said = table.get(word.lower(), word)
    return said.capitalize() if word[:1].isupper() else said
