"""Text helpers and vocabulary shared by the offline models (English, Italian, French).

Pure module: no Django, no litellm. Everything here is deterministic table lookups and regular
expressions, so the same input always gives the same output.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Final


def word_set(text: str) -> frozenset[str]:
    """A vocabulary written as one space-separated string, which reads better than a list."""
    return frozenset(text.split())


# --- tiers: how valuable a line is when a condense pass must drop some (SPEC §5) --------------
TIER_NOTE: Final = 0
TIER_GOAL: Final = 1
TIER_PREFERENCE: Final = 2
TIER_FAMILY: Final = 3
TIER_HOME: Final = 4
TIER_WORK: Final = 5
TIER_NAME: Final = 6

# --- vocabulary -------------------------------------------------------------------------------
NUMBERS: Final = {
    "un": "a", "uno": "a", "una": "a", "un'": "a", "une": "a", "a": "a", "an": "a", "one": "one",
    "due": "two", "deux": "two", "tre": "three", "trois": "three", "quattro": "four",
    "quatre": "four", "cinque": "five", "cinq": "five", "sei": "six", "six": "six",
    "sette": "seven", "sept": "seven", "otto": "eight", "huit": "eight", "nove": "nine",
    "neuf": "nine", "dieci": "ten", "dix": "ten",
}  # fmt: skip

# Relatives and pets, singular and plural, in the three languages → English.
RELATIONS: Final = {
    "wife": "wife", "husband": "husband", "partner": "partner", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "fiance": "fiancé", "fiancé": "fiancé", "fiancee": "fiancée",
    "fiancée": "fiancée", "son": "son", "sons": "sons", "daughter": "daughter",
    "daughters": "daughters", "kid": "child", "kids": "children", "child": "child",
    "children": "children", "mother": "mother", "mom": "mother", "mum": "mother",
    "father": "father", "dad": "father", "brother": "brother", "brothers": "brothers",
    "sister": "sister", "sisters": "sisters", "siblings": "siblings", "sibling": "sibling",
    "grandchildren": "grandchildren", "grandkids": "grandchildren", "twins": "twins",
    "dog": "dog", "dogs": "dogs", "cat": "cat", "cats": "cats", "baby": "baby",
    "moglie": "wife", "marito": "husband", "compagna": "partner", "compagno": "partner",
    "fidanzata": "girlfriend", "fidanzato": "boyfriend", "figlio": "son", "figli": "children",
    "figlia": "daughter", "figlie": "daughters", "bambino": "child", "bambina": "child",
    "bambini": "children", "bambine": "children", "madre": "mother", "mamma": "mother",
    "padre": "father", "papà": "father", "papa": "father", "fratello": "brother",
    "fratelli": "brothers", "sorella": "sister", "sorelle": "sisters", "nipoti": "grandchildren",
    "gemelli": "twins", "cane": "dog", "cani": "dogs", "gatto": "cat", "gatti": "cats",
    "femme": "wife", "mari": "husband", "compagnon": "partner", "copine": "girlfriend",
    "copain": "boyfriend", "fils": "son", "fille": "daughter", "filles": "daughters",
    "enfant": "child", "enfants": "children", "mère": "mother", "maman": "mother",
    "père": "father", "frère": "brother", "frères": "brothers", "sœur": "sister",
    "soeur": "sister", "sœurs": "sisters", "soeurs": "sisters", "petits-enfants": "grandchildren",
    "jumeaux": "twins", "jumelles": "twins", "chien": "dog", "chiens": "dogs", "chat": "cat",
    "chats": "cats", "bébé": "baby",
}  # fmt: skip
# One of each at a time: a newer "my wife is …" replaces the older line.
SINGLE_RELATIONS: Final = word_set(
    "wife husband partner boyfriend girlfriend fiancé fiancée mother father"
)

# Italian and French job nouns → English; "student"/"retired" become "Is …" lines.
JOBS: Final = {
    "infermiere": "nurse", "infermiera": "nurse", "medico": "doctor", "dottore": "doctor",
    "dottoressa": "doctor", "insegnante": "teacher", "maestro": "teacher", "maestra": "teacher",
    "professore": "teacher", "professoressa": "teacher", "ingegnere": "engineer",
    "programmatore": "programmer", "programmatrice": "programmer",
    "sviluppatore": "developer", "sviluppatrice": "developer", "avvocato": "lawyer",
    "avvocatessa": "lawyer", "architetto": "architect", "cuoco": "cook", "cuoca": "cook",
    "cameriere": "waiter", "cameriera": "waiter", "farmacista": "pharmacist",
    "giornalista": "journalist", "studente": "student", "studentessa": "student",
    "pensionato": "retired", "pensionata": "retired", "commercialista": "accountant",
    "contabile": "accountant", "psicologo": "psychologist", "psicologa": "psychologist",
    "ricercatore": "researcher", "ricercatrice": "researcher", "consulente": "consultant",
    "elettricista": "electrician", "idraulico": "plumber", "veterinario": "vet",
    "veterinaria": "vet", "dentista": "dentist", "fotografo": "photographer",
    "fotografa": "photographer", "traduttore": "translator", "traduttrice": "translator",
    "scrittore": "writer", "scrittrice": "writer", "musicista": "musician", "artista": "artist",
    "commesso": "shop assistant", "commessa": "shop assistant", "impiegato": "office worker",
    "impiegata": "office worker", "infirmier": "nurse", "infirmière": "nurse",
    "médecin": "doctor", "docteur": "doctor", "professeur": "teacher", "professeure": "teacher",
    "enseignant": "teacher", "enseignante": "teacher", "instituteur": "teacher",
    "institutrice": "teacher", "ingénieur": "engineer", "ingénieure": "engineer",
    "développeur": "developer", "développeuse": "developer", "programmeur": "programmer",
    "programmeuse": "programmer", "avocat": "lawyer", "avocate": "lawyer",
    "architecte": "architect", "cuisinier": "cook", "cuisinière": "cook", "serveur": "waiter",
    "serveuse": "waiter", "pharmacien": "pharmacist", "pharmacienne": "pharmacist",
    "journaliste": "journalist", "étudiant": "student", "étudiante": "student",
    "retraité": "retired", "retraitée": "retired", "comptable": "accountant",
    "psychologue": "psychologist", "chercheur": "researcher", "chercheuse": "researcher",
    "consultante": "consultant", "plombier": "plumber", "vétérinaire": "vet",
    "dentiste": "dentist", "photographe": "photographer", "traducteur": "translator",
    "traductrice": "translator", "écrivain": "writer", "écrivaine": "writer",
    "musicien": "musician", "musicienne": "musician", "artiste": "artist",
    "vendeur": "shop assistant", "vendeuse": "shop assistant",
}  # fmt: skip
# English nouns that make "I'm a …" a job rather than a mood ("I'm a bit tired" is not work).
EN_JOBS: Final = word_set(
    "engineer developer programmer nurse doctor teacher lawyer designer manager accountant "
    "consultant architect chef cook waiter waitress pharmacist journalist writer researcher "
    "scientist analyst driver pilot plumber electrician carpenter mechanic farmer dentist vet "
    "veterinarian surgeon physician therapist psychologist photographer translator musician "
    "artist student professor lecturer tutor director founder ceo cto cfo officer administrator "
    "clerk cashier librarian baker barista firefighter paramedic soldier freelancer "
    "entrepreneur tester technician editor producer actor actress dancer singer coach trainer "
    "instructor secretary receptionist recruiter economist banker broker marketer nanny "
    "caregiver cleaner builder welder janitor judge midwife optician programmer copywriter "
    "illustrator animator salesman saleswoman salesperson consultant dev sysadmin"
)
EN_JOB_SUFFIXES: Final = ("ologist", "ician", "grapher", "engineer", "developer", "manager")

# Places of work that Italian and French name without a company ("lavoro in banca").
WORKPLACES: Final = {
    "banca": "a bank", "ospedale": "a hospital", "scuola": "a school", "università": "a university",
    "farmacia": "a pharmacy", "fabbrica": "a factory", "biblioteca": "a library",
    "banque": "a bank", "hôpital": "a hospital", "école": "a school", "université": "a university",
    "pharmacie": "a pharmacy", "usine": "a factory", "bibliothèque": "a library",
}  # fmt: skip

LANGUAGES: Final = {
    "spagnolo": "Spanish", "inglese": "English", "francese": "French", "tedesco": "German",
    "italiano": "Italian", "giapponese": "Japanese", "cinese": "Chinese",
    "portoghese": "Portuguese", "russo": "Russian", "arabo": "Arabic", "coreano": "Korean",
    "espagnol": "Spanish", "anglais": "English", "français": "French", "allemand": "German",
    "italien": "Italian", "japonais": "Japanese", "chinois": "Chinese", "portugais": "Portuguese",
    "russe": "Russian", "arabe": "Arabic", "coréen": "Korean",
}  # fmt: skip
# Goal verbs, longest first so "trasferirmi a" wins over a shorter key.
GOAL_VERBS: Final = {
    "trasferirmi a": "move to", "trasferirmi in": "move to", "déménager à": "move to",
    "déménager en": "move to", "imparare": "learn", "diventare": "become", "correre": "run",
    "visitare": "visit", "studiare": "study", "migliorare": "improve", "iniziare": "start",
    "aprire": "open", "scrivere": "write", "finire": "finish", "parlare": "speak",
    "apprendre": "learn", "devenir": "become", "courir": "run", "visiter": "visit",
    "étudier": "study", "améliorer": "improve", "commencer": "start", "ouvrir": "open",
    "écrire": "write", "finir": "finish", "parler": "speak",
}  # fmt: skip
OBJECTS: Final = {
    "maratona": "a marathon", "mezza maratona": "a half marathon", "marathon": "a marathon",
    "semi-marathon": "a half marathon", "triathlon": "a triathlon",
    "risposte brevi": "short answers",
    "risposte corte": "short answers", "risposte dettagliate": "detailed answers",
    "réponses courtes": "short answers", "réponses brèves": "short answers",
    "réponses détaillées": "detailed answers", "tè": "tea", "thé": "tea", "caffè": "coffee",
    "café": "coffee",
}  # fmt: skip
ARTICLES: Final = ("un'", "l'", "d'", "un ", "una ", "uno ", "une ", "il ", "lo ", "la ", "le ",
                   "les ", "des ", "du ", "i ", "gli ", "de ")  # fmt: skip

# --- sentence shape ---------------------------------------------------------------------------
_SENTENCE_RE: Final = re.compile(r"(?<=[.!?…])\s+|\n+")
# Split clauses at commas, and at "and/but" only when a new first-person statement follows, so
# "I like rock and roll" stays whole while "my name is Anna and I live in Turin" splits.
_CLAUSE_RE: Final = re.compile(
    r"\s*[,;]\s+|\s*[;]\s*|\s+(?:and|but|e|ed|ma|però|et|mais)\s+"
    r"(?=(?:i|i'm|i've|my|io|mi|ho|sono|vivo|abito|lavoro|faccio|mia|mio|je|j'|ma|mon|mes)\b)",
    re.IGNORECASE,
)
_QUESTION_START_RE: Final = re.compile(
    r"^(?:what|who|where|when|why|how|which|do|does|did|can|could|would|should|is|are|will|"
    r"cosa|che cosa|chi|dove|quando|perché|perche|quale|quali|qu'est-ce|que|quoi|où|quand|"
    r"pourquoi|comment|quel|quelle|quels|quelles|est-ce)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL_RE: Final = re.compile(
    r"\b(?:if|suppose|supposing|imagine|pretend|maybe|perhaps|might|would|could|should|i'd|"
    r"wish|hypothetically|se|magari|forse|immagina|supponiamo|vorrei|potrei|dovrei|sarebbe|"
    r"fossi|peut-être|imaginons|supposons|voudrais|aimerais|pourrais|serait|étais)\b"
    r"|\blet's say\b|\bsi (?:j'|je |tu |on |nous |vous )",
    re.IGNORECASE,
)
_NEGATION_RE: Final = re.compile(
    r"\b(?:not|never|no|nobody|nothing|non|mai|nessun[oa]?|niente|nulla|neanche|nemmeno|pas|"
    r"jamais|rien|aucune?|ne)\b|n't\b|\bn'",
    re.IGNORECASE,
)
_REPORTED_RE: Final = re.compile(
    r"\b(?:said|says|told|thinks|ha detto|dice che|pensa che|dit que|m'a dit|pense que)\b",
    re.IGNORECASE,
)
# Interjections and politeness in front of a statement ("ok, so my name is …").
_LEAD_RE: Final = re.compile(
    r"^(?:(?:ok|okay|so|well|also|btw|oh|hey|yes|yeah|actually|anyway|and|please|by the way|"
    r"allora|comunque|sì|ah|beh|anche|e|per favore|alors|bon|oui|donc|aussi|et|sinon)\b"
    r"[\s,:!-]*)+",
    re.IGNORECASE,
)
_APOSTROPHES_RE: Final = re.compile(r"[’‘`´ʼ]")
# Words cut a value short: what follows explains, it is not part of the fact.
_VALUE_STOP_RE: Final = re.compile(
    r"\s+(?:because|since|when|while|although|though|so that|which|perché|poiché|quando|mentre|"
    r"parce que|puisque|quand|car|lorsque)\b.*$",
    re.IGNORECASE,
)


def normalise(text: str) -> str:
    """Return text with one apostrophe form, NFC accents and single spaces."""
    text = unicodedata.normalize("NFC", _APOSTROPHES_RE.sub("'", text))
    # Newlines survive: they separate sentences.
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences, each keeping its final punctuation."""
    return [part.strip() for part in _SENTENCE_RE.split(normalise(text)) if part.strip()]


