"""Italian rules of the offline memory extractor: "Vivo a Torino" → "Vive a Torino"."""

from __future__ import annotations

from typing import Final

from memory.offline import readers as rd
from memory.offline import values as vl
from memory.offline import vocab as v
from memory.offline.patterns import (
    TIER_FAMILY,
    TIER_GOAL,
    TIER_HOME,
    TIER_NAME,
    TIER_PREFERENCE,
    TIER_WORK,
    word_set,
)
from memory.offline.rules import Groups, Kind, Rule, has_key, kind, named, names, relation_key, rule

RELS = (r"moglie|marito|compagna|compagno|fidanzata|fidanzato|figlia|figlio|madre|mamma|"
        r"padre|papà|fratello|sorella|cane|gatto|gatta|cagnolin[oa]|gattin[oa]|coniglio|"
        r"criceto|pappagallo|tartaruga|cavallo|bassotto|barboncino")  # fmt: skip
_MY = r"\b(?:(?:il|la) )?(?P<pos>mia|mio|nostra|nostro)"
_APART = r"(?=\s*(?:[,.;!—-]|$))"
_WORKPLACES: Final = word_set(
    "banca ospedale scuola università farmacia fabbrica biblioteca ufficio comune negozio "
    "ristorante"
)


def _space(article: str) -> str:
    return article if article.endswith("'") else article + " "


def _relative(g: Groups) -> str:
    article = "La" if g["pos"].lower() in ("mia", "nostra") else "Il"
    return f"{article} {g['r'].lower()} si chiama {g['v']}"


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    return has_key(noun) if noun in v.PETS else relation_key(g["r"])


def _count(g: Groups) -> str:
    line = f"Ha {_space(g['n'])}{g['c']}"
    called = names(g, "e")
    return f"{line} di nome {called}" if called else line


def _workplace(text: str, strict: bool) -> str | None:
    return rd.org(text, strict) or rd.one_of(_WORKPLACES, max_words=1)(text, strict)


_NAMED = named(r"che si chiama(?:no)?|si chiama(?:no)?|di nome|chiamat[oaie]", "e")

