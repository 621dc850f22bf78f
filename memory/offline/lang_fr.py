"""French rules of the offline memory extractor: "J'habite à Lyon" → "Habite à Lyon"."""

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

RELS = (r"femme|mari|compagne|compagnon|copine|copain|fiancée?|fille|fils|mère|maman|père|"
        r"papa|frère|s(?:œ|oe)ur|chien|chat|chatte|chiot|chaton|lapin|perroquet|tortue|cheval|"
        r"teckel|caniche")  # fmt: skip
_MY = r"\b(?P<pos>ma|mon|notre)"
_APART = r"(?=\s*(?:[,.;!—-]|$))"
_WORKPLACES: Final = word_set(
    "banque hôpital école université pharmacie usine bibliothèque mairie entreprise"
)


def _at(prep: str) -> str:
    return "à" if prep.lower() == "a" else prep


def _join(prep: str, value: str) -> str:
    """ "de" + "Lyon" → "de Lyon", "d'" + "Italie" → "d'Italie"."""
    return prep + value if prep.endswith("'") else f"{prep} {value}"


def _comes_from(g: Groups) -> str:
    return "Vient " + _join(g["p"], g["v"])


def _works_in(g: Groups) -> str:
    return "Travaille " + _join(g["p"], g["v"])


def _relative(g: Groups) -> str:
    article = "Sa" if g["pos"].lower() == "ma" else "Son"
    if g["pos"].lower() == "notre":
        article = "Sa" if g["r"].lower() in _FEMININE else "Son"
    return f"{article} {g['r'].lower()} s'appelle {g['v']}"


_FEMININE: Final = word_set(
    "femme compagne copine fiancée fille mère maman sœur soeur chatte tortue"
)


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    return has_key(noun) if noun in v.PETS else relation_key(g["r"])


def _count(g: Groups) -> str:
    line = f"A {g['n']} {g['c']}"
    called = names(g, "et")
    if not called:
        return line
    return f"{line} qui s'appelle{'nt' if ' et ' in called else ''} {called}"


def _no_eat(g: Groups) -> str:
    value = g["v"]
    return f"Ne mange pas {'d' + chr(39) if value[:1].lower() in 'aeiouyéh' else 'de '}{value}"


_NAMED = named(
    r"qui s'appellent|qui s'appelle|(?:il|elle|ils|elles) s'appellen?t?|"
    r"nommée?s?|appelée?s?",
    "et",
)
_ELIDED = r"(?:de |d'|du |de la |des )?"