def split_clauses(sentence: str) -> list[str]:
    """Split a sentence into clauses that each state at most one fact."""
    return [strip_lead(part) for part in _CLAUSE_RE.split(sentence) if part and part.strip()]


def strip_lead(text: str) -> str:
    """Drop leading interjections and politeness ("ok so", "allora", "alors")."""
    return _LEAD_RE.sub("", text.strip()).strip()


def is_question(sentence: str) -> bool:
    """A question is asked about, never a fact shared."""
    text = strip_lead(sentence)
    return text.rstrip().endswith("?") or bool(_QUESTION_START_RE.match(text))


def is_hypothetical(sentence: str) -> bool:
    """Conditionals, wishes and maybes describe no present fact."""
    return bool(_HYPOTHETICAL_RE.search(sentence))


def is_negated(clause: str) -> bool:
    """A negated clause is never turned into a positive fact."""
    return bool(_NEGATION_RE.search(clause))


def is_reported(clause: str) -> bool:
    """Reported speech is someone else's claim, not the person's own words."""
    return bool(_REPORTED_RE.search(clause))


def cut_value(value: str) -> str:
    """Trim a captured value to the fact: drop explanations and trailing punctuation."""
    value = _VALUE_STOP_RE.sub("", value.strip())
    return value.strip().rstrip(".!?…;:,").strip().strip("\"'«»").strip()


