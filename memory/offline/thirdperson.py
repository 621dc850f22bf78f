"""The offline extractor's generic rewrite: a note no fact rule reads becomes a third-person line
("remember that I grow bonsai" → "Grows bonsai").

Per language the pronoun goes, the verb is conjugated and first-person words rewritten. Precision
first: a note to the assistant, a question, a hypothetical or a fragment gives no line. Pure module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from memory.offline import patterns as p
from memory.offline.patterns import capitalise, word_set

MAX_LINE: Final = 160

_WORD_RE: Final = re.compile(r"\S+")


def _bare(token: str) -> str:
    return token.strip('.,;:!?"()«»').lower()


# --- which language a note is in: its first-person words and commonest function words -------
_MARKERS: Final = {
    "en": word_set("i i'm i've i'll my me the a an is and with in on at every of for"),
    "it": word_set(
        "io ho sono mio mia miei mie il lo gli la è e con di ogni che mi una un del a in per al "
        "alla nel nella volte settimana"
    ),
    "fr": word_set("je j'ai j' mon ma mes le la les est et avec de du des un une chaque qui au"),
    "es": word_set("yo tengo soy mi mis el los las es y con de del un una cada que en voy"),
    "de": word_set("ich mein meine meinen meinem meiner der die das ist und mit ein eine einen"),
    "pt": word_set("eu tenho sou meu minha o os as é e com de do da um uma cada que em no na"),
}


def languages_of(text: str) -> list[str]:
    """The languages a short note may be in, likeliest first, by its words and verbs."""
    tokens = [_bare(token) for token in _WORD_RE.findall(p.normalise(text))]
    tokens += ["j'" for token in tokens if token.startswith("j'")]
    scores = {
        lang: sum(token in words or token in _FIRST_VERBS.get(lang, {}) for token in tokens)
        for lang, words in _MARKERS.items()
    }
    ranked = sorted((lang for lang in scores if scores[lang] > 0), key=lambda lang: -scores[lang])
    # No word tells: every language's rewriter may try ("colleziono francobolli").
    return ranked or list(_MARKERS)


# --- English -----------------------------------------------------------------------------------
_EN_IRREGULAR: Final = {"have": "has", "do": "does", "go": "goes", "am": "is", "be": "is"}
_EN_ADVERBS: Final = word_set(
    "also always usually often never really still sometimes mostly just only actually currently "
    "now regularly normally generally rarely seldom occasionally even already absolutely "
    "genuinely definitely"
)
_EN_LEADS: Final = (
    (re.compile(r"^i(?:'m| am)\b", re.I), "is"),
    (re.compile(r"^i(?:'ve| have) got\b", re.I), "has"),
    (re.compile(r"^i(?:'ve| have)\b", re.I), "has"),
    (re.compile(r"^i(?:'ll| will)\b", re.I), "will"),
    (re.compile(r"^i was\b", re.I), "was"),
    (re.compile(r"^i can(?:'t|not)\b", re.I), "can't"),
    (re.compile(r"^i can\b", re.I), "can"),
    (re.compile(r"^i (?:don't|dont)\b", re.I), "doesn't"),
    (re.compile(r"^i do not\b", re.I), "does not"),
    (re.compile(r"^i (?:didn't|did not)\b", re.I), "didn't"),
    (re.compile(r"^i used to\b", re.I), "used to"),
)
_EN_POSSESSIVE: Final = {"my": "their", "mine": "theirs", "myself": "themself", "me": "them"}
_EN_FIRST: Final = word_set("i i'm i've i'd i'll me my mine myself we we're we've our us")


# A verb in the past is the same in every person: "I had" → "Had", never "Hads".
_EN_PAST: Final = word_set(
    "had got was were did went made took saw came gave found told felt became left knew thought "
    "bought brought ran won met began wrote grew drove sold built spent kept lost paid sent "
    "taught caught sat stood understood heard held said ate drank swam sang flew fell broke "
    "chose forgot hid rode wore woke slept could would should might must"
)


# Present verbs that end in "-ed" all the same.
_EN_ED_VERBS: Final = word_set("shred embed wed sled shed bed")


def en_third(verb: str) -> str:
    """ "drive" → "drives", "go" → "goes", "study" → "studies", "have" → "has"; "had" stays."""
    low = verb.lower()
    if low in _EN_PAST or (
        low.endswith("ed") and not low.endswith("eed") and len(low) > 3 and low not in _EN_ED_VERBS
    ):
        out = low
    elif low in _EN_IRREGULAR:
        out = _EN_IRREGULAR[low]
    elif re.search(r"(?:s|sh|ch|x|z|o)$", low):
        out = low + "es"
    elif re.search(r"[^aeiou]y$", low):
        out = low[:-1] + "ies"
    else:
        out = low + "s"
    return out


def _en(text: str) -> str | None:
    words = text.split()
    if not words:
        return None
    head: list[str] = []
    rest = words
    if words[0].lower() == "my":
        rest = words[1:]
    elif words[0].lower() == "i" or words[0].lower().startswith(("i'", "i’")):
        joined = " ".join(words)
        for pattern, verb in _EN_LEADS:
            match = pattern.match(joined)
            if match:
                head = [verb]
                rest = joined[match.end() :].split()
                break
        else:
            rest = words[1:]
            while rest and (rest[0].lower() in _EN_ADVERBS or rest[0].lower().endswith("ly")):
                head.append(rest[0].lower())
                rest = rest[1:]
            if not rest or not re.fullmatch(r"[a-z]+", rest[0]):
                return None
            head.append(en_third(rest[0]))
            rest = rest[1:]
    else:
        return None
    tail = [_EN_POSSESSIVE.get(word.lower(), word) for word in rest]
    line = " ".join([*head, *tail])
    return None if any(_bare(word) in _EN_FIRST for word in line.split()) else line


# --- the Romance languages: a pro-drop subject, a first-person verb, possessives -------------
# First-person forms of the commonest irregular verbs, each with its third person.
_IT_VERBS: Final = {
    "ho": "ha", "sono": "è", "sto": "sta", "vado": "va", "faccio": "fa", "posso": "può",
    "voglio": "vuole", "devo": "deve", "so": "sa", "do": "dà", "vengo": "viene",
    "tengo": "tiene", "esco": "esce", "bevo": "beve", "corro": "corre", "vivo": "vive",
    "leggo": "legge", "scrivo": "scrive", "prendo": "prende", "metto": "mette", "vedo": "vede",
    "credo": "crede", "conosco": "conosce", "cresco": "cresce", "perdo": "perde",
    "vinco": "vince", "chiedo": "chiede", "scelgo": "sceglie", "dormo": "dorme", "parto": "parte",
    "sento": "sente", "seguo": "segue", "apro": "apre", "soffro": "soffre", "rimango": "rimane",
    "raccolgo": "raccoglie", "colgo": "coglie", "spendo": "spende", "vendo": "vende",
    "decido": "decide", "ricevo": "riceve", "combatto": "combatte", "cucio": "cuce",
    "dipingo": "dipinge", "piango": "piange", "risolvo": "risolve", "produco": "produce",
    "traduco": "traduce", "costruisco": "costruisce",
}  # fmt: skip
_ES_VERBS: Final = {
    "soy": "es", "estoy": "está", "tengo": "tiene", "voy": "va", "hago": "hace",
    "puedo": "puede", "quiero": "quiere", "sé": "sabe", "doy": "da", "digo": "dice",
    "vengo": "viene", "salgo": "sale", "pongo": "pone", "conduzco": "conduce",
    "conozco": "conoce", "juego": "juega", "pienso": "piensa", "prefiero": "prefiere",
    "empiezo": "empieza", "duermo": "duerme", "vuelvo": "vuelve", "sigo": "sigue",
    "pido": "pide", "vivo": "vive", "corro": "corre", "leo": "lee", "escribo": "escribe",
    "aprendo": "aprende", "bebo": "bebe", "subo": "sube", "veo": "ve", "creo": "cree",
    "traduzco": "traduce", "construyo": "construye", "toco": "toca", "cuento": "cuenta",
    "muevo": "mueve", "entiendo": "entiende", "siento": "siente", "visto": "viste",
    "comparto": "comparte", "recibo": "recibe", "vendo": "vende", "cojo": "coge",
    "colecciono": "colecciona", "suelo": "suele", "pierdo": "pierde", "mido": "mide",
}  # fmt: skip
_PT_VERBS: Final = {
    "sou": "é", "estou": "está", "tenho": "tem", "vou": "vai", "faço": "faz", "posso": "pode",
    "quero": "quer", "sei": "sabe", "dou": "dá", "digo": "diz", "venho": "vem", "saio": "sai",
    "ponho": "põe", "dirijo": "dirige", "conheço": "conhece", "durmo": "dorme", "sigo": "segue",
    "peço": "pede", "prefiro": "prefere", "sinto": "sente", "visto": "veste", "leio": "lê",
    "vejo": "vê", "corro": "corre", "vivo": "vive", "bebo": "bebe", "escrevo": "escreve",
    "aprendo": "aprende", "trago": "traz", "perco": "perde", "meço": "mede", "ouço": "ouve",
    "subo": "sobe", "consigo": "consegue", "recebo": "recebe", "vendo": "vende",
    "coleciono": "coleciona", "costumo": "costuma", "construo": "constrói",
}  # fmt: skip
# Forms that are first person only at the start of a clause ("como" is also "as").
_ES_START_ONLY: Final = {"como": "come"}
_PT_START_ONLY: Final = {"como": "come"}

# Words before the verb that are not its subject: time and place phrases, negation, adverbs.
_RO_BEFORE: Final = word_set(
    "a ad in il lo la l' i gli le ogni ogni tutti tutte da dal dalla di del della nel nella "
    "questo questa quest' prossimo prossima non anche ancora sempre già spesso ormai "
    "en el la los las cada todos todas este esta próximo próxima no también todavía siempre ya "
    "a menudo desde de del "
    "em no na nos nas o os as todo toda todos todas cada este esta próximo próxima não também "
    "ainda sempre já muitas vezes desde de do da "
    "lunedì martedì mercoledì giovedì venerdì sabato domenica gennaio febbraio marzo aprile "
    "maggio giugno luglio agosto settembre ottobre novembre dicembre weekend "
    "lunes martes miércoles jueves viernes sábado domingo enero febrero abril mayo junio julio "
    "septiembre octubre noviembre diciembre fin semana semanas "
    "segunda terça quarta quinta sexta sábado domingo janeiro fevereiro março maio junho julho "
    "setembro outubro dezembro fim semana semanas fins "
    "estate inverno primavera autunno mattina sera notte anno mese sabati domeniche "
    "verano invierno otoño mañana tarde noche año mes sábados domingos mañanas tardes noches "
    "verão outono manhã noite ano mês sábados domingos manhãs tardes noites"
)
_RO_SUBJECT: Final = {"it": "io", "es": "yo", "pt": "eu"}
_RO_REFLEXIVE: Final = {"it": ("mi", "si"), "es": ("me", "se"), "pt": ("me", "se")}
_RO_NEGATION: Final = {"it": "non", "es": "no", "pt": "não"}
# Possessives: the article is kept at the start ("il mio colore" → "Il colore"), the third
# person's elsewhere ("con mi hermano" → "con su hermano").
_RO_POSSESSIVE: Final = {
    "it": {"mio": "suo", "mia": "sua", "miei": "suoi", "mie": "sue"},
    "es": {"mi": "su", "mis": "sus", "mío": "suyo", "mía": "suya"},
    "pt": {"meu": "seu", "minha": "sua", "meus": "seus", "minhas": "suas"},
}
_RO_ARTICLES: Final = word_set("il la i le lo l' o a os as")
_RO_FIRST: Final = {
    "it": word_set("io mio mia miei mie ho vivo abito mi me noi nostro nostra"),
    "es": word_set("yo mi mis soy tengo me mío mía nosotros nuestro nuestra"),
    "pt": word_set("eu meu minha meus minhas sou tenho moro me mim nós nosso nossa"),
}
_RO_VERBS: Final = {"it": _IT_VERBS, "es": _ES_VERBS, "pt": _PT_VERBS}
_RO_START_ONLY: Final = {"it": {}, "es": _ES_START_ONLY, "pt": _PT_START_ONLY}


# Words ending in -o that are no first-person verb.
_NOT_VERBS: Final = word_set(
    "disso isso nisso disto isto aquilo daquilo quanto tanto molto poco tutto questo quello "
    "mucho poco todo esto eso cuanto tanto muito pouco todo quanto também algo nuovo nuevo novo "
    "solo sólo ancho largo bello bueno buono lavoro trabajo trabalho anno año ano giorno dia"
)


def _ro_regular(word: str, lang: str) -> str | None:
    """The third person of a regular first-person verb ("guido" → "guida"), else None."""
    low = word.lower()
    if lang == "it" and low.endswith("isco"):
        return word[:-1] + "e"
    if re.fullmatch(r"[a-zà-ÿ]{3,}o", low) and low not in _NOT_VERBS:
        return word[:-1] + "a"
    return None


def _romance(text: str, lang: str) -> str | None:
    words = text.split()
    subject, negation = _RO_SUBJECT[lang], _RO_NEGATION[lang]
    reflexive, third_reflexive = _RO_REFLEXIVE[lang]
    verbs, start_only, possessive = _RO_VERBS[lang], _RO_START_ONLY[lang], _RO_POSSESSIVE[lang]
    out: list[str] = []
    verb_done = False
    i = 0
    while i < len(words):
        word = words[i]
        low = _bare(word)
        if i == 0 and low in possessive and i + 1 < len(words):  # "mio figlio", "mi hermano"
            out.append(possessive[low])
            i += 1
            continue
        if (
            i == 0
            and low in _RO_ARTICLES
            and i + 1 < len(words)
            and _bare(words[i + 1]) in possessive
        ):
            out.append(word)  # "il mio colore" → "il colore", "a minha cor" → "a cor"
            i += 2
            verb_done = True  # the subject is a noun: its verb is already in the third person
            continue
        if low in possessive:
            out.append(word.replace(low, possessive[low]) if word.islower() else possessive[low])
            i += 1
            continue
        if not verb_done:
            if low == subject:
                i += 1
                continue
            if low == reflexive:
                out.append(third_reflexive)
                i += 1
                continue
            after_subject = i == 0 or _bare(words[i - 1]) in (subject, reflexive, negation)
            third = verbs.get(low) or (start_only.get(low) if after_subject else None)
            if not third and after_subject:
                third = _ro_regular(word, lang)
            if third:
                out.append(third)
                verb_done = True
                i += 1
                continue
            if low not in _RO_BEFORE and not low.isdigit():
                verb_done = True  # a noun subject ("Matteo gioca …"): nothing to conjugate
        out.append(word)
        i += 1
    if not out or any(_bare(word) in _RO_FIRST[lang] for word in out):
        return None
    return " ".join(out)


# --- French ------------------------------------------------------------------------------------
_FR_VERBS: Final = {
    "suis": "est", "ai": "a", "vais": "va", "fais": "fait", "peux": "peut", "veux": "veut",
    "dois": "doit", "sais": "sait", "vois": "voit", "bois": "boit", "crois": "croit",
    "conduis": "conduit", "lis": "lit", "dis": "dit", "écris": "écrit", "vis": "vit",
    "prends": "prend", "apprends": "apprend", "comprends": "comprend", "viens": "vient",
    "tiens": "tient", "cours": "court", "sors": "sort", "dors": "dort", "pars": "part",
    "sens": "sent", "mets": "met", "connais": "connaît", "reviens": "revient",
    "deviens": "devient", "peins": "peint", "construis": "construit", "traduis": "traduit",
}  # fmt: skip
_FR_POSSESSIVE: Final = {"mon": "son", "ma": "sa", "mes": "ses"}
_FR_FIRST: Final = word_set("je j' moi mon ma mes me m' nous notre nos suis")


def _fr_third(word: str) -> str:
    low = word.lower()
    if low in _FR_VERBS:
        return _FR_VERBS[low]
    if low.endswith(("is", "ss")) and len(low) > 3:  # "finis" → "finit"
        return low[:-1] + "t"
    if low.endswith(("s", "x")) and not low.endswith("es"):
        return low[:-1] + "t"
    return low  # "chante", "joue": the same form


def _fr(text: str) -> str | None:
    text = re.sub(r"\bj'", "je ", text, flags=re.IGNORECASE)
    text = re.sub(r"\b([mnt])'", r"\1e ", text, flags=re.IGNORECASE)
    words = text.split()
    lows = [_bare(word) for word in words]
    if "je" not in lows:
        if lows and lows[0] in _FR_POSSESSIVE:
            words = [_FR_POSSESSIVE[lows[0]], *words[1:]]
            return _fr_finish(words)
        return None
    at = lows.index("je")
    out = words[:at]
    rest = words[at + 1 :]
    while rest and _bare(rest[0]) in ("ne", "me", "y", "en"):
        word = _bare(rest[0])
        out.append("se" if word == "me" else word)
        rest = rest[1:]
    if not rest or not re.fullmatch(r"[a-zà-ÿ-]+", rest[0].lower()):
        return None
    out.append(_fr_third(rest[0]))
    return _fr_finish([*out, *rest[1:]])


def _fr_finish(words: list[str]) -> str | None:
    words = [_FR_POSSESSIVE.get(word.lower(), word) for word in words]
    text = " ".join(words)
    # Elision again: "ne aime" → "n'aime", "se entraîne" → "s'entraîne".
    text = re.sub(r"\b([ns])e ([aeiouyéèêàâîôûh])", r"\1'\2", text, flags=re.IGNORECASE)
    if any(_bare(word) in _FR_FIRST for word in text.replace("'", "' ").split()):
        return None
    return text


# --- German ------------------------------------------------------------------------------------
_DE_VERBS: Final = {
    "bin": "ist", "habe": "hat", "hab": "hat", "kann": "kann", "will": "will", "muss": "muss",
    "darf": "darf", "mag": "mag", "weiß": "weiß", "möchte": "möchte", "fahre": "fährt",
    "laufe": "läuft", "lese": "liest", "esse": "isst", "spreche": "spricht", "sehe": "sieht",
    "nehme": "nimmt", "gebe": "gibt", "trage": "trägt", "schlafe": "schläft",
    "treffe": "trifft", "helfe": "hilft", "halte": "hält", "lasse": "lässt", "werde": "wird",
    "wasche": "wäscht", "falle": "fällt", "fange": "fängt", "backe": "bäckt", "tue": "tut",
    "sammle": "sammelt", "segle": "segelt", "wandere": "wandert", "klettere": "klettert",
}  # fmt: skip
_DE_POSSESSIVE: Final = {
    "mein": "sein", "meine": "seine", "meinen": "seinen", "meinem": "seinem", "meiner": "seiner",
    "meines": "seines", "mich": "sich", "mir": "sich",
}  # fmt: skip
_DE_FIRST: Final = word_set("ich mein meine meinen meinem meiner meines mich mir wir uns unser")
_DE_INVERTED_RE: Final = re.compile(r"^(?P<pre>\S+(?: \S+){0,3}?) (?P<v>\S+) ich (?P<rest>.+)$")
_DE_SUBORDINATE_RE: Final = re.compile(r"^(?:dass|daß) ich (?P<rest>.+) (?P<v>\S+)$", re.I)


def _de_third(word: str) -> str | None:
    low = word.lower()
    if low in _DE_VERBS:
        return _DE_VERBS[low]
    if not re.fullmatch(r"[a-zäöüß]+e", low) or len(low) < 4:
        return None
    if low.endswith(("te", "de")) or re.search(r"[^aeioulrh][mn]e$", low):
        return low + "t"  # "arbeite" → "arbeitet", "rechne" → "rechnet"
    if low.endswith(("se", "ße", "ze", "xe")):
        return low[:-1] + "t"  # "reise" → "reist", "tanze" → "tanzt"
    return low[:-1] + "t"  # "spiele" → "spielt"


def _de(text: str) -> str | None:
    text = text.rstrip(".!")
    words = text.split()
    if not words:
        return None
    sub = _DE_SUBORDINATE_RE.match(text)
    inverted = _DE_INVERTED_RE.match(text)
    if words[0].lower() == "ich" and len(words) > 2 and _de_verb_last(words[1]):
        # "(dass) ich einen Traktor fahre": the verb is last.
        third = _de_third(words[-1])
        rest, pre = words[1:-1], list[str]()
    elif words[0].lower() == "ich" and len(words) > 1:
        third = _de_third(words[1])
        rest, pre = words[2:], list[str]()
    elif sub:
        third = _de_third(sub["v"])
        rest, pre = sub["rest"].split(), []
    elif inverted and inverted["pre"].lower() != "ich":
        third = _de_third(inverted["v"])
        pre, rest = inverted["pre"].split(), inverted["rest"].split()
    elif words[0].lower() in _DE_POSSESSIVE and len(words) > 1:
        third, rest, pre = None, words[1:], []  # "Meine Lieblingsfarbe ist Grün"
        line = " ".join(_DE_POSSESSIVE.get(word.lower(), word) for word in rest)
        return None if any(_bare(w) in _DE_FIRST for w in line.split()) else line
    else:
        return None
    if not third:
        return None
    if pre:
        pre = [pre[0][:1].lower() + pre[0][1:] if pre[0][:1].isupper() and _de_small(pre[0])
               else pre[0], *pre[1:]]  # fmt: skip
    line = " ".join([third, *pre, *(_DE_POSSESSIVE.get(word.lower(), word) for word in rest)])
    return None if any(_bare(word) in _DE_FIRST for word in line.split()) else line


def _de_verb_last(word: str) -> bool:
    """The word after "ich" is no verb: an article, a preposition, an adverb or a noun."""
    low = word.lower()
    if low in _DE_VERBS:
        return False
    return word[:1].isupper() or low in word_set(
        "ein eine einen einem einer der die das den dem in im am an auf mit bei seit gern gerne "
        "sehr jeden jede jedes oft immer nicht kein keine keinen zwei drei vier schon noch"
    )


def _de_small(word: str) -> bool:
    """Words that are lower case inside a German sentence (prepositions, adverbs)."""
    return word.lower() in word_set(
        "im am in an auf jeden jede jedes seit ab um nach vor bei zum zur immer oft manchmal"
    )


_FIRST_VERBS: Final = {
    "it": _IT_VERBS,
    "fr": _FR_VERBS,
    "es": _ES_VERBS,
    "de": _DE_VERBS,
    "pt": _PT_VERBS,
}
_REWRITERS: Final[dict[str, Callable[[str], str | None]]] = {
    "en": _en,
    "it": lambda text: _romance(text, "it"),
    "fr": _fr,
    "es": lambda text: _romance(text, "es"),
    "de": _de,
    "pt": lambda text: _romance(text, "pt"),
}

# Addressed to the assistant, not about the person: "remember that you must …".
_TO_YOU_RE: Final = re.compile(
    r"\b(?:you|your|yours|u|tu|ti|te|tuo|tua|devi|puoi|hai|toi|ton|ta|tes|vous|votre|"
    r"tú|usted|tus|debes|puedes|du|dich|dir|dein|deine|deinen|musst|sollst|você|teu|tua|"
    r"deves|podes)\b",
    re.IGNORECASE,
)

# Words that leave a line without its object: "Loves to", "Likes every day".
_DANGLING: Final = word_set(
    "to a an the of and or but with for in on at from by as than that which who il lo la le i "
    "gli un una uno di da del della con per e o che à au aux de du des et ou avec pour dans sur "
    "qui el los las y con para en que um uma do da no na com em zu mit und oder für von der die "
    "das den dem ein eine einen mein sein seine their his her its"
)
_TIME_ONLY: Final = word_set(
    "every each day days week weeks month months year years night nights morning mornings "
    "evening evenings weekend weekends time times often always sometimes a lot so much too very "
    "ogni giorno giorni settimana sempre spesso molto tanto tous les jours chaque semaine "
    "toujours souvent beaucoup todos los días cada semana siempre mucho jeden tag woche immer "
    "oft sehr viel todos os dias toda semana sempre muito"
)


# An object that names nothing durable: "Loves everywhere", "Likes it", "Loves this".
_EMPTY_OBJECT: Final = word_set(
    "it this that these those them him her you everything anything something nothing "
    "everywhere anywhere somewhere there here all so much lo la li le ça cela ceci tout eso esto "
    "todo es das alles isso isto tudo tutto tutti"
)
# Figures of speech ("Likes the idea"), habits of talk ("Likes to say"), or the thing in front of
# the person ("…this song"): no lasting taste.
_NO_FACT_RE: Final = re.compile(
    r"^(?:loves|likes|enjoys|hates|adores) (?:the (?:thought|idea|feeling|way|fact)\b|to (?:say|"
    r"tell|think|know|mention|admit|ask|add|share|imagine)\b)"
    # "Daughter is Sara's": a possessive with nothing owned.
    r"|\bis [\w-]+'s$",
    re.IGNORECASE,
)


def is_fragment(line: str) -> bool:
    """A line without its object, or whose object names nothing lasting ("Loves to")."""
    words = [_bare(word) for word in line.split()]
    words = [word for word in words if word]
    if len(words) < 2 or words[-1] in _DANGLING:
        return True
    if _NO_FACT_RE.search(line.rstrip(".!")) or all(word in _EMPTY_OBJECT for word in words[1:]):
        return True
    return all(word in _TIME_ONLY or word.isdigit() for word in words[1:])


def _shorten(line: str) -> str:
    """Cut to the filters' bound at a word, never in the middle of one."""
    if len(line) <= MAX_LINE:
        return line
    cut = line[:MAX_LINE].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-")


