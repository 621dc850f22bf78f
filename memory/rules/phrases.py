"""The one table of the words people use to ask the assistant to remember or to forget.

Pure module, read by `memory.rules.triggers`, `memory.offline.extractor` and `memory.offline.asks`,
each adding only its own glue. Fragments are lowercase with accents; the trigger, matching folded
text, strips them with `plain`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

# The stdlib's regex parser spells fragments out as words (private, stable on 3.11).
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any, Final

Kind = Mapping[str, tuple[str, ...]]

LANGUAGES: Final = ("en", "it", "fr", "es", "de", "pt")

# English infinitives are its imperatives, so these serve two kinds; written once.
_EN_FORGET: Final = ("forget", "unlearn", "stop remembering")
_EN_STORE: Final = ("save", "store")
_EN_DELETE: Final = ("delete", "remove", "erase")

# Imperatives that ask to remember wherever they stand in a sentence ("remember I'm vegan").
REMEMBER: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "remember",
        "memori[sz]e",
        "don'?t forget",
        "do not forget",
        "never forget",
        "keep (?:this |that |it )?in mind",
        "commit (?:this |that |it )?to memory",
    ),
    "it": (
        "ricorda(?:ti|melo)?",
        "ricordare",
        "memorizza",
        "memorizzare",
        "non (?:dimenticare|dimenticarlo|dimenticarti|scordare|scordarlo|scordarti)",
        "tieni (?:a mente|presente)",
        "tenere a mente",
    ),
    "fr": (
        "retiens",
        "retenez",
        "souviens[- ]toi",
        "souvenez-vous",
        "rappelle-toi",
        "rappelez-vous",
        "n'oublie(?:z)? pas",
        "mémorise[sz]?",
        "garde[sz]? (?:ça |cela |le |la )?en mémoire",
        "garde[sz]? (?:ça |cela |le |la )?(?:à|en) (?:l'esprit|tête)",
    ),
    "es": (
        "recuerda",
        "recu[eé]rdame",
        "acu[eé]rdate(?: de)?",
        "no (?:te )?olvides(?: de)?",
        "memoriza",
        "ten en cuenta",
    ),
    "de": (
        "merk(?:e|'s|s)? (?:dir|es dir)",
        "merken sie sich",
        # German may put the object between the verb and "nicht": "vergiss das bitte nicht".
        r"vergiss (?:\S+ ){0,3}nicht",
        "nicht vergessen",
        r"vergessen sie (?:\S+ ){0,3}nicht",
        "speicher(?:e|n)? (?:dir|bitte)",
        r"behalte? (?:\S+ ){0,3}im (?:kopf|gedächtnis|hinterkopf)",
        "denke? daran",
    ),
    "pt": (
        "lembre-se(?: de)?",
        "lembra-te(?: de)?",
        "lembre",
        "lembra",
        "n[ãa]o (?:se |te )?esque[çc][ae]s?(?: de)?",
        "memorize",
        "memoriza",
    ),
}

# Remember requests that carry their object ("merk dir das"): a request even before "when".
REMEMBER_IT: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "it": (
        "ricorda(?:lo|la|li|le|telo|tela)",
        "memorizza(?:lo|la|li|le)",
        "tienil[oa] a mente",
        "segnatelo",
        "annotalo",
        "prendine nota",
    ),
    "fr": (
        "retiens(?:-le| ça| cela| bien)",
        "souviens-t'en",
        "note[sz]?-le",
        "note ça",
        "note bien",
        "prends-en note",
    ),
    "es": (
        "recu[eé]rda(?:lo|la|los|las)",
        "memor[ií]za(?:lo|la)",
        "tenlo en cuenta",
        "ap[uú]ntalo",
        "an[oó]talo",
        "apunta eso",
    ),
    "de": (
        "merk dir (?:das|es)",
        "speicher(?:e|n)? (?:das|dies|es|folgendes|mein|meine|meinen|in)",
        "notier (?:dir )?das",
        "schreib (?:dir )?das auf",
    ),
    "pt": (
        "lembr(?:e-se|a-te|a) disso",
        "guard[ae] (?:isso|aí)",
        "anot[ae] (?:isso|aí)",
    ),
}

# Asking to note something down: a request wherever it stands ("make a note", "prendi nota").
NOTE: Final[dict[str, tuple[str, ...]]] = {
    "en": ("make a note", "take note"),
    "it": ("prendi nota", "annota(?:ti)?", "segnati"),
    "fr": ("prends note",),
    "es": ("toma nota(?: de)?", "apunta", "ap[uú]ntate"),
    "de": ("notier(?:e)? dir", "schreib dir auf"),
    "pt": ("anot[ae]", "tome nota"),
}

# "Note" is also a noun: a request only at a sentence start ("Note: …") or before "that …".
NOTE_VERB: Final[dict[str, tuple[str, ...]]] = {
    "en": ("note",),
    "fr": ("note[sz]?",),
}

# Storing verbs, a remember request only when they name the memory: "save this in your memory".
SAVE: Final[dict[str, tuple[str, ...]]] = {
    "en": (*_EN_STORE, "keep", "put", "add", "write"),
    "it": ("salva(?:lo|la)?",),
    "fr": ("enregistre[sz]?",),
    "es": ("guarda(?:lo|la)?",),
    "pt": ("guarde(?:-o)?", "grave"),
}

# The memory, as the place something is kept: "in your memory", "nella tua memoria".
IN_MEMORY: Final[dict[str, tuple[str, ...]]] = {
    "en": ("(?:in|to|into) (?:your |the )?memory",),
    "it": ("(?:in|nella) (?:tua )?memoria",),
    "fr": ("(?:dans|en) (?:ta |votre )?mémoire",),
    "es": ("en (?:tu |la )?memoria",),
    "de": ("in (?:deinem |dem )?(?:gedächtnis|speicher)", "im (?:gedächtnis|speicher)"),
    "pt": ("na (?:sua |tua )?memória",),
}

# Infinitives after a polite question ("could you save …"); the readers accept imperatives too.
REMEMBER_INF: Final[dict[str, tuple[str, ...]]] = {
    "en": _EN_STORE,
    "it": ("ricordarti", "salvare"),
    "fr": ("te souvenir", "vous souvenir", "retenir", "mémoriser", "garder", "noter"),
    "es": ("recordar", "memorizar", "guardar", "apuntar"),
    "de": ("merken", "speichern", "notieren"),
    "pt": ("(?:se )?lembrar", "memorizar", "guardar", "anotar"),
}

# Imperatives that ask to forget ("forget my address", "dimenticalo", "vergiss meinen Wohnort").
FORGET: Final[dict[str, tuple[str, ...]]] = {
    "en": _EN_FORGET,
    "it": ("dimentica(?:lo|la|li|le|ti)?", "scorda(?:ti|lo|la|telo)?"),
    "fr": ("oublie[sz]?",),
    "es": ("olvida(?:lo|la|los|las)?", "olv[ií]date"),
    "de": ("vergiss", "vergessen sie"),
    "pt": ("esque[çc]a", "esquece"),
}

# Infinitives of forgetting, after "could you", "puoi", "tu peux"…
FORGET_INF: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "it": ("dimenticare", "scordare"),
    "fr": ("oublier",),
    "es": ("olvidar",),
    "de": ("vergessen",),
    "pt": ("esquecer",),
}

# Erasing is forgetting only when it names the memory or a fact of the person, never alone
# ("remove my name from the draft").
ERASE: Final[dict[str, tuple[str, ...]]] = {
    "en": (*_EN_DELETE, "wipe", "clear", "drop", "scratch", "purge", "reset"),
    "it": ("cancella", "rimuovi", "elimina", "togli"),
    "fr": ("efface[sz]?", "supprime[sz]?", "retire[sz]?", "enlève"),
    "es": ("b[oó]rra(?:lo|la)?", "elimina(?:lo|la)?", "qu[ií]ta(?:lo|la)?"),
    "de": ("lösch(?:e)?", "entferne", "streich(?:e)?"),
    "pt": ("apague", "apaga", "remova", "remove"),
}

# Infinitives of erasing, after a polite question ("could you delete …?").
ERASE_INF: Final[dict[str, tuple[str, ...]]] = {
    "en": _EN_DELETE,
    "it": ("cancellare",),
    "fr": ("effacer", "supprimer"),
    "es": ("borrar",),
    "pt": ("apagar",),
}

# The memory, as the place something is taken out of: "from your memory".
FROM_MEMORY: Final[dict[str, tuple[str, ...]]] = {
    "en": ("from (?:your |the )?memory",),
    "it": ("dalla (?:tua )?memoria",),
    "fr": ("de (?:ta |votre )?mémoire",),
    "es": ("de (?:tu |la )?memoria",),
    "de": ("(?:aus|von) (?:deinem |deiner |dem |der )?(?:gedächtnis|speicher)",),
    "pt": ("da (?:sua |tua )?memória",),
}

# The whole list, as what a forget request names ("forget everything") or the memory erased
# ("clear your memory").
YOUR_MEMORY: Final[dict[str, tuple[str, ...]]] = {
    "en": ("(?:your|the|my) memory", "(?:your|the) memories", "what you remember"),
    "it": ("(?:la )?(?:tua )?memoria", "(?:i )?(?:tuoi )?ricordi"),
    "fr": ("(?:ta|votre) mémoire", "la mémoire"),
    "es": ("tu memoria", "la memoria"),
    "de": ("dein(?:en)? (?:gedächtnis|speicher)", "das gedächtnis"),
    "pt": ("(?:a )?(?:sua |tua )memória", "a memória"),
}
# All the assistant knows of the person: forgetting it is a wipe the person asked for.
WHAT_YOU_KNOW: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "(?:everything|all|anything|whatever) (?:that )?you (?:know|remember|have|saved|stored)"
        " (?:about|on|of) me",
        "what you know about me",
    ),
    "it": ("tutto (?:quello |ciò )?(?:che )?(?:sai|ricordi) (?:su di me|di me)",),
    "fr": ("tout ce que (?:tu sais|vous savez|tu as retenu) (?:sur|de) moi",),
    "es": ("todo lo que (?:sabes|recuerdas) (?:de|sobre) m[ií]",),
    "de": ("alles,? was du (?:über mich|von mir) (?:wei(?:ß|ss)t|gespeichert hast)",),
    "pt": ("tudo (?:o )?que (?:você sabe|sabes|lembras|você lembra) (?:sobre|de) mim",),
}
EVERYTHING: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "everything",
        "all",
        "it all",
        "all of it",
        "all about me",
        "everything about me",
        "everything you know",
        "me",
    ),
    "it": ("tutto",),
    "fr": ("tout",),
    "es": ("todo",),
    "de": ("alles",),
    "pt": ("tudo",),
}

# A fact of the person an erase verb may name alone: "borra mi cumpleaños", "delete my address".
MY: Final[dict[str, tuple[str, ...]]] = {
    "en": ("my",),
    "it": ("il mio", "la mia", "mio", "mia"),
    "fr": ("mon", "ma"),
    "es": ("mi",),
    "de": ("mein", "meinen", "meine"),
    "pt": ("o meu", "a minha", "meu", "minha"),
}
FACT_NOUNS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("name", "address", "birthday", "job"),
    "it": ("nome", "indirizzo", "compleanno", "lavoro"),
    "fr": ("nom", "adresse", "anniversaire", "travail"),
    "es": ("nombre", "dirección", "cumpleaños", "trabajo"),
    "de": ("namen", "geburtstag", "beruf"),
    "pt": ("nome", "endereço", "aniversário", "trabalho"),
}

# "That thing about …", naming a short topic to erase: "apaga aquilo do francês".
THAT_THING: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "that(?: thing| bit| part| stuff)?",
        "the (?:thing|bit|part)",
        "what i (?:told you|said)",
    ),
    "it": ("quella cosa", "quello", "quella parte", "la parte", "quello che ti ho detto"),
    "fr": ("ce truc", "cette histoire", "ça", "la partie", "ce que je (?:t'ai|vous ai) dit"),
    "es": ("eso", "esa cosa", "lo", "la parte", "lo que te dije"),
    "de": ("das", "die sache", "den teil", "was ich dir (?:gesagt habe|erzählt habe)"),
    "pt": ("aquilo", "aquela coisa", "aquela parte", "isso", "o que (?:eu )?te disse"),
}
# Stems of the remember and forget verbs: what typo repair may respell (`memory.rules.spelling`),
# never a phrase's function words.
REQUEST_VERB_STEMS: Final = (
    "remember", "forget", "memori[sz]e", "erase",
    "ricord", "dimentic", "scord", "memorizz", "cancella",
    "oubli", "souvien", "rappelle", "retien", "m[ée]moris", "effac",
    "recuerd", "acu[eé]rdate", "olvid", "borr",
    "vergiss", "vergessen", "merk", "l[öo]sch",
    "lembr", "esque[cç]", "apag",
)  # fmt: skip

# A subject said before, after a striking-out verb ("scratch the band thing"). A request only
# when the subject ends the clause: "remove the logging thing from my script" edits a text.
ERASE_THING: Final[dict[str, tuple[str, ...]]] = {
    "en": ("scratch",),
    "it": ("cancella", "togli", "elimina"),
    "fr": ("efface", "supprime", "oublie"),
    "es": ("borra", "quita", "elimina"),
    "de": ("lösch", "lösche", "streich", "streiche"),
    "pt": ("apaga", "apague", "tira"),
}
THING_OF: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "the (?!(?:whole|entire|same|other|last|first|next)\\b)(?:[\\w'-]+ ){1,3}?(?:thing|stuff)",
    ),
    "it": ("(?:la|quella) (?:cosa|storia) (?:di|del|della|dello|su|sul|sulla)",),
    "fr": ("(?:le|ce) truc (?:de|du|des|sur|avec)", "(?:l'|cette )histoire (?:de|du|avec)"),
    "es": ("(?:lo|eso|la cosa|el tema) de",),
    "de": ("(?:die sache|das thema|das) mit",),
    "pt": ("(?:a coisa|o assunto) d[oae]s?",),
}

ABOUT: Final[dict[str, tuple[str, ...]]] = {
    "en": ("about", "on", "of"),
    "it": ("sul", "sulla", "sui", "su", "di", "del", "della"),
    "fr": ("sur", "du", "de", "de la", "des"),
    "es": ("de", "sobre"),
    "de": ("von", "über", "mit", "mit dem", "mit der"),
    "pt": ("do", "da", "dos", "das", "de", "sobre"),
}

# What was just said, named after a bare request: "remember that", "ricordalo", "merk dir das".
IT: Final[dict[str, tuple[str, ...]]] = {
    "en": ("that", "this", "it"),
    "it": ("lo", "la"),
    "fr": ("le", "le bien"),
    "es": ("esto", "eso"),
    "de": ("das",),
    "pt": ("isso",),
}

# Politeness around a request, before or after the verb ("please remember", "vergiss bitte").
PLEASE: Final[dict[str, tuple[str, ...]]] = {
    "en": ("please", "pls", "plz", "kindly"),
    "it": ("per favore", "ti prego"),
    "fr": ("s'il te plaît", "s'il vous plaît", "stp", "svp"),
    "es": ("por favor", "porfa"),
    "de": ("bitte", "doch"),
    "pt": ("por favor",),
}

# Asking the assistant as a question: "could you remember …?", "puoi dimenticare …?".
ASK: Final[dict[str, tuple[str, ...]]] = {
    "en": ("(?:could|would|will|can) (?:you|u|ya)",),
    "it": ("puoi", "potresti"),
    "fr": (
        "(?:peux|pourrais)-tu",
        "(?:pouvez|pourriez)-vous",
        "tu (?:peux|pourrais)",
        "vous (?:pouvez|pourriez)",
    ),
    "es": ("puedes", "podrías"),
    "de": ("(?:kannst|könntest) du",),
    "pt": ("pode", "podes", "poderia", "consegue", "você pode"),
}
# German puts the infinitive last, after other words ("kannst du dir bitte … merken?").
VERB_LAST: Final = frozenset({"de"})

# Words that may open a request without changing it: "ok, remember …", "e ricordati …".
LEAD_INS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("ok", "okay", "and", "also", "hey"),
    "it": ("e", "anche"),
    "fr": ("et",),
    "es": ("y", "también"),
    "de": ("und", "auch"),
    "pt": ("e", "também"),
}

# Right before the verb these make a request even after "I" or "you" ("I want you to remember").
WANT_YOU_TO: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "(?:want|need|like|love|asking|ask|tell|told) you to",
        "make sure (?:to|you)",
        "be sure to",
        "try to",
        "you (?:should|must|need to|have to|gotta)",
    ),
    "it": ("(?:voglio|vorrei|devi|dovresti) che tu",),
    "fr": ("je veux que tu",),
    "es": ("quiero que",),
    "de": ("ich möchte,? dass du",),
    "pt": ("quero que", "você (?:deve|precisa)"),
}

# A request with a tag question is still a request: "remember I'm vegan, ok?".
TAG_QUESTIONS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("ok", "okay", "alright", "all right", "right", "got it", "understood"),
    "it": ("va bene", "capito", "intesi"),
    "fr": ("d'accord", "compris"),
    "es": ("vale", "entendido", "de acuerdo"),
    "de": ("verstanden", "alles klar"),
    "pt": ("tá bom", "tudo bem", "certo", "sim"),
}

# Dismissing a topic, not asking to drop a memory: "forget it, let's move on".
DISMISSIVE: Final[dict[str, tuple[str, ...]]] = {
    "en": ("forget (?:it|about it)",),
    "it": ("lascia perdere",),
    "fr": ("oublie ça", "laisse tomber"),
    "es": ("olvídalo",),
    "de": ("vergiss es",),
    "pt": ("esquece", "deixa pra lá"),
}
# ...also after an interjection of its own ("never mind, forget it", "nah, forget it").
DISMISSIVE_LEAD: Final[dict[str, tuple[str, ...]]] = {
    "en": ("oh", "never mind,?", "nah,?"),
}

# Asking what is remembered: a recall verb, then the person ("what do you know about me?").
RECALL: Final[dict[str, tuple[str, ...]]] = {
    "en": ("remember", "know", "recall", "saved", "stored"),
    "it": ("ricordi", "sai", "conosci", "memorizzato", "salvato"),
    "fr": (
        "souviens",
        "souvenez",
        "sais",
        "savez",
        "connais",
        "connaissez",
        "retiens",
        "retenez",
        "retenu",
        "mémorisé",
    ),
    "es": ("recuerdas", "sabes", "conoces", "guardado", "guardaste", "memorizado"),
    "de": ("weißt", "weisst", "kennst", "gespeichert", "gemerkt", "erinnerst"),
    "pt": ("lembra", "lembras", "sabe", "sabes", "conhece", "guardou", "guardado", "memorizou"),
}
ABOUT_ME: Final[dict[str, tuple[str, ...]]] = {
    "en": ("(?:about|of|on) me",),
    "it": ("di me", "su di me", "riguardo a me"),
    "fr": ("moi", "mon sujet", "me concernant"),
    "es": ("de mí", "sobre mí"),
    "de": ("über mich", "von mir", "an mich"),
    "pt": ("de mim", "sobre mim", "a meu respeito"),
}
# ...or a question about the memory itself.
RECALL_ASKS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("what(?:'s| is) in your memory",),
}


def fragments(*kinds: Kind, langs: Iterable[str] = LANGUAGES) -> list[str]:
    """The fragments of the kinds in the languages, in table order, each once."""
    wanted = tuple(langs)
    found = [part for lang in wanted for kind in kinds for part in kind.get(lang, ())]
    return list(dict.fromkeys(found))


def plain(fragment: str) -> str:
    """A fragment without accents, for matching ``fold``ed text."""
    decomposed = unicodedata.normalize("NFKD", fragment)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def either(*kinds: Kind, langs: Iterable[str] = LANGUAGES, folded: bool = False) -> str:
    """One non-capturing alternation of the kinds' fragments; ``folded`` for ``fold``ed text."""
    parts = fragments(*kinds, langs=langs)
    if folded:
        parts = list(dict.fromkeys(plain(part) for part in parts))
    return "(?:" + "|".join(parts) + ")"


