"""Spanish rules of the offline memory extractor: "Vivo en Madrid" → "Vive en Madrid"."""

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
)
from memory.offline.rules import Groups, Kind, Rule, has_key, kind, named, names, relation_key, rule

RELS = (r"esposa|mujer|esposo|marido|pareja|novia|novio|hija|hijo|madre|mamá|padre|papá|"
        r"hermano|hermana|perro|perra|gato|gata|perrit[oa]|gatit[oa]|conejo|hámster|loro|"
        r"periquito|tortuga|caballo|caniche")  # fmt: skip
_MY = r"\b(?:mi|nuestr[oa])"
_APART = r"(?=\s*(?:[,.;!—-]|$))"
# Going out for an activity, as a habit: "Los domingos salgo a correr".
_OUTINGS = r"correr|caminar|nadar|pasear|montar en bici|andar en bici|pedalear|patinar|remar|bailar"


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    return has_key(noun) if noun in v.PETS else relation_key(g["r"])


def _count(g: Groups) -> str:
    line = f"Tiene {g['n']} {g['c']}"
    called = names(g, "y")
    if not called:
        return line
    noun = g["c"].lower()
    gender = "a" if noun.rstrip("s").endswith("a") else "o"
    plural = "s" if noun.endswith("s") else ""
    return f"{line} llamad{gender}{plural} {called}"


_NAMED = named(r"que se llaman?|se llaman?|llamad[oa]s?", "y")

