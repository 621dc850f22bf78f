"""Portuguese rules of the offline memory extractor: "Moro em Lisboa" → "Mora em Lisboa"."""

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

RELS = (r"esposa|mulher|esposo|marido|namorada|namorado|companheira|companheiro|filha|filho|"
        r"mãe|pai|irmão|irmã|cão|cachorro|cachorra|gato|gata|cachorrinh[oa]|gatinh[oa]|coelho|"
        r"hamster|papagaio|periquito|tartaruga|cavalo")  # fmt: skip
_MY = r"\b(?:[oa] )?(?P<pos>minha|meu|nossa|nosso)"
_APART = r"(?=\s*(?:[,.;!—-]|$))"


def _relative(g: Groups) -> str:
    article = "A" if g["pos"].lower() in ("minha", "nossa") else "O"
    return f"{article} {g['r'].lower()} chama-se {g['v']}"


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    return has_key(noun) if noun in v.PETS else relation_key(g["r"])


def _count(g: Groups) -> str:
    line = f"Tem {g['n']} {g['c']}"
    called = names(g, "e")
    if not called:
        return line
    noun = g["c"].lower()
    gender = "a" if noun.rstrip("s").endswith("a") else "o"
    plural = "s" if noun.endswith("s") else ""
    return f"{line} chamad{gender}{plural} {called}"


def _lives(g: Groups) -> str:
    prep = g.get("p") or "em"
    return f"Mora {'em' if prep.lower() == 'para' else prep} {g['v']}"


_NAMED = named(r"que se chamam?|chamad[oa]s?|chama-se|chamam-se|se chamam?", "e")