# What explains a note rather than states it: "…, because …", "… perché …".
_EXPLAINS_RE: Final = re.compile(
    r"\s+(?:because|so that|although|though|perché|poiché|sebbene|parce que|puisque|car|"
    r"bien que|porque|aunque|weil|obwohl|damit|embora)\b.*$",
    re.IGNORECASE,
)


def _cut(text: str) -> str:
    text = _EXPLAINS_RE.sub("", text.strip())
    return text.strip().rstrip(".!?…;:,").strip().strip("\"'«»").strip()


def rewrite(note: str) -> str | None:
    """The note as a short third-person line in its language, or None when unsure."""
    clauses = p.split_clauses(_cut(note.strip()))
    clause = _cut(clauses[0]) if clauses else ""
    clause = re.sub(r"^(?:that|che|que|dass|qu')\s*", "", clause, flags=re.IGNORECASE).strip()
    if not clause or p.is_question(clause) or p.is_hypothetical(clause) or p.is_one_off(clause):
        return None
    if p.is_sarcastic(note):
        return None
    if _TO_YOU_RE.search(clause) or p.unsafe_line(clause):
        return None
    line = next(
        (found for lang in languages_of(clause) if (found := _REWRITERS[lang](clause))), None
    )
    if not line or line.casefold() == clause.casefold():
        return None  # nothing in the first person: not a fact about the person
    line = _shorten(capitalise(" ".join(line.split()).strip(" ,;:-")))
    if len(line) < 3 or is_fragment(line) or p.unsafe_line(line):
        return None
    return line