RULES: Final[tuple[Rule, ...]] = (
    rule("es", r"\bme llamo (?P<v>.+)", "Se llama {v}", "name", rd.name(capped=False)),
    rule("es", r"\bmi nombre es (?P<v>.+)", "Se llama {v}", "name", rd.name(capped=False)),
    rule("es", r"\bllámame (?P<v>.+)", "Se llama {v}", "name", rd.name(capped=True)),
    rule("es", r"\b(?:vivo|resido) en (?P<v>.+)", "Vive en {v}", "home", rd.place(lower_ok=True)),
    rule("es", r"\bme (?:he )?(?:mudé|mudado) a (?P<v>.+)", "Vive en {v}", "home",
         rd.place(lower_ok=False)),
    rule("es", r"\b(?:vivimos|nos (?:hemos )?(?:mudamos|mudado) a) (?:en )?(?P<v>.+)",
         "Vive en {v}", "home", rd.place(lower_ok=False)),
    rule("es", r"\b(?:soy|vengo) de (?P<v>.+)", "Es de {v}", "origin", rd.place(lower_ok=False)),
    rule("es", r"\btrabajo como (?P<v>.+)", "Trabaja como {v}", "work_as", rd.role),
    rule("es", r"\btrabajo de (?P<v>.+)", "Trabaja de {v}", "work_as", rd.job),
    rule("es", r"\bsoy (?P<v>(?:un |una )?[\w-].*)", "Es {v}", "work_as", rd.job),
    # A job said as the frame of a question ("Como maestra, ¿cómo …?"), not in Portuguese.
    rule("es", r"^(?!.*(?:[ãõç]|\bem\b|\bnão\b))(?:como|siendo) (?P<v>(?:un |una )?[\w-].*)",
         "Es {v}", "work_as", rd.job),
    rule("es", r"\b(?:estoy|soy) (?P<s>jubilad[oa])\b", "Está {s}", "work_as"),
    rule("es", r"\btrabajo (?P<p>en|para) (?P<v>.+)", "Trabaja {p} {v}", "work_at", vl.workplace),
    rule("es", r"\b(?:enseño|doy clases de) (?P<v>.+)", "Enseña {v}", "teaches",
         rd.phrase(4, cut=True)),
    rule("es", r"\b(?:tengo|tenemos) (?P<n>" + v.NUM_ES + r") (?P<c>" + v.COUNT_NOUNS_ES
         + r")\b" + _NAMED, _count, lambda g: has_key(g["c"]), whole=True),
    rule("es", _MY + r" (?P<r>" + RELS + r") se llama (?P<v>.+)", "Su {r} se llama {v}",
         _relative_key, rd.name(capped=False)),
    rule("es", _MY + r" (?P<r>" + RELS + r")(?: es)? (?P<v>.+)", "Su {r} se llama {v}",
         _relative_key, rd.name(capped=True)),
    rule("es", _MY + r" (?P<r>" + RELS + r"), (?P<v>(?-i:[A-Z])[\w'-]+)" + _APART,
         "Su {r} se llama {v}", _relative_key, rd.apposed_name, whole=True),
    rule("es", r"\bestoy (?P<s>casad[oa]) con (?P<v>.+)", "Está {s} con {v}", "marital",
         rd.name(capped=True)),
    rule("es", r"\b(?:estoy|soy) (?P<s>casad[oa]|comprometid[oa]|divorciad[oa]|viud[oa])\b",
         "Está {s}", "marital"),
    rule("es", r"\bsoy (?P<s>celíac[oa]|diabétic[oa]|intolerante a la lactosa|asmátic[oa]|"
         r"epiléptic[oa])\b", "Es {s}",
         lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("es", r"\bsoy (?P<s>vegetarian[oa]|vegan[oa]|pescetarian[oa])\b", "Es {s}", "diet"),
    rule("es", r"\bno como (?P<v>.+)", "No come {v}", "noeat:{k}", rd.phrase(7), negative=True),
    rule("es", r"\bno (?:tomo|bebo) (?P<v>.+)", "No toma {v}", "nodrink:{k}", vl.drink,
         negative=True),
    rule("es", r"\bya no soy (?P<s>vegetarian[oa]|vegan[oa]|pescetarian[oa])\b",
         "Ya no es {s}", "diet", negative=True),
    rule("es", r"\bsoy (?P<s>alérgic[oa]) (?P<v>(?:a|al) .+)", "Es {s} {v}", "allergy:{k}",
         rd.phrase(5), sensitive=True),
    rule("es", r"\btengo alergia (?P<v>(?:a|al) .+)", "Tiene alergia {v}", "allergy:{k}",
         rd.phrase(5), sensitive=True),
    rule("es", r"\b(?:tengo|padezco|sufro de) (?P<v>.+)", "Tiene {v}", "health:{k}",
         vl.condition, sensitive=True),
    rule("es", r"\bmi cumpleaños es (?:el )?(?P<v>.+)", "Su cumpleaños es el {v}", "birthday",
         vl.date),
    rule("es", r"\bnací el (?P<v>.+)", "Su cumpleaños es el {v}", "birthday", vl.date),
    rule("es", r"\b(?:cumplo años|celebro mi cumpleaños|cumplo) (?:el )?(?P<v>.+)",
         "Su cumpleaños es el {v}", "birthday", vl.date),
    rule("es", r"\btoco (?P<v>.+)", "Toca {v}", "plays:{k}", rd.one_of(v.INSTRUMENTS_AND_GAMES),
         habitual=True),
    rule("es", r"\bjuego (?P<v>(?:al|a la|a) .+)", "Juega {v}", "plays:{k}",
         rd.one_of(v.INSTRUMENTS_AND_GAMES), habitual=True),
    rule("es", r"\b(?:hago|practico) (?P<v>.+)", "Hace {v}", "does:{k}", vl.activity,
         habitual=True),
    rule("es", r"\b(?:salgo|suelo salir) a (?P<v>" + _OUTINGS + r")\b", "Sale a {v}",
         "does:{k}", habitual=True),
    rule("es", r"^(?:yo )?soy (?P<v>[\w'-]+(?: [\w'-]+)?)[.!]?$", "Se llama {v}", "name",
         rd.lone_name),
    rule("es", r"\bme (?P<g>gusta|gustan) (?:mucho )?(?P<v>.+)", "Le {g} {v}", "taste:{k}",
         rd.phrase(4)),
    rule("es", r"\bme (?P<g>encanta|encantan) (?P<v>.+)", "Le {g} {v}", "taste:{k}",
         rd.phrase(4)),
    rule("es", r"\bprefiero (?P<v>.+)", "Prefiere {v}", "pref:{k}", rd.phrase(6)),
    rule("es", r"\bhablo (?P<v>.+)", "Habla {v}", "speaks:{k}", vl.languages, whole=True),
    rule("es", r"\bestoy aprendiendo (?P<v>.+)", "Está aprendiendo {v}", "learn:{k}",
         rd.phrase(3)),
    rule("es", r"\bquiero (?P<v>(?:aprender|ser|estudiar) .+)", "Quiere {v}", "goal:{k}",
         rd.phrase(5)),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^se llama\s", TIER_NAME, "name"),
    kind(r"^(?:vive|reside) en\s", TIER_HOME, "home"),
    kind(r"^es de\s", TIER_HOME, "origin"),
    kind(r"^(?:trabaja (?:como|de)|está jubilad)", TIER_WORK, "work_as"),
    kind(r"^trabaja (?:en|para)\s", TIER_WORK, "work_at"),
    kind(r"^enseña\s", TIER_WORK, "teaches"),
    kind(r"^está (?:casad|comprometid|divorciad|viud)", TIER_FAMILY, "marital"),
    kind(r"^(?:ya no )?es (?:vegetarian|vegan|pescetarian)", TIER_PREFERENCE, "diet"),
    kind(r"^hace (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:es (?:hincha|aficionad[oa]|seguidora?) (?:de|del)|apoya (?:al|a)) ", TIER_PREFERENCE,
         "team"),
    kind(r"^no come (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^es alérgic[oa] (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^(?:su )?cumpleaños\b|^cumple años\b|^nació el\b", TIER_FAMILY, "birthday"),
    kind(r"^no (?:toma|bebe) (?P<o>.+)$", TIER_PREFERENCE, "nodrink:{o}"),
    kind(r"^sale a (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^le (?:gusta|gustan|encanta|encantan) (?P<o>.+)$", TIER_PREFERENCE, "taste:{o}"),
    kind(r"^prefiere (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^(?:toca|juega) (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^habla (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^(?:está aprendiendo|quiere)\s", TIER_GOAL, None),
    kind(r"^tiene (?:un|una|uno|dos|tres|cuatro|cinco|\d+) (?P<r>\w+)", TIER_FAMILY, "has"),
    kind(r"^su (?P<r>\w+) se llama ", TIER_FAMILY, "rel"),
    kind(r"^es (?:un |una )?(?P<j>[\w-]+)(?: de\s\S+)?$", TIER_WORK, "work_as?"),
)  # fmt: skip