# --- the words a fragment spells, for vocabularies that are word sets ---------------------------
_MAX_FORMS: Final = 256


def _forms(items: Any) -> list[str]:
    forms = [""]
    for op, arg in items:
        if op is sre.LITERAL:
            options = [chr(arg)]
        elif op is sre.IN:
            options = [chr(value) for kind, value in arg if kind is sre.LITERAL] or [" "]
        elif op is sre.SUBPATTERN:
            options = _forms(arg[-1])
        elif op is sre.BRANCH:
            options = [form for branch in arg[1] for form in _forms(branch)]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, high, inner = arg
            # An optional part is spelled with and without; a window of any words is a gap.
            options = ([""] if low == 0 else []) + (_forms(inner) if high == 1 else [" "])
        else:  # \b, \s, \S, lookarounds: a word boundary at most
            options = [" "]
        forms = [form + option for form in forms for option in options][:_MAX_FORMS]
    return forms


def words(*kinds: Kind) -> frozenset[str]:
    """Every word the kinds' fragments can spell, lowercase, accents kept ("dimenticalo")."""
    found: set[str] = set()
    for fragment in fragments(*kinds):
        for form in _forms(sre_parse.parse(fragment)):
            found.update(re.findall(r"[^\W\d_]+", form.casefold()))
    return frozenset(found)
