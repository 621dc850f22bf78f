"""Value readers of the offline extractor: the fact inside a captured tail ("Anna and I live…" →
"Anna"), verbatim, or None when unsure. `strict` is voice: only unambiguous values pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Final

from memory.offline import vocab as v
from memory.offline.patterns import capitalise, cut_value, word_set

Reader = Callable[[str, bool], "str | None"]

_NAME_TOKEN_RE: Final = re.compile(r"[^\W\d_][\w'-]*")
_ORG_TOKEN_RE: Final = re.compile(r"\w[\w'.&+-]*")
_NAME_STOP: Final = word_set(
    "a an the not and but e ma et mais y pero und aber by btw here there from di de da je sono "
    "too also anche aussi now ora maintenant lol actually ich und eu e"
)
_PLACE_CONNECTORS: Final = word_set("de di del della dei upon on sur en du des am im der of do da")
# Lower-case words after "I live in" that are no town ("I live in fear", "vivo a casa").
_PLACE_STOP: Final = word_set(
    "a an the fear peace hope denial harmony sin poverty luxury town city house flat apartment "
    "home here there campagna città casa centro periferia qui lì ici là ville maison appartement "
    "campagne banlieue un una uno une le la les il lo el los las casa aquí allí ciudad piso "
    "einer einem der die das hier dort stadt wohnung um uma o os as aqui ali cidade"
)
_ROLE_STOP: Final = word_set(
    "at for in since from with and but on because who that per presso da chez pour depuis dans "
    "à con avec al alla nel nella now currently ora adesso maintenant en para desde y ahora "
    "bei für seit und bei jetzt em na no para com e agora so or lol btw haha which where "
    "quindi donc así also então too of"
)
_PRONOUNS: Final = word_set("i we io noi je nous yo nosotros ich wir eu nós")
_TIME_WORDS: Final = word_set("moment weekend weekends night nights home end same minute")
# A preference or taste must not point at something in the conversation ("I love that photo").
_DEICTIC: Final = word_set(
    "it this that these those you your yours him her his them their they he she we our us me "
    "my myself how what when where why way "
    "questo questa questi queste quello quella quelli quelle ti te tuo tua tuoi tue suo sua "
    "lui lei loro come cosa quando mio mia "
    "ça cela ce cet cette ces toi ton ta tes votre vos son sa ses lui elle eux comment quand "
    "mon ma mes "
    "esto esta este estos estas eso esa ese aquello tu tus su sus él ella ellos cómo cuando mi "
    "mis "
    "es das dies diese dieser dieses du dein deine dich dir sein seine ihr ihre er sie wie wann "
    "mein meine "
    "isso isto esse essa este esta você teu tua seu sua ele ela eles como quando meu minha"
)
# Nouns that make a "taste" a reaction to the moment ("Loves the photo", "Likes the idea").
_REACTION_NOUNS: Final = word_set(
    "photo photos picture pictures pic pics image idea ideas way sound look looks view vibe "
    "vibes painting post story thing things stuff one ones moment part color colors colour "
    "colours song video pattern design feeling result news "
    "foto immagine idea modo quadro storia cosa cose momento colore colori canzone "
    "photos image idée façon tableau histoire chose choses moment couleur couleurs chanson "
    "imagen manera cuadro historia cosas momento canción "
    "bild bilder idee art weise geschichte ding dinge sache sachen moment farbe lied "
    "imagem ideia jeito quadro história coisa coisas momento cor música"
)
_OFF_TOPIC_RE: Final = re.compile(
    r"\b(?:whizi|assistant|chatbot|app|today|tonight|this morning|yesterday|tomorrow|oggi|"
    r"stasera|ieri|domani|aujourd'hui|ce soir|hier|demain|hoy|ayer|mañana|heute|gestern|morgen|"
    r"hoje|ontem|amanhã|a lot|so much|lots)\b|[!:;()\d]",
    re.IGNORECASE,
)
TRAILING_TIME_RE: Final = re.compile(
    r"\s+(?:now|right now|at the moment|these days|currently|ora|adesso|in questo periodo|"
    r"maintenant|en ce moment|ahora|jetzt|zurzeit|agora|atualmente|too|as well|also|anche|aussi|"
    r"también|auch|também)$",
    re.IGNORECASE,
)
_GERUND_NOISE: Final = word_set(
    "seeing hearing knowing getting having being making doing going talking chatting feeling "
    "thinking looking catching"
)


def bare(token: str) -> str:
    return token.strip('.,;:!?"()«»…')


def take_name(text: str, *, require_cap: bool) -> str | None:
    """Read a name: one to three capitalised words, or one lower-case word when allowed."""
    out: list[str] = []
    for raw in text.split():
        token = bare(raw)
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


def lone_name(text: str, strict: bool) -> str | None:
    """One or two capitalised words that are no nationality or job ("ich bin Lukas")."""
    words = [bare(word) for word in text.split()]
    if not 1 <= len(words) <= 2 or not all(_NAME_TOKEN_RE.fullmatch(w) for w in words):
        return None
    if not all(word[0].isupper() for word in words):
        return None
    lowered = {word.lower() for word in words}
    blocked = v.NOT_NAMES | v.NOT_NAMES_OTHER | v.JOBS | v.EN_JOBS | v.LANGUAGE_NAMES
    return None if lowered & (blocked | _NAME_STOP) else " ".join(words)


# Capitalised words that open a sentence without being a name ("Today, my dog…").
_NOT_APPOSED: Final = word_set(
    "hi hello hey ok okay yes yeah well so oh ah sorry thanks today yesterday tonight tomorrow "
    "now then anyway also honestly sadly luckily actually lol haha monday tuesday wednesday "
    "thursday friday saturday sunday ciao oggi ieri domani allora comunque sì grazie bonjour "
    "salut oui aujourd'hui hier demain alors merci hola hoy ayer mañana bueno gracias hallo "
    "heute gestern morgen also danke oi olá hoje ontem amanhã então obrigado obrigada "
    # Titles: "Meine Frau Doktor", "my boss, Mr Smith"
    "doktor dr herr frau professor prof mister mr mrs ms signor signora madame monsieur "
    "señor señora senhor senhora dona"
)


def apposed_name(text: str, strict: bool) -> str | None:
    """A name beside a relative between commas ("Biscuit, my beagle")."""
    value = take_name(text, require_cap=True)
    if not value or len(value.split()) > 2:
        return None
    lowered = {word.lower() for word in value.split()}
    blocked = _NOT_APPOSED | v.NOT_NAMES | v.NOT_NAMES_OTHER | v.JOBS | v.EN_JOBS
    blocked |= v.RELATIONS.keys() | v.LANGUAGE_NAMES | v.MONTHS
    return None if lowered & blocked else value


def name(*, capped: bool) -> Reader:
    return lambda text, strict: take_name(text, require_cap=capped or strict)


_AFTER_PLACE: Final = _ROLE_STOP | _PLACE_CONNECTORS | word_set("now too since")


def take_place(text: str, *, allow_lower: bool) -> str | None:
    """Read a place: a run of capitalised words ("New York", "Reggio di Calabria")."""
    out: list[str] = []
    pending: list[str] = []
    for raw in text.split():
        token = bare(raw)
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
            # A lower-case town ends the phrase: "I live in rome now", not "in interesting times".
            after = [bare(word).lower() for word in text.split()[1:2]]
            if raw == token and after and after[0] not in _AFTER_PLACE:
                return None
            return capitalise(token) if len(token) >= 3 else None
        else:
            break
        if raw != token or len(out) >= 5:
            break
    return " ".join(out) or None


def place(*, lower_ok: bool) -> Reader:
    return lambda text, strict: take_place(text, allow_lower=lower_ok and not strict)


def take_org(text: str) -> str | None:
    """Read an employer: capitalised words ("Acme", "the BBC") or "a/an/the <noun>"."""
    words = text.split()
    if words and words[0].lower() in ("a", "an", "the") and len(words) > 1:
        if words[1][:1].isupper():
            org = take_org(" ".join(words[1:]))
            return f"{words[0]} {org}" if org else None
        nouns: list[str] = []
        for raw in words[1:4]:
            token = bare(raw)
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
        token = bare(raw)
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


def org(text: str, strict: bool) -> str | None:
    return take_org(text)


def role(text: str, strict: bool) -> str | None:
    """Read a job phrase up to the first preposition ("a nurse" in "a nurse at the clinic")."""
    out: list[str] = []
    for raw in text.split():
        token = bare(raw)
        if not token or token.lower() in _ROLE_STOP or not _NAME_TOKEN_RE.fullmatch(token):
            break
        out.append(token)
        if raw != token or len(out) >= 5:
            break
    if not out or out[0].lower() in _DEICTIC or out[-1].lower() in ("a", "an", "un", "une"):
        return None
    return " ".join(out)


def looks_like_job(noun: str) -> bool:
    """True for an English job noun, so "I'm a bit tired" is not read as work."""
    word = noun.lower()
    return word in v.EN_JOBS or word.endswith(v.EN_JOB_SUFFIXES)


# What a job teaches or covers: "professeure de mathématiques", "insegnante d'inglese".
_SUBJECT_RE: Final = re.compile(
    r"^(?:(?:de|di|da|do|del|de la) (?P<w>[^\W\d_][\w-]*)|(?:d'|dell')(?P<e>[^\W\d_][\w-]*))"
    r"(?=$|[\s,.;:!?])",
    re.IGNORECASE,
)
_SUBJECT_STOP: Final = word_set(
    "nuit jour notte giorno noche día nacht dia professione profession profesión beruf "
    "profissão mestiere métier oficio formazione formation formación ruolo rôle "
    # How long, not what: "Faccio l'idraulico da quindici anni".
    "anni anno mesi tempo sempre poco molto tanto ans années mois temps años meses tiempo "
    "anos tempo muito pouco un una uno une um uma due tre quattro cinque sei sette otto nove "
    "dieci undici dodici tredici quattordici quindici sedici venti trenta deux trois quatre "
    "cinq dix quinze vingt dos tres cuatro cinco diez quince veinte dois três quatro dez "
    "quinze vinte"
)


def _with_subject(job_words: str, rest: str) -> str:
    """The job, with what it covers when said right after it ("de música")."""
    match = _SUBJECT_RE.match(rest)
    word = match and (match["w"] or match["e"])
    if not match or not word or word[0].isupper() or word.lower() in _SUBJECT_STOP:
        return job_words
    return f"{job_words} {match.group(0)}"


def job(text: str, strict: bool) -> str | None:
    """One known job noun, with its article and subject ("profesora de música")."""
    raw = text.split()
    words = [bare(word) for word in raw[:3]]
    if not words:
        return None
    lead = words[0].lower()
    if lead in ("un", "una", "uno", "une", "ein", "eine", "um", "uma") and len(words) > 1:
        if words[1].lower() not in v.JOBS:
            return None
        found, used = f"{words[0]} {words[1]}", 2
    elif lead in v.JOBS:
        found, used = words[0], 1
    else:
        return None
    if raw[used - 1] != words[used - 1]:  # punctuation ends the job: "infermiera, e …"
        return found
    return _with_subject(found, " ".join(raw[used:]))


def cut_at_preposition(text: str) -> str:
    """ "maths at a high school" → "maths": where or for whom is not the fact."""
    words = text.split()
    for i, word in enumerate(words[1:], start=1):
        if word.lower() in _CUT_WORDS:
            return " ".join(words[:i])
    return text


_CUT_WORDS: Final = word_set(
    "at in for since with on because per presso con in a da chez pour depuis dans avec à en "
    "para desde con bei für seit mit an in em na no com im am beim zum zur vom num numa nos nas"
)


def phrase(max_words: int, *, cut: bool = False) -> Reader:
    """A short object ("hiking", "le jazz", "short answers"); None for anything deictic."""

    def read(text: str, strict: bool) -> str | None:
        if cut:
            text = cut_at_preposition(text)
        value = TRAILING_TIME_RE.sub("", cut_value(text))
        words = value.split()
        if not words or len(words) > max_words or _OFF_TOPIC_RE.search(value):
            return None
        lowered = [word.strip(".,'").lower() for word in words]
        if any(word in _DEICTIC for word in lowered) or lowered[0] in _GERUND_NOISE:
            return None
        if any(word in _REACTION_NOUNS for word in lowered):
            return None
        return value

    return read


def one_of(words: Collection[str], *, max_words: int = 3) -> Reader:
    """A phrase that holds one of the given words ("the cello", "du violoncelle")."""

    def read(text: str, strict: bool) -> str | None:
        value = cut_value(cut_at_preposition(text))
        tokens = value.split()
        if not tokens or len(tokens) > max_words:
            return None
        if any(bare(token).lower() in _PRONOUNS for token in tokens):  # "spiele ich Schach"
            return None
        return value if bare(tokens[-1]).lower() in words else None

    return read