def capitalise(text: str) -> str:
    """Upper-case the first letter only, keeping names and acronyms as written."""
    return text[:1].upper() + text[1:]


def strip_article(text: str) -> str:
    """Drop one leading Italian, French or English article."""
    lowered = text.lower()
    for article in ARTICLES:
        if lowered.startswith(article):
            return text[len(article) :].strip()
    return text


def translate_phrase(text: str) -> str:
    """Translate a short object phrase when a table knows it, else keep it verbatim."""
    bare = strip_article(text)
    key = bare.lower()
    if key in OBJECTS:
        return OBJECTS[key]
    if text.lower() in OBJECTS:
        return OBJECTS[text.lower()]
    if key in LANGUAGES:
        return LANGUAGES[key]
    if key in JOBS:
        return with_article(JOBS[key])
    return bare


def with_article(noun: str) -> str:
    """Put "a" or "an" before an English noun."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def estimate_tokens(lines: list[str]) -> int:
    """Approximate the token count of the rendered list (3.5 characters per token)."""
    rendered = "\n".join(f"- {line}" for line in lines)
    return math.ceil(len(rendered) / 3.5)


def line_norm(line: str) -> str:
    """The duplicate key of a line: case, spacing and a trailing full stop do not count."""
    return " ".join(normalise(line).casefold().split()).rstrip(".").strip()


# --- words, for forgetting by shared meaning --------------------------------------------------
STOPWORDS: Final = word_set(
    "the and that about with this what your you please forget everything from for have has "
    "are was were been its it's who where when how all any some just also them they their then "
    "che per con una uno della dello degli delle del dei mio mia miei mie tuo tua cosa come sono "
    "hai tutto dimentica dimenticati scorda scordati que qui les des une pour avec mon mes ton "
    "tes est sont oublie oubliez tout moi toi dans sur note"
)
# Words that name a kind of fact, mapped to the line keys they cover.
KIND_WORDS: Final = {
    "name": ("name",), "live": ("home",), "address": ("home",), "city": ("home",),
    "town": ("home",), "home": ("home",), "job": ("work_as", "work_at"),
    "work": ("work_as", "work_at"), "employer": ("work_at",), "diet": ("diet",),
}  # fmt: skip
WORD_MAP: Final = {
    "nome": "name", "nom": "name", "prénom": "name", "vivo": "live", "abito": "live",
    "habite": "live", "vis": "live", "indirizzo": "address", "adresse": "address",
    "città": "city", "ville": "city", "lavoro": "work", "travail": "work", "métier": "work",
    "boulot": "work", "compleanno": "birthday", "anniversaire": "birthday",
}  # fmt: skip


def significant_words(text: str) -> set[str]:
    """Content words of a text, translated and crudely stemmed, for matching lines to forget."""
    words: set[str] = set()
    for raw in re.findall(r"[^\W\d_]+", normalise(text).replace("'", " ").casefold()):
        word = WORD_MAP.get(raw) or RELATIONS.get(raw) or LANGUAGES.get(raw, raw).lower()
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if len(word) >= 3 and word not in STOPWORDS:
            words.add(word)
    return words


# --- value readers: the fact inside a captured tail ("Anna and I live…" → "Anna")
_NAME_TOKEN_RE: Final = re.compile(r"[^\W\d_][\w'-]*")
_ORG_TOKEN_RE: Final = re.compile(r"\w[\w'.&+-]*")
_NAME_STOP: Final = word_set(
    "a an the not and but e ma et mais by btw here there from di de da je sono too also anche "
    "aussi now ora maintenant lol actually"
)
_PLACE_CONNECTORS: Final = word_set("de di del della dei upon on sur en du des am im der of")
# Lower-case words after "I live in" that are no town ("I live in fear", "vivo a casa").
_PLACE_STOP: Final = word_set(
    "a an the fear peace hope denial harmony sin poverty luxury town city house flat apartment "
    "home here there campagna città casa centro periferia qui lì ici là ville maison appartement "
    "campagne banlieue un una uno une le la les il lo"
)
_ROLE_STOP: Final = word_set(
    "at for in since from with and but on because who that per presso da chez pour depuis dans "
    "à con avec al alla nel nella now currently ora adesso maintenant"
)
_TIME_WORDS: Final = word_set("moment weekend weekends night nights home end same minute")
_PRONOUN_STARTS: Final = word_set(
    "it this that these those you your yours him her them questo questa questi quello quella "
    "quelli lo ti te toi ton ta tes votre vos ça cela ce cette ces myself me"
)
# Opinions about the assistant or the app itself are never stored (SPEC §3), nor passing moods.
_OFF_TOPIC_RE: Final = re.compile(
    r"\b(?:whizi|assistant|chatbot|this app|the app|your|you|today|tonight|this morning|oggi|"
    r"stasera|stamattina|aujourd'hui|ce soir|ce matin|a lot|so much|lots)\b",
    re.IGNORECASE,
)
# "now" does not make "I'm learning Spanish now" transient; it is just dropped.
_TRAILING_TIME_RE: Final = re.compile(
    r"\s+(?:now|right now|at the moment|these days|currently|ora|adesso|in questo periodo|"
    r"maintenant|en ce moment)$",
    re.IGNORECASE,
)
EN_COUNT_NOUNS: Final = word_set(
    "little younger older big elder twin kid kids children child son sons daughter daughters "
    "brother brothers sister sisters sibling siblings grandchildren grandkids dog dogs cat cats "
    "twins"
)
VOICE_SAFE_RE: Final = re.compile(r"[\w\s',.:&()/-]+")


def _bare(token: str) -> str:
    return token.strip('.,;:!?"()«»')


def take_name(text: str, *, require_cap: bool) -> str | None:
    """Read a name: one to three capitalised words, or one lower-case word when allowed."""
    out: list[str] = []
    for raw in text.split():
        token = _bare(raw)
        if not _NAME_TOKEN_RE.fullmatch(token) or token.lower() in _NAME_STOP:
            break
        if not token[0].isupper():
            if out or require_cap:
                break
            out.append(capitalise(token))
            break
        out.append(token)
        if raw != token or len(out) == 3:
            break
    return " ".join(out) or None


def take_place(text: str, *, allow_lower: bool) -> str | None:
    """Read a place: a run of capitalised words ("New York", "Reggio di Calabria")."""
    out: list[str] = []
    pending: list[str] = []
    for raw in text.split():
        token = _bare(raw)
        if not _NAME_TOKEN_RE.fullmatch(token):
            break
        if token[0].isupper():
            out += [*pending, token]
            pending = []
        elif not pending and (
            (not out and token.lower() == "the") or (out and token.lower() in _PLACE_CONNECTORS)
        ):
            pending = [token]
        elif not out and not pending and allow_lower and token.lower() not in _PLACE_STOP:
            return capitalise(token) if len(token) >= 3 else None
        else:
            break
        if raw != token or len(out) >= 5:
            break
    return " ".join(out) or None


def take_org(text: str) -> str | None:
    """Read an employer: capitalised words ("Acme", "the BBC") or "a/an/the <noun>"."""
    words = text.split()
    if words and words[0].lower() in ("a", "an", "the") and len(words) > 1:
        if words[1][:1].isupper():
            org = take_org(" ".join(words[1:]))
            return f"{words[0]} {org}" if org else None
        nouns: list[str] = []
        for raw in words[1:4]:
            token = _bare(raw)
            if not token.isalpha() or token.lower() in _ROLE_STOP:
                break
            nouns.append(token)
            if raw != token:
                break
        if not nouns or nouns[0].lower() in _TIME_WORDS or nouns[-1].lower() in _TIME_WORDS:
            return None
        return " ".join([words[0], *nouns])
    out: list[str] = []
    for raw in words:
        token = _bare(raw)
        if token in ("&", "of") and out:
            out.append(token)
            continue
        if not _ORG_TOKEN_RE.fullmatch(token) or not (token[0].isupper() or token[0].isdigit()):
            break
        out.append(token)
        if raw != token or len(out) >= 5:
            break
    while out and out[-1] in ("&", "of"):
        out.pop()
    return " ".join(out) or None


def take_role(text: str, limit: int = 6) -> str | None:
    """Read a job phrase up to the first preposition ("a nurse" in "a nurse at the clinic")."""
    out: list[str] = []
    for raw in text.split():
        token = _bare(raw)
        if not token or token.lower() in _ROLE_STOP or not _NAME_TOKEN_RE.fullmatch(token):
            break
        out.append(token)
        if raw != token or len(out) >= limit:
            break
    return " ".join(out) or None


def looks_like_job(noun: str) -> bool:
    """True for an English job noun, so "I'm a bit tired" is not read as work."""
    word = noun.lower()
    return word in EN_JOBS or word.endswith(EN_JOB_SUFFIXES)


def take_value(text: str, *, max_words: int) -> str | None:
    """Read a preference or goal; None for pronouns, opinions about the app, or long phrases."""
    value = _TRAILING_TIME_RE.sub("", cut_value(text))
    words = value.split()
    if not words or len(words) > max_words or words[0].lower() in _PRONOUN_STARTS:
        return None
    if _OFF_TOPIC_RE.search(value):
        return None
    return value


# --- regular-expression fragments of the extraction rules -----------------------------------
RELS_EN = (r"wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|son|daughter|mother|mom|"
            r"mum|father|dad|brother|sister|kid|child|dog|cat|baby")  # fmt: skip
RELS_IT = (r"moglie|marito|compagna|compagno|fidanzata|fidanzato|figlia|figlio|madre|mamma|"
            r"padre|papà|fratello|sorella|cane|gatto")  # fmt: skip
RELS_FR = (r"femme|mari|compagne|compagnon|copine|copain|fiancée?|fille|fils|mère|maman|père|"
            r"papa|frère|s(?:œ|oe)ur|chien|chat")  # fmt: skip
COUNT_NOUNS = (
    r"(?:(?:little|younger|older|big|elder|twin) )?(?:kids?|children|child|sons?|daughters?|"
    r"brothers?|sisters?|siblings?|grandchildren|grandkids|dogs?|cats?|twins|figli[oe]?|figlia|"
    r"bambin[ioae]|fratell[io]|sorell[ae]|nipoti|can[ei]|gatt[io]|gemelli|enfants?|fils|"
    r"filles?|frères?|s(?:œ|oe)urs?|chiens?|chats?|petits-enfants|jumeaux|jumelles)"
)
I_AM = r"\bi(?:'m| am)"
NUM = r"a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}"
NUM_IT = r"un'|una|uno|un|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|\d{1,2}"
NUM_FR = r"une|un|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|\d{1,2}"