RULES: Final[tuple[Rule, ...]] = (
    rule("it", r"\bmi chiamo (?P<v>.+)", "Si chiama {v}", "name", rd.name(capped=False)),
    rule("it", r"\bil mio nome (?:è|e'|é) (?P<v>.+)", "Si chiama {v}", "name",
         rd.name(capped=False)),
    rule("it", r"\bchiamami (?P<v>.+)", "Si chiama {v}", "name", rd.name(capped=True)),
    rule("it", r"\b(?:vivo|abito|risiedo) (?P<p>a|ad|in) (?P<v>.+)", "Vive {p} {v}", "home",
         rd.place(lower_ok=True)),
    rule("it", r"\bmi sono (?:appena )?trasferit[oa] (?P<p>a|ad|in) (?P<v>.+)", "Vive {p} {v}",
         "home", rd.place(lower_ok=False)),
    rule("it", r"\b(?:viviamo|abitiamo|ci siamo (?:appena )?trasferiti) (?P<p>a|ad|in) (?P<v>.+)",
         "Vive {p} {v}", "home", rd.place(lower_ok=False)),
    rule("it", r"\bsono (?:originari[oa] )?di (?P<v>.+)", "È di {v}", "origin",
         rd.place(lower_ok=False)),
    rule("it", r"\bvengo da (?P<v>.+)", "È di {v}", "origin", rd.place(lower_ok=False)),
    rule("it", r"\blavoro come (?P<v>.+)", "Lavora come {v}", "work_as", rd.role),
    rule("it", r"\bfaccio (?P<a>il|la|lo|l') ?(?P<v>\S.*)",
         lambda g: f"Fa {_space(g['a'])}{g['v']}", "work_as", rd.job),
    rule("it", r"\bsono (?P<v>(?:un |una |uno |un')?[\w'].*)", "È {v}", "work_as", rd.job),
    rule("it", r"^(?:da|come|in quanto) (?P<v>(?:un |una |uno |un')?[\w'].*)", "È {v}",
         "work_as", rd.job),
    rule("it", r"\bsono (?P<s>celiac[oa]|diabetic[oa]|intollerante al lattosio|asmatic[oa]|"
         r"epilettic[oa])\b", "È {s}",
         lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("it", r"\bsono in pensione\b", "È in pensione", "work_as"),
    rule("it", r"\bsono (?P<s>pensionat[oa])\b", "È {s}", "work_as"),
    rule("it", r"\blavoro (?P<p>presso|per|da|alla|all'|al|nella|nel|in) ?(?P<v>.+)",
         lambda g: f"Lavora {_space(g['p'])}{g['v']}", "work_at", _workplace),
    rule("it", r"\binsegno (?P<v>.+)", "Insegna {v}", "teaches", rd.phrase(4, cut=True)),
    rule("it", r"\b(?:ho|abbiamo) (?P<n>" + v.NUM_IT + r") ?(?P<c>" + v.COUNT_NOUNS_IT + r")\b"
         + _NAMED, _count, lambda g: has_key(g["c"]), whole=True),
    rule("it", _MY + r" (?P<r>" + RELS + r") si chiama (?P<v>.+)", _relative,
         _relative_key, rd.name(capped=False)),
    rule("it", _MY + r" (?P<r>" + RELS + r")(?: è| e')? (?P<v>.+)", _relative,
         _relative_key, rd.name(capped=True)),
    rule("it", _MY + r" (?P<r>" + RELS + r"), (?P<v>(?-i:[A-Z])[\w'-]+)" + _APART, _relative,
         _relative_key, rd.apposed_name, whole=True),
    rule("it", r"\bsono (?P<s>sposat[oa]) con (?P<v>.+)", "È {s} con {v}", "marital",
         rd.name(capped=True)),
    rule("it", r"\bsono (?P<s>sposat[oa]|fidanzat[oa]|divorziat[oa]|vedov[oa])\b", "È {s}",
         "marital"),
    rule("it", r"\bsono (?:un |una )?(?P<s>vegetarian[oa]|vegan[oa]?|pescetarian[oa])\b",
         "È {s}", "diet"),
    rule("it", r"\bnon mangio (?:mai )?(?P<v>.+)", "Non mangia {v}", "noeat:{k}", rd.phrase(7),
         negative=True),
    rule("it", r"\bnon sono più (?P<s>vegetarian[oa]|vegan[oa]?|pescetarian[oa])\b",
         "Non è più {s}", "diet", negative=True),
    rule("it", r"\bsono (?P<s>allergic[oa]) (?P<v>(?:a|al|alla|alle|ai|agli|allo) .+|all'.+)",
         "È {s} {v}", "allergy:{k}", rd.phrase(5), sensitive=True),
    rule("it", r"\bho (?:un'|una )?allergia (?P<v>(?:a|al|alla|alle|ai|agli|all') ?.+)",
         "Ha un'allergia {v}", "allergy:{k}", rd.phrase(5), sensitive=True),
    rule("it", r"\b(?:ho|soffro di) (?P<v>.+)", "Ha {v}", "health:{k}",
         vl.condition, sensitive=True),
    rule("it", r"\bil mio compleanno (?:è|e') (?:il )?(?P<v>.+)", "Il compleanno è il {v}",
         "birthday", vl.date),
    rule("it", r"^il (?P<v>\d{1,2} \w+) (?:è|e') il mio compleanno\b", "Il compleanno è il {v}",
         "birthday", vl.date),
    rule("it", r"\bsono nat[oa] il (?P<v>.+)", "Il compleanno è il {v}", "birthday", vl.date),
    rule("it", r"\b(?:compio|festeggio) (?:gli anni|il compleanno) (?:il )?(?P<v>.+)",
         "Il compleanno è il {v}", "birthday", vl.date),
    rule("it", r"\bsuono (?P<v>.+)", "Suona {v}", "plays:{k}", rd.one_of(v.INSTRUMENTS_AND_GAMES),
         habitual=True),
    rule("it", r"\bgioco (?P<v>(?:a|al|allo|alla|agli) .+)", "Gioca {v}", "plays:{k}",
         rd.one_of(v.INSTRUMENTS_AND_GAMES), habitual=True),
    rule("it", r"\b(?:faccio|pratico) (?P<v>.+)", "Fa {v}", "does:{k}", vl.activity,
         habitual=True),
    rule("it", r"^(?:io )?sono (?P<v>[\w'-]+(?: [\w'-]+)?)[.!]?$", "Si chiama {v}", "name",
         rd.lone_name),
    rule("it", r"\bmi (?:piace|piacciono) (?:molto |tanto )?(?P<v>.+)", "Apprezza {v}",
         "taste:{k}", rd.phrase(4)),
    rule("it", r"\bamo (?P<v>.+)", "Ama {v}", "taste:{k}", rd.phrase(4)),
    rule("it", r"\badoro (?P<v>.+)", "Adora {v}", "taste:{k}", rd.phrase(4)),
    rule("it", r"\bodio (?P<v>.+)", "Odia {v}", "taste:{k}", rd.phrase(4)),
    rule("it", r"\bpreferisco (?P<v>.+)", "Preferisce {v}", "pref:{k}", rd.phrase(6)),
    rule("it", r"\bparlo (?P<v>.+)", "Parla {v}", "speaks:{k}", vl.languages, whole=True),
    rule("it", r"\bsto imparando (?P<v>.+)", "Sta imparando {v}", "learn:{k}", rd.phrase(3)),
    rule("it", r"\bvoglio (?P<v>(?:imparare|diventare|studiare) .+)", "Vuole {v}", "goal:{k}",
         rd.phrase(5)),
    rule("it", r"\b(?:il )?mio (?:obiettivo|sogno) (?:è|e') (?:di |quello di )?(?P<v>.+)",
         "Vuole {v}", "goal:{k}", rd.phrase(5)),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^(?:si chiama|nome:)\s", TIER_NAME, "name"),
    kind(r"^vive (?:a|ad|in)\s", TIER_HOME, "home"),
    kind(r"^è di\s", TIER_HOME, "origin"),
    kind(r"^(?:lavora come|fa (?:il|la|lo|l')|è in pensione|è pensionat)", TIER_WORK, "work_as"),
    kind(r"^lavora (?:presso|per|da|alla|al|all'|nella|nel|in)\b", TIER_WORK, "work_at"),
    kind(r"^insegna\s", TIER_WORK, "teaches"),
    kind(r"^è (?:sposat|fidanzat|divorziat|vedov)", TIER_FAMILY, "marital"),
    kind(r"^(?:non )?è (?:più )?(?:vegetarian|vegan|pescetarian)", TIER_PREFERENCE, "diet"),
    kind(r"^fa (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:tifa|è tifos[oa]) ", TIER_PREFERENCE, "team"),
    kind(r"^non mangia (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^è allergic[oa] (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^(?:il )?compleanno\b|^è nat[oa] il\b|^compie gli anni\b", TIER_FAMILY, "birthday"),
    kind(r"^(?:apprezza|ama|adora|odia) (?P<o>.+)$", TIER_PREFERENCE, "taste:{o}"),
    kind(r"^preferisce (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^(?:suona|gioca) (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^parla (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^(?:sta imparando|vuole)\s", TIER_GOAL, None),
    kind(r"^ha (?:un|una|uno|un'|due|tre|quattro|cinque|\d+) ?(?P<r>[\w]+)", TIER_FAMILY, "has"),
    kind(r"^(?:la|il) (?P<r>\w+) si chiama ", TIER_FAMILY, "rel"),
    kind(r"^è (?:un |una |uno |un')?(?P<j>[\w']+)(?: (?:di|d'|dell')\s?\S+)?$", TIER_WORK,
         "work_as?"),
)  # fmt: skip
