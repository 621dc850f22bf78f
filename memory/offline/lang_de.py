"""German rules of the offline memory extractor: "Ich wohne in Berlin" → "Wohnt in Berlin"."""

from __future__ import annotations

import re
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

RELS = (r"frau|ehefrau|mann|ehemann|freundin|freund|partnerin|partner|tochter|sohn|mutter|"
        r"mama|vater|papa|bruder|schwester|hund|katze|kater|welpe|kätzchen|kaninchen|hamster|"
        r"papagei|schildkröte|wellensittich|pferd|dackel|pudel|mops")  # fmt: skip
_MY = r"\b(?:mein|meine|unser|unsere)"
# "Mann" and "Frau" alone could be anyone; the line says whose.
_NOUNS: Final = {"frau": "Ehefrau", "mann": "Ehemann", "mama": "Mutter", "papa": "Vater"}
# First-person verbs that end a subordinate clause ("dass ich in Berlin wohne").
_FINAL_VERBS: Final = word_set(
    "wohne lebe arbeite heiße heisse bin habe spiele spreche esse mag liebe komme unterrichte "
    "hasse bevorzuge lerne ist mache gehe treibe"
)
_SUBORDINATE_RE: Final = re.compile(
    r"^(?:dass |daß )?(?P<s>ich|mein \w+|meine \w+) (?P<rest>.+) (?P<verb>\w+)$", re.IGNORECASE
)
# Third person of "ich <verb> gern" ("ich wandere gern" → "Wandert gern").
_IRREGULAR: Final = {
    "lese": "liest", "sehe": "sieht", "fahre": "fährt", "laufe": "läuft", "esse": "isst",
    "spreche": "spricht", "schlafe": "schläft", "backe": "backt", "trage": "trägt",
}  # fmt: skip


# A main clause opened by something else than the subject: "In meiner Freizeit spiele ich
# Schach", "Seit 2019 wohne ich in Berlin".
_INVERTED_RE: Final = re.compile(
    r"^(?P<front>(?:[\w'-]+ ){1,4}?)(?P<verb>\w+e) ich (?P<rest>.+)$", re.IGNORECASE
)


def reorder(clause: str) -> str | None:
    """ "dass ich in Berlin wohne" → "ich wohne in Berlin", "Am Wochenende spiele ich Tennis" →
    "ich spiele Tennis": main-clause order for the rules."""
    match = _SUBORDINATE_RE.match(clause.rstrip(".!"))
    if match and match["verb"].lower() in _FINAL_VERBS:
        return f"{match['s']} {match['verb']} {match['rest']}"
    inverted = _INVERTED_RE.match(clause.rstrip(".!"))
    if inverted and inverted["verb"].lower() in _FINAL_VERBS:
        return f"ich {inverted['verb']} {inverted['rest']}"
    return None


def _relative(g: Groups) -> str:
    noun = _NOUNS.get(g["r"].lower(), g["r"].capitalize())
    return f"{noun} heißt {g['v']}"


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    if noun in v.PETS:
        return has_key(noun)
    return relation_key(_NOUNS.get(g["r"].lower(), g["r"]).lower())


def _apposed(text: str, strict: bool) -> str | None:
    """ "Anja" in "Meine Frau Anja und ich…": German writes every noun with a capital, so the
    name must be followed by a lower-case word or the end of the phrase."""
    words = text.split()
    if len(words) > 1 and words[0] == words[0].rstrip(",.;!") and words[1][:1].isupper():
        return None
    return rd.apposed_name(words[0] if words else "", strict)


def _count(g: Groups) -> str:
    line = f"Hat {g['n']} {g['c']}"
    called = names(g, "und")
    return f"{line} namens {called}" if called else line


def _gern(g: Groups) -> str | None:
    verb = g["verb"].lower()
    if verb == "gehe":  # "ich gehe gern wandern": what one goes to do is the fact
        return None
    if verb in _IRREGULAR:
        third = _IRREGULAR[verb]
    elif verb.endswith("e") and len(verb) > 3:
        stem = verb[:-1]
        third = stem + ("et" if stem.endswith(("t", "d")) else "t")
    else:
        return None
    return f"{third.capitalize()} gern"


# What one "goes" to do ("am Wochenende gehe ich segeln").
_GO = (
    r"segeln|wandern|klettern|schwimmen|joggen|laufen|reiten|tanzen|angeln|surfen|bouldern|"
    r"tauchen|radfahren|skifahren|snowboarden|bergsteigen|kegeln|bowlen|rudern|paddeln"
)
_NAMED = named(r"namens|mit namen|der heißt|die heißt", "und")
_I = r"\b(?:ich )?"
_NOW = r"arbeite (?:jetzt |nun |inzwischen )?"