RULES: Final[tuple[Rule, ...]] = (
    rule("pt", r"\b(?:me chamo|chamo-me) (?P<v>.+)", "Chama-se {v}", "name",
         rd.name(capped=False)),
    rule("pt", r"\b(?:o )?meu nome é (?P<v>.+)", "Chama-se {v}", "name", rd.name(capped=False)),
    rule("pt", r"\b(?:moro|vivo|resido) (?P<p>em|no|na|nos|nas) (?P<v>.+)", _lives, "home",
         rd.place(lower_ok=True)),
    rule("pt", r"\b(?:me mudei|mudei-me|mudei) (?P<p>para) (?:o |a )?(?P<v>.+)", _lives, "home",
         rd.place(lower_ok=False)),
    rule("pt", r"\b(?:moramos|vivemos) (?P<p>em|no|na|nos|nas) (?P<v>.+)", _lives, "home",
         rd.place(lower_ok=False)),
    rule("pt", r"\b(?:nos mudamos|mudamo-nos|mudámo-nos|mudamos) (?P<p>para) (?:o |a )?(?P<v>.+)",
         _lives, "home", rd.place(lower_ok=False)),
    rule("pt", r"\b(?:sou|venho) (?P<p>de|do|da) (?P<v>.+)", "É {p} {v}", "origin",
         rd.place(lower_ok=False)),
    rule("pt", r"\btrabalho como (?P<v>.+)", "Trabalha como {v}", "work_as", rd.role),
    rule("pt", r"\bsou (?P<v>(?:um |uma )?[\w-].*)", "É {v}", "work_as", rd.job),
    rule("pt", r"^(?:como|sendo) (?P<v>(?:um |uma )?[\w-].*)", "É {v}", "work_as", rd.job),
    rule("pt", r"\b(?:sou|estou) (?P<s>aposentad[oa]|reformad[oa])\b", "É {s}", "work_as"),
    rule("pt", r"\btrabalho (?P<p>na|no|em|para|num|numa) (?P<v>.+)", "Trabalha {p} {v}", "work_at",
         vl.workplace),
    rule("pt", r"\b(?:ensino|dou aulas de) (?P<v>.+)", "Ensina {v}", "teaches",
         rd.phrase(4, cut=True)),
    rule("pt", r"\bagora (?:são|sao|tenho|temos) (?P<n>" + v.NUM_PT + r") (?P<c>"
         + v.COUNT_NOUNS_PT + r")\b", _count, lambda g: has_key(g["c"])),
    rule("pt", r"\b(?:tenho|temos) (?P<n>" + v.NUM_PT + r") (?P<c>" + v.COUNT_NOUNS_PT + r")\b"
         + _NAMED, _count, lambda g: has_key(g["c"]), whole=True),
    rule("pt", _MY + r" (?P<r>" + RELS + r") (?:se chama|chama-se) (?P<v>.+)",
         _relative, _relative_key, rd.name(capped=False)),
    rule("pt", _MY + r" (?P<r>" + RELS + r")(?: é)? (?P<v>.+)", _relative, _relative_key,
         rd.name(capped=True)),
    rule("pt", _MY + r" (?P<r>" + RELS + r"), (?:[oa] )?(?P<v>(?-i:[A-Z])[\w'-]+)" + _APART,
         _relative, _relative_key, rd.apposed_name, whole=True),
    rule("pt", r"\b(?:sou|estou) (?P<s>casad[oa]) com (?P<v>.+)", "É {s} com {v}", "marital",
         rd.name(capped=True)),
    rule("pt", r"\b(?:sou|estou) (?P<s>casad[oa]|noiv[oa]|divorciad[oa]|viúv[oa])\b", "É {s}",
         "marital"),
    rule("pt", r"\bsou (?P<s>celíac[oa]|diabétic[oa]|intolerante à lactose|asmátic[oa]|"
         r"epilétic[oa]|epiléptic[oa])\b", "É {s}",
         lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("pt", r"\bsou (?P<s>vegetarian[oa]|vegan[oa]|vegan)\b", "É {s}", "diet"),
    rule("pt", r"\b(?:não|nao) como (?P<v>.+)", "Não come {v}", "noeat:{k}", rd.phrase(7),
         negative=True),
    rule("pt", r"\b(?:não|nao) (?:tomo|bebo) (?P<v>.+)", "Não toma {v}", "nodrink:{k}", vl.drink,
         negative=True),
    rule("pt", r"\bjá não sou (?P<s>vegetarian[oa]|vegan[oa]?)\b", "Já não é {s}", "diet",
         negative=True),
    rule("pt", r"\bnão sou mais (?P<s>vegetarian[oa]|vegan[oa]?)\b", "Não é mais {s}", "diet",
         negative=True),
    rule("pt", r"\bsou (?P<s>alérgic[oa]) (?P<v>(?:a|ao|à|aos|às) .+)", "É {s} {v}",
         "allergy:{k}", rd.phrase(5), sensitive=True),
    rule("pt", r"\btenho alergia (?P<v>(?:a|ao|à|aos|às) .+)", "Tem alergia {v}", "allergy:{k}",
         rd.phrase(5), sensitive=True),
    rule("pt", r"\b(?:tenho|sofro de) (?P<v>.+)", "Tem {v}", "health:{k}",
         vl.condition, sensitive=True),
    rule("pt", r"\b(?:o )?meu aniversário é (?:em |no dia |dia |a )?(?P<v>.+)",
         "O aniversário é a {v}", "birthday", vl.date),
    rule("pt", r"\bnasci (?:em |no dia |a )(?P<v>.+)", "O aniversário é a {v}", "birthday",
         vl.date),
    rule("pt", r"\bfaço (?:anos|aniversário) (?:em |no dia |dia |a )?(?P<v>.+)",
         "O aniversário é a {v}", "birthday", vl.date),
    rule("pt", r"\btoco (?P<v>.+)", "Toca {v}", "plays:{k}", rd.one_of(v.INSTRUMENTS_AND_GAMES),
         habitual=True),
    rule("pt", r"\bjogo (?P<v>.+)", "Joga {v}", "plays:{k}", rd.one_of(v.INSTRUMENTS_AND_GAMES),
         habitual=True),
    rule("pt", r"\b(?:faço|pratico) (?P<v>.+)", "Faz {v}", "does:{k}", vl.activity,
         habitual=True),
    rule("pt", r"^(?:eu )?sou (?:o |a )?(?P<v>[\w'-]+(?: [\w'-]+)?)[.!]?$", "Chama-se {v}",
         "name", rd.lone_name),
    rule("pt", r"\bgosto (?:muito )?(?P<p>de|do|da|dos|das) (?P<v>.+)", "Gosta {p} {v}",
         "taste:{k}", rd.phrase(4)),
    rule("pt", r"\bodeio (?P<v>.+)", "Odeia {v}", "taste:{k}", rd.phrase(4)),
    rule("pt", r"\bprefiro (?P<v>.+)", "Prefere {v}", "pref:{k}", rd.phrase(6)),
    rule("pt", r"\bfalo (?P<v>.+)", "Fala {v}", "speaks:{k}", vl.languages, whole=True),
    rule("pt", r"\bestou (?:aprendendo|a aprender) (?P<v>.+)", "Está a aprender {v}",
         "learn:{k}", rd.phrase(3)),
    rule("pt", r"\bquero (?P<v>(?:aprender|ser|estudar) .+)", "Quer {v}", "goal:{k}",
         rd.phrase(5)),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^chama-se\s", TIER_NAME, "name"),
    kind(r"^(?:mora|vive|reside)\s", TIER_HOME, "home"),
    kind(r"^é (?:de|do|da)\s", TIER_HOME, "origin"),
    kind(r"^(?:trabalha como|é aposentad|é reformad)", TIER_WORK, "work_as"),
    kind(r"^trabalha (?:na|no|em|para|num|numa)\s", TIER_WORK, "work_at"),
    kind(r"^ensina\s", TIER_WORK, "teaches"),
    kind(r"^é (?:casad|noiv|divorciad|viúv)", TIER_FAMILY, "marital"),
    kind(r"^(?:já não é |não é mais |é )(?:vegetarian|vegan)", TIER_PREFERENCE, "diet"),
    kind(r"^faz (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:torce (?:pelo|pela|para)|é (?:adepto|adepta|torcedor|torcedora) d)", TIER_PREFERENCE,
         "team"),
    kind(r"^não come (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^é alérgic[oa] (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^(?:o )?aniversário\b|^faz anos\b|^nasceu (?:a|em|no dia)\b", TIER_FAMILY,
         "birthday"),
    kind(r"^não (?:toma|bebe) (?P<o>.+)$", TIER_PREFERENCE, "nodrink:{o}"),
    kind(r"^(?:gosta (?:de|do|da|dos|das)|adora|ama|odeia) (?P<o>.+)$", TIER_PREFERENCE,
         "taste:{o}"),
    kind(r"^prefere (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^(?:toca|joga) (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^fala (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^(?:está a aprender|quer)\s", TIER_GOAL, None),
    kind(r"^tem (?:um|uma|dois|duas|três|quatro|cinco|\d+) (?P<r>\w+)", TIER_FAMILY, "has"),
    kind(r"^(?:a|o) (?P<r>\w+) chama-se ", TIER_FAMILY, "rel"),
    kind(r"^é (?:um |uma )?(?P<j>[\w-]+)(?: de\s\S+)?$", TIER_WORK, "work_as?"),
)  # fmt: skip