RULES: Final[tuple[Rule, ...]] = (
    rule("fr", r"\bje m'appelle (?P<v>.+)", "S'appelle {v}", "name", rd.name(capped=False)),
    rule("fr", r"\bmon (?:pré)?nom (?:est|c'est) (?P<v>.+)", "S'appelle {v}", "name",
         rd.name(capped=False)),
    rule("fr", r"\bappelle-moi (?P<v>.+)", "S'appelle {v}", "name", rd.name(capped=True)),
    rule("fr", r"\b(?:j'habite|je vis|je réside|j'ai déménagé|je me suis installée?|"
         r"je suis basée?) (?P<p>à|a|en|au|aux) (?P<v>.+)",
         lambda g: f"Habite {_at(g['p'])} {g['v']}", "home", rd.place(lower_ok=True)),
    rule("fr", r"\bje viens (?P<p>de |d'|du )(?P<v>.+)", _comes_from, "origin",
         rd.place(lower_ok=False)),
    rule("fr", r"\bje suis (?:originaire )?(?P<p>de |d')(?P<v>.+)", _comes_from, "origin",
         rd.place(lower_ok=False)),
    rule("fr", r"\bje (?:travaille|bosse) (?P<p>comme|en tant que) (?P<v>.+)", "Travaille {p} {v}",
         "work_as", rd.role),
    rule("fr", r"\bje suis (?P<v>(?:un |une )?[\w-].*)", "Est {v}", "work_as", rd.job),
    rule("fr", r"^(?:en tant que|comme) (?P<v>(?:un |une )?[\w-].*)", "Est {v}", "work_as",
         rd.job),
    rule("fr", r"\bje suis (?P<s>cœliaque|coeliaque|diabétique|intolérante? au lactose|"
         r"asthmatique|épileptique)\b",
         "Est {s}", lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("fr", r"\bje suis à la retraite\b", "Est à la retraite", "work_as"),
    rule("fr", r"\bje suis (?P<s>retraitée?)\b", "Est {s}", "work_as"),
    rule("fr", r"\bje (?:travaille|bosse) (?P<p>chez|pour) (?P<v>.+)", "Travaille {p} {v}",
         "work_at", rd.org),
    # A home said with "now": "je suis à Bordeaux maintenant", "on est à Lyon depuis mars".
    rule("fr", r"\b(?:je suis|on est|nous sommes) (?:maintenant |désormais )?(?P<p>à|a) "
         r"(?P<v>(?-i:[A-Z])[\w'-]+(?: [\w'-]+)?) (?:maintenant|désormais)(?=\s*(?:[,.;!]|$))",
         lambda g: f"Habite à {g['v']}", "home", rd.place(lower_ok=False)),
    rule("fr", r"\b(?:je suis|on est|nous sommes) (?:maintenant|désormais) (?P<p>à|a) (?P<v>.+)",
         lambda g: f"Habite à {g['v']}", "home", rd.place(lower_ok=False)),
    rule("fr", r"\b(?:nous habitons|on habite|nous vivons|on vit|nous avons déménagé|"
         r"on a déménagé|nous nous sommes installés) (?P<p>à|a|en|au|aux) (?P<v>.+)",
         lambda g: f"Habite {_at(g['p'])} {g['v']}", "home", rd.place(lower_ok=False)),
    rule("fr", r"\bje travaille (?P<p>à l'|à la |au |dans une |dans un |dans l')(?P<v>\S+)",
         _works_in, "work_at", rd.one_of(_WORKPLACES, max_words=1)),
    rule("fr", r"\bj'enseigne (?P<v>.+)", "Enseigne {v}", "teaches", rd.phrase(4, cut=True)),
    rule("fr", r"\b(?:j'ai|nous avons|on a) (?P<n>" + v.NUM_FR + r") (?P<c>" + v.COUNT_NOUNS_FR
         + r")\b" + _NAMED, _count, lambda g: has_key(g["c"]), whole=True),
    rule("fr", _MY + r" (?P<r>" + RELS + r") s'appelle (?P<v>.+)", _relative,
         _relative_key, rd.name(capped=False)),
    rule("fr", _MY + r" (?P<r>" + RELS + r")(?: est| c'est)? (?P<v>.+)", _relative,
         _relative_key, rd.name(capped=True)),
    rule("fr", _MY + r" (?P<r>" + RELS + r"), (?P<v>(?-i:[A-Z])[\w'-]+)" + _APART, _relative,
         _relative_key, rd.apposed_name, whole=True),
    rule("fr", r"\bje suis (?P<s>mariée?) (?P<p>à|avec) (?P<v>.+)", "Est {s} {p} {v}",
         "marital", rd.name(capped=True)),
    rule("fr", r"\bje suis (?P<s>mariée?|fiancée?|divorcée?|veuf|veuve|pacsée?)\b", "Est {s}",
         "marital"),
    rule("fr", r"\bje suis (?P<s>végétarien(?:ne)?|végétalien(?:ne)?|vegan[e]?|végane?)\b",
         "Est {s}", "diet"),
    rule("fr", r"\bje ne mange (?:pas|jamais|plus) " + _ELIDED + r"(?P<v>.+)", _no_eat,
         "noeat:{k}", rd.phrase(7), negative=True),
    rule("fr", r"\bje ne suis plus (?P<s>végétarien(?:ne)?|végétalien(?:ne)?|vegan[e]?|végane?)\b",
         "N'est plus {s}", "diet", negative=True),
    rule("fr", r"\bje suis (?:très )?allergique (?P<v>(?:à|au|aux) .+|à l'.+)",
         "Est allergique {v}", "allergy:{k}", rd.phrase(5), sensitive=True),
    rule("fr", r"\bj'ai une allergie (?P<v>(?:à|au|aux) .+|à l'.+)", "A une allergie {v}",
         "allergy:{k}", rd.phrase(5), sensitive=True),
    rule("fr", r"\bj'ai (?:le |la |l'|de l'|du |des )?(?P<v>.+)", "A {v}", "health:{k}",
         vl.condition, sensitive=True),
    rule("fr", r"\bmon anniversaire,? (?:est|c'est|tombe|est fêté) (?:le )?(?P<v>[^,;]+)",
         "Son anniversaire est le {v}", "birthday", vl.date, whole=True),
    rule("fr", r"\bje suis née? le (?P<v>.+)", "Son anniversaire est le {v}", "birthday",
         vl.date),
    rule("fr", r"\bje joue (?P<v>(?:du|de la|de l'|des|au|aux|à la) ?.+)", "Joue {v}",
         "plays:{k}", rd.one_of(v.INSTRUMENTS_AND_GAMES), habitual=True),
    rule("fr", r"\bje (?:fais|pratique) (?P<v>.+)", "Fait {v}", "does:{k}", vl.activity,
         habitual=True),
    rule("fr", r"^(?:moi,? c'est|je suis) (?P<v>[\w'-]+(?: [\w'-]+)?)[.!]?$", "S'appelle {v}",
         "name", rd.lone_name),
    rule("fr", r"\bj'aime (?:bien |beaucoup |vraiment )?(?P<v>.+)", "Aime {v}", "taste:{k}",
         rd.phrase(4)),
    rule("fr", r"\bj'adore (?P<v>.+)", "Adore {v}", "taste:{k}", rd.phrase(4)),
    rule("fr", r"\bje déteste (?P<v>.+)", "Déteste {v}", "taste:{k}", rd.phrase(4)),
    rule("fr", r"\bje préfère (?P<v>.+)", "Préfère {v}", "pref:{k}", rd.phrase(6)),
    rule("fr", r"\bje parle (?P<v>.+)", "Parle {v}", "speaks:{k}", vl.languages, whole=True),
    rule("fr", r"\bj'apprends (?P<v>.+)", "Apprend {v}", "learn:{k}", rd.phrase(3)),
    rule("fr", r"\bje veux (?P<v>(?:apprendre|devenir|étudier) .+)", "Veut {v}", "goal:{k}",
         rd.phrase(5)),
    rule("fr", r"\bmon (?:principal |grand )?(?:objectif|but|rêve) (?:est|c'est) (?:de |d')?"
         r"(?P<v>.+)", "Veut {v}", "goal:{k}", rd.phrase(5)),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^(?:s'appelle|nom :|prénom :)\s", TIER_NAME, "name"),
    kind(r"^(?:habite|vit|réside)\s", TIER_HOME, "home"),
    kind(r"^vient (?:de|d'|du)", TIER_HOME, "origin"),
    kind(r"^(?:travaille (?:comme|en tant que)|est à la retraite|est retraité)", TIER_WORK,
         "work_as"),
    kind(r"^travaille (?:chez|pour|à|au|dans)\b", TIER_WORK, "work_at"),
    kind(r"^enseigne\s", TIER_WORK, "teaches"),
    kind(r"^est (?:marié|fiancé|divorcé|veu|pacsé)", TIER_FAMILY, "marital"),
    kind(r"^(?:est|n'est plus) (?:végé|vegan|végan)", TIER_PREFERENCE, "diet"),
    kind(r"^fait (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:supporte|est supporter|est supportrice|est fan de) ", TIER_PREFERENCE, "team"),
    kind(r"^ne mange pas (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^est allergique (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^(?:son )?anniversaire\b|^(?:est )?née? le\b", TIER_FAMILY, "birthday"),
    kind(r"^(?:aime|adore|déteste) (?P<o>.+)$", TIER_PREFERENCE, "taste:{o}"),
    kind(r"^préfère (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^joue (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^parle (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^(?:apprend|veut)\s", TIER_GOAL, None),
    kind(r"^a (?:un|une|deux|trois|quatre|cinq|\d+) (?P<r>[\w-]+)", TIER_FAMILY, "has"),
    kind(r"^(?:sa|son) (?P<r>\w+) s'appelle ", TIER_FAMILY, "rel"),
    kind(r"^est (?:un |une )?(?P<j>[\w-]+)(?: (?:de|d')\s?\S+)?$", TIER_WORK, "work_as?"),
)  # fmt: skip