RULES: Final[tuple[Rule, ...]] = (
    rule("de", r"\bich heiße (?P<v>.+)", "Heißt {v}", "name", rd.name(capped=False)),
    rule("de", r"\bich heisse (?P<v>.+)", "Heißt {v}", "name", rd.name(capped=False)),
    rule("de", r"\bmein name ist (?P<v>.+)", "Heißt {v}", "name", rd.name(capped=False)),
    rule("de", _I + r"(?:wohne|lebe) (?:(?:jetzt|schon|seit \w+(?: jahren| monaten)?) )*"
         r"in (?P<v>.+)",
         "Wohnt in {v}", "home",
         rd.place(lower_ok=True)),
    rule("de", r"\bwir (?:wohnen|leben) (?:jetzt |seit \w+ )?in (?P<v>.+)", "Wohnt in {v}",
         "home", rd.place(lower_ok=False)),
    rule("de", r"\b(?:ich bin|wir sind) (?:[\w-]+ ){0,4}?(?:nach|in) (?P<v>.+?) (?:um)?gezogen\b",
         "Wohnt in {v}", "home", rd.place(lower_ok=False)),
    rule("de", _I + r"(?:komme|stamme) (?:ursprünglich )?aus (?P<v>.+)", "Kommt aus {v}",
         "origin", rd.place(lower_ok=False)),
    rule("de", _I + _NOW + r"als (?P<v>.+)", "Arbeitet als {v}", "work_as", rd.role),
    rule("de", r"^als (?P<v>[\w-]+)", "Arbeitet als {v}", "work_as", rd.job),
    rule("de", r"\bich bin (?:jetzt |nun |inzwischen |mittlerweile )?(?P<v>(?:ein |eine )?[\w-].*)",
         "Ist {v}", "work_as", rd.job),
    rule("de", r"\bich bin (?:in rente|im ruhestand|pensioniert|rentner(?:in)?)\b",
         "Ist in Rente", "work_as"),
    rule("de", _I + _NOW + r"(?P<p>bei|für) (?P<v>.+)", "Arbeitet {p} {v}", "work_at", rd.org),
    rule("de", _I + _NOW + r"(?P<p>in einer|in einem|im|in der) (?P<v>.+)", "Arbeitet {p} {v}",
         "work_at", rd.one_of(vl.WORKPLACES, max_words=1)),
    rule("de", _I + r"unterrichte (?P<v>.+)", "Unterrichtet {v}", "teaches",
         rd.phrase(4, cut=True)),
    rule("de", r"\b(?:(?:ich )?habe|(?:wir|ich) haben|haben wir) (?P<n>" + v.NUM_DE + r") (?P<c>"
         + v.COUNT_NOUNS_DE + r")\b" + _NAMED, _count, lambda g: has_key(g["c"]), whole=True),
    rule("de", _MY + r" (?P<r>" + RELS + r") heißt (?P<v>.+)", _relative, _relative_key,
         rd.name(capped=False)),
    rule("de", _MY + r" (?P<r>" + RELS + r") ist (?P<v>.+)", _relative, _relative_key,
         rd.name(capped=True)),
    rule("de", _MY + r" (?P<r>" + RELS + r"),? (?P<v>(?-i:[A-Z])[\w'-]+.*)", _relative,
         _relative_key, _apposed),
    rule("de", r"\bich bin (?:seit \w+ )?mit (?P<v>.+?) verheiratet\b",
         "Ist mit {v} verheiratet", "marital", rd.name(capped=True)),
    rule("de", r"\bich bin (?P<s>diabetiker(?:in)?|laktoseintolerant|zöliakiekrank|"
         r"asthmatiker(?:in)?|epileptiker(?:in)?)\b", "Ist {s}",
         lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("de", r"\bich bin (?P<s>verheiratet|verlobt|geschieden|verwitwet)\b", "Ist {s}",
         "marital"),
    rule("de", r"\bich bin (?:ein |eine )?(?P<s>vegetarier(?:in)?|veganer(?:in)?|vegetarisch|"
         r"vegan)\b", "Ist {s}", "diet"),
    rule("de", _I + r"esse (?P<a>kein|keine|keinen) (?P<v>.+)", "Isst {a} {v}", "noeat:{k}",
         rd.phrase(7), negative=True),
    rule("de", r"\bich bin (?:stark )?allergisch (?P<p>gegen|auf) (?P<v>.+)",
         "Ist allergisch {p} {v}", "allergy:{k}", rd.phrase(4), sensitive=True),
    rule("de", _I + r"habe (?:eine )?(?P<v>[\w-]+allergie)\b", "Hat eine {v}", "allergy:{k}",
         rd.phrase(1), sensitive=True),
    rule("de", _I + r"habe (?:eine )?(?P<v>[\w-]+(?:intoleranz|unverträglichkeit))\b",
         "Hat eine {v}", "health:{k}", rd.phrase(1), sensitive=True),
    rule("de", _I + r"(?:habe|leide an) (?P<v>.+)", "Hat {v}", "health:{k}", vl.condition,
         sensitive=True),
    rule("de", r"\bmein geburtstag ist (?:am )?(?P<v>.+)", "Geburtstag ist am {v}", "birthday",
         vl.date),
    rule("de", r"\bam (?P<v>.+?) habe ich geburtstag\b", "Geburtstag ist am {v}", "birthday",
         vl.date),
    rule("de", r"\bich habe am (?P<v>.+?) geburtstag\b", "Geburtstag ist am {v}", "birthday",
         vl.date),
    rule("de", r"\bich bin am (?P<v>.+?) geboren\b", "Geburtstag ist am {v}", "birthday",
         vl.date),
    rule("de", _I + r"spiele (?P<v>.+)", "Spielt {v}", "plays:{k}",
         rd.one_of(v.INSTRUMENTS_AND_GAMES), habitual=True),
    rule("de", r"\bich gehe (?:gern |gerne |oft |regelmäßig )?(?P<v>" + _GO + r")\b", "Geht {v}",
         "does:{k}", habitual=True),
    rule("de", r"\bich (?:mache|treibe) (?:gern |gerne |regelmäßig )?(?P<v>.+)", "Macht {v}",
         "does:{k}", vl.activity, habitual=True),
    rule("de", r"^ich bin (?:der |die )?(?P<v>[\w'-]+(?: [\w'-]+)?)[.!]?$", "Heißt {v}", "name",
         rd.lone_name),
    rule("de", r"\bich bin (?P<s>kein|keine) (?P<v>vegetarier(?:in)?|veganer(?:in)?) mehr\b",
         "Ist {s} {v} mehr", "diet", negative=True),
    rule("de", r"\bich bin nicht mehr (?P<v>vegetarisch|vegan|vegetarier(?:in)?|veganer(?:in)?)\b",
         "Ist nicht mehr {v}", "diet", negative=True),
    rule("de", r"\bich (?P<verb>\w+e) (?:sehr )?gerne?\b", _gern, "taste:{k}"),
    rule("de", r"\bich mag (?P<v>.+)", "Mag {v}", "taste:{k}", rd.phrase(4)),
    rule("de", r"\bich liebe (?P<v>.+)", "Liebt {v}", "taste:{k}", rd.phrase(4)),
    rule("de", r"\bich hasse (?P<v>.+)", "Hasst {v}", "taste:{k}", rd.phrase(4)),
    rule("de", r"\bich bevorzuge (?P<v>.+)", "Bevorzugt {v}", "pref:{k}", rd.phrase(6)),
    rule("de", r"\bich mag lieber (?P<v>.+)", "Bevorzugt {v}", "pref:{k}", rd.phrase(6)),
    rule("de", _I + r"spreche (?P<v>.+)", "Spricht {v}", "speaks:{k}", vl.languages, whole=True),
    rule("de", r"\bich lerne (?:gerade )?(?P<v>.+)", "Lernt {v}", "learn:{k}", rd.phrase(2)),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^heißt\s", TIER_NAME, "name"),
    kind(r"^(?:wohnt|lebt) in\s", TIER_HOME, "home"),
    kind(r"^kommt aus\s", TIER_HOME, "origin"),
    kind(r"^(?:arbeitet als|ist in rente)", TIER_WORK, "work_as"),
    kind(r"^arbeitet (?:bei|für|in|im)\s", TIER_WORK, "work_at"),
    kind(r"^unterrichtet\s", TIER_WORK, "teaches"),
    kind(r"^ist (?:mit .+ )?(?:verheiratet|verlobt|geschieden|verwitwet)", TIER_FAMILY,
         "marital"),
    kind(r"^ist (?:ein |eine |kein |keine |nicht mehr )?(?:vegetarier|veganer|vegetarisch|vegan)",
         TIER_PREFERENCE, "diet"),
    kind(r"^(?:macht|geht) (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:ist fan von|hält zu|ist für) ", TIER_PREFERENCE, "team"),
    kind(r"^isst (?:kein|keine|keinen) (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^ist allergisch (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^(?:geburtstag\b|hat am .+ geburtstag$|ist am .+ geboren$)", TIER_FAMILY, "birthday"),
    kind(r"^(?:mag|liebt|hasst) (?P<o>.+)$", TIER_PREFERENCE, "taste:{o}"),
    kind(r"^bevorzugt (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^spielt (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^spricht (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^lernt\s", TIER_GOAL, None),
    kind(r"^hat (?:ein|eine|einen|zwei|drei|vier|fünf|\d+) (?P<r>\w+)", TIER_FAMILY, "has"),
    kind(r"^(?P<r>\w+) heißt ", TIER_FAMILY, "rel"),
    kind(r"^ist (?:ein |eine )?(?P<j>[\w-]+)$", TIER_WORK, "work_as?"),
)  # fmt: skip
