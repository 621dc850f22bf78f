"""English rules of the offline memory extractor: "My name is Anna" → "Name is Anna"."""

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
    capitalise,
)
from memory.offline.rules import Groups, Kind, Rule, has_key, kind, named, names, relation_key, rule

I_AM = r"\bi(?:'m| am)"
RELS = (r"wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|son|daughter|mother|mom|"
        r"mum|father|dad|brother|sister|kid|child|dog|cat|baby|puppy|kitten|rabbit|bunny|"
        r"hamster|parrot|tortoise|turtle|horse|budgie|beagle|labrador|retriever|poodle|"
        r"dachshund|terrier|spaniel|collie|pug|bulldog|chihuahua|corgi|greyhound|"
        r"schnauzer")  # fmt: skip
_MY = r"\b(?:my|our)"
# Set off by commas, right before the end of a phrase: "Biscuit, my beagle, …".
_APART = r"(?=\s*(?:[,.;!—-]|$))"
# Where, between an activity and how often: "swimming in the sea every morning".
_WHERE = r"(?:(?:at|in|with|near) (?:the |my |a )?[\w'-]+ )?"
# How often or how long: what makes "I've been bouldering" a habit.
_HABIT = (r"(?:every|each|twice|once|three times|\d+ times|a lot|regularly|weekly|on (?:the )?"
          r"weekends|since|for (?:a|an|one|two|three|four|five|six|several|many|a few|\d+) "
          r"(?:years?|months?|weeks?))\b")  # fmt: skip


def _spoken(text: str, strict: bool) -> str | None:
    """The languages of "Tagalog at home and English at school", without where."""
    return vl.languages(re.sub(r" (?:at|in) (?:home|school|work)\b", "", text), strict)


def _im_a(g: Groups) -> str | None:
    text = rd.role(g["v"], False)
    words = text.split()[1:] if text else []  # without its "a"/"an"
    if not words or not rd.looks_like_job(words[-1]):
        return None
    text = " ".join(words)
    if text.lower() == "student":
        return "Is a student"
    article = "an" if text[:1].lower() in "aeiou" else "a"
    # Where, when said right after the job: "I'm a nurse in Bristol".
    rest = g["v"].split(None, len(words) + 1)[len(words) + 1 :]
    where = re.match(r"in (\S.*)", rest[0]) if rest else None
    town = rd.take_place(where.group(1), allow_lower=False) if where else None
    return f"Works as {article} {text}" + (f" in {town}" if town else "")


def _count(g: Groups) -> str:
    number = g["n"]
    if number.lower() == "a" and g["c"][:1].lower() in "aeiou":
        number = "an"
    line = f"Has {number} {g['c']}"
    called = names(g, "and")
    return f"{line} named {called}" if called else line


def _relative(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower())
    if not noun:
        return None
    if noun in v.PETS:
        return f"Has a {noun} named {g['v']}"
    return f"{capitalise(noun)} is {g['v']}"


def _relative_key(g: Groups) -> str | None:
    noun = v.RELATIONS.get(g["r"].lower(), "")
    return has_key(noun) if noun in v.PETS else relation_key(noun)


def _not_a_name(text: str, strict: bool) -> str | None:
    value = rd.take_name(text, require_cap=True)
    return None if not value or value.lower() in v.NOT_NAMES else value


# "everyone calls me Bex": what people call the person (not "my boss calls me lazy": a name).
_CALLS_ME = r"\b(?:everyone|everybody|people|friends|my friends|they all|most people) calls? me "
# "here in Leeds …, 6 years living in this city": the city named is home.
_YEARS_HERE = (r"(?:\d+|a few|two|three|four|five|six|seven|eight|nine|ten|many) years? "
               r"(?:of )?(?:living|i've lived|i have lived|i've been living) (?:in )?"
               r"(?:this|the) (?:city|town)\b")  # fmt: skip
_QUIT_FOODS = r"red meat|meat|pork|beef|dairy|fish|seafood|gluten|sugar"

_NAMED = named(r"named|called|who is called|whose name is", "and")

RULES: Final[tuple[Rule, ...]] = (
    rule("en", r"\bmy name(?: is|'s) (?P<v>.+)", "Name is {v}", "name", rd.name(capped=False)),
    rule("en", I_AM + r" called (?P<v>.+)", "Name is {v}", "name", rd.name(capped=False)),
    rule("en", _CALLS_ME + r"(?P<n>[A-Z][\w'-]*),? \(?short for (?P<v>[A-Z][\w'-]*)\)?",
         "Name is {v}, goes by {n}", "name", whole=True),
    rule("en", r"\b(?:call me|i go by) (?P<v>.+)", "Name is {v}", "name", rd.name(capped=True)),
    rule("en", _CALLS_ME + r"(?P<v>.+)", "Name is {v}", "name", rd.name(capped=True)),
    rule("en", r"^i(?:'m| am) (?P<v>[\w'-]+)[.!]?$", "Name is {v}", "name", _not_a_name),
    rule("en", r"\b(?:i|we) (?:currently |now |still )?live in (?P<v>.+)", "Lives in {v}", "home",
         rd.place(lower_ok=True)),
    rule("en", I_AM + r" (?:currently |now )?(?:living|based|located) in (?P<v>.+)",
         "Lives in {v}", "home", rd.place(lower_ok=True)),
    rule("en", r"\bhere in (?P<v>[A-Z][\w'-]*(?: [A-Z][\w'-]*)?)\b.{0,80}?\b" + _YEARS_HERE,
         "Lives in {v}", "home", rd.place(lower_ok=False), whole=True),
    rule("en", r"\b(?:i|we)(?:'ve| have)? (?:just |recently )?(?:moved|relocated) to (?P<v>.+)",
         "Lives in {v}", "home", rd.place(lower_ok=False)),
    rule("en", I_AM + r" (?:originally )?from (?P<v>.+)", "Is from {v}", "origin",
         rd.place(lower_ok=False)),
    rule("en", r"\bi (?:originally )?come from (?P<v>.+)", "Is from {v}", "origin",
         rd.place(lower_ok=False)),
    rule("en", r"\bi (?:currently |now )?work as (?P<v>.+)", "Works as {v}",
         "work_as", rd.role),
    rule("en", I_AM + r" (?:currently |now |actually )?(?P<v>(?:a|an) .+)", _im_a, "work_as"),
    rule("en", I_AM + r" (?:now )?retired\b", "Is retired", "work_as"),
    # A job said as the frame of a question: "As a nurse on night shifts, how do I …?"
    rule("en", r"^as (?P<v>(?:a|an) .+)", _im_a, "work_as"),
    rule("en", r"(?:^|, )being (?P<v>(?:a|an) [\w -]+?) is (?:great|fun|hard|tough|exhausting|"
         r"rewarding|amazing|tiring|stressful|the best|not easy|no joke)\b", _im_a, "work_as"),
    rule("en", r"\bi (?:currently |now )?work (?P<p>at|for) (?P<v>.+)", "Works {p} {v}",
         "work_at", rd.org),
    rule("en", r"\bi teach (?P<v>.+)", "Teaches {v}", "teaches", rd.phrase(4, cut=True)),
    rule("en", r"\bi (?:currently |now )?work in (?P<v>.+)", "Works in {v}", "work_at",
         rd.one_of(vl.FIELDS, max_words=1)),
    rule("en", r"\b(?:i|we)(?: now| also| still)?(?: have|'ve got| have got|'ve) (?P<n>"
         + v.NUM_EN + r") (?P<c>"
         + v.COUNT_NOUNS_EN + r")\b" + _NAMED, _count, lambda g: has_key(g["c"].split()[-1]),
         whole=True),
    rule("en", _MY + r" (?P<r>" + RELS + r")(?:'s name is| is called| is named| name is) (?P<v>.+)",
         _relative, _relative_key, rd.name(capped=False)),
    rule("en", _MY + r" (?P<r>" + RELS + r")(?: is)? (?P<v>.+)", _relative, _relative_key,
         rd.name(capped=True)),
    rule("en", r"(?P<v>\b(?-i:[A-Z])[\w'-]+), (?:my|our) (?P<r>" + RELS + r")" + _APART,
         _relative, _relative_key, rd.apposed_name, whole=True),
    rule("en", _MY + r" (?P<r>" + RELS + r"), (?P<v>(?-i:[A-Z])[\w'-]+)" + _APART, _relative,
         _relative_key, rd.apposed_name, whole=True),
    rule("en", I_AM + r" (?:happily )?married to (?P<v>.+)", "Is married to {v}", "marital",
         rd.name(capped=True)),
    rule("en", I_AM + r" (?:happily )?(?P<s>married|engaged|divorced|widowed)\b", "Is {s}",
         "marital"),
    rule("en", I_AM + r" (?:an? )?(?:strict )?(?P<s>vegetarian|vegan|pescatarian)\b", "Is {s}",
         "diet"),
    rule("en", r"\bi (?:quit|gave up|cut out|stopped eating) (?P<v>" + _QUIT_FOODS + r")\b",
         "Doesn't eat {v}", "noeat:{k}"),
    rule("en", r"\bi (?:don't|do not|never) eat (?P<v>.+)", "Doesn't eat {v}", "noeat:{k}",
         rd.phrase(7), negative=True),
    rule("en", r"\bi (?:don't|do not|never) drink (?P<v>.+)", "Doesn't drink {v}", "nodrink:{k}",
         vl.drink, negative=True),
    rule("en", I_AM + r" no longer (?:an? )?(?P<s>vegetarian|vegan|pescatarian)\b",
         "Is no longer {s}", "diet", negative=True),
    rule("en", I_AM + r" not (?:an? )?(?P<s>vegetarian|vegan|pescatarian) any ?more\b",
         "Is no longer {s}", "diet", negative=True),
    rule("en", I_AM + r" (?:severely |very |highly )?allergic to (?P<v>.+)",
         "Is allergic to {v}", "allergy:{k}", rd.phrase(4), sensitive=True),
    rule("en", r"\bi(?: have|'ve got| have got) an? (?P<v>[\w-]+(?: [\w-]+)?) allergy\b",
         "Has a {v} allergy", "allergy:{k}", rd.phrase(2), sensitive=True),
    rule("en", r"\bi(?: have|'ve got| have got| suffer from) (?P<v>.+)", "Has {v}",
         "health:{k}", vl.condition, sensitive=True),
    rule("en", I_AM + r" (?P<s>diabetic|coeliac|celiac|epileptic|asthmatic|lactose intolerant|"
         r"gluten intolerant)\b", "Is {s}", lambda g: "health:" + g["s"].lower(), sensitive=True),
    rule("en", r"\bmy birthday(?: is|'s) (?:on )?(?P<v>.+)", "Birthday is {v}", "birthday",
         vl.date),
    rule("en", r"\bi was born on (?P<v>.+)", "Birthday is {v}", "birthday", vl.date),
    rule("en", r"^(?:i'm |i am |i )?turn(?:ing)? \d{1,3} on (?P<v>.+)", "Birthday is {v}",
         "birthday", vl.date),
    rule("en", r"\bmy (?P<r>" + RELS + r")'s birthday is (?:on )?(?P<v>.+)",
         lambda g: f"{capitalise(g['r'])}'s birthday is {g['v']}", "bday:{k}", vl.date),
    rule("en", r"\bi (?:also |regularly |often )?play (?P<v>.+)", "Plays {v}", "plays:{k}",
         rd.one_of(v.INSTRUMENTS_AND_GAMES), habitual=True),
    rule("en", r"\bi (?:also |regularly |often )?(?:do|practi[cs]e) (?P<v>.+)", "Does {v}",
         "does:{k}", vl.activity, habitual=True),
    rule("en", r"\bi (?:also |regularly |often |usually )?go (?P<v>.+)", "Goes {v}", "does:{k}",
         vl.go_activity, habitual=True),
    rule("en", r"(?:\bi(?:'ve| have) |^)been (?:going )?(?P<v>[a-z]+ing) " + _WHERE + _HABIT,
         "Goes {v}", "does:{k}", vl.go_activity, habitual=True),
    rule("en", r"\bi(?:'ve| have) been (?:doing|practi[cs]ing) (?P<v>.+?) " + _WHERE + _HABIT,
         "Does {v}", "does:{k}", vl.activity, habitual=True),
    rule("en", r"\bi (?:really |do |genuinely |also )?(?:like|enjoy) (?P<v>.+)", "Likes {v}",
         "taste:{k}", rd.phrase(4)),
    rule("en", r"\bi (?:really |absolutely |also )?love (?P<v>.+)", "Loves {v}", "taste:{k}",
         rd.phrase(4)),
    rule("en", r"\bi (?:really )?(?:hate|dislike|detest) (?P<v>.+)", "Dislikes {v}",
         "taste:{k}", rd.phrase(4)),
    rule("en", I_AM + r" (?:a )?(?:big |huge |great )?fan of (?P<v>.+)", "Likes {v}",
         "taste:{k}", rd.phrase(3)),
    rule("en", r"\bmy (?:favou?rite )?hobb(?:y is|ies are) (?P<v>.+)", "Likes {v}", "taste:{k}",
         rd.phrase(4)),
    rule("en", r"\b(?:i )?grew up speaking (?P<v>.+)", "Speaks {v}", "speaks:{k}", _spoken,
         whole=True),
    rule("en", r"\b(?:i|we) (?:also )?speak (?P<v>.+)", "Speaks {v}", "speaks:{k}",
         vl.languages, whole=True),
    rule("en", I_AM + r" fluent in (?P<v>.+)", "Speaks {v}", "speaks:{k}",
         vl.languages, whole=True),
    rule("en", r"\bi (?:really |much |generally |usually |always |definitely )?prefer (?P<v>.+)",
         "Prefers {v}", "pref:{k}", rd.phrase(6)),
    rule("en", r"\bmy (?:main |big |current |long-term )?(?:goal|dream|ambition) is to (?P<v>.+)",
         "Wants to {v}", "goal:{k}", rd.phrase(6)),
    rule("en", r"\bi (?:really )?want to (?P<v>(?:learn|become|run|study|speak) .+)",
         "Wants to {v}", "goal:{k}", rd.phrase(6)),
    rule("en", I_AM + r" (?:currently )?learning (?P<v>.+)", "Is learning {v}", "learn:{k}",
         rd.phrase(3, cut=True)),
    rule("en", r"\bi(?:'ve| have) been (?:learning|studying) (?P<v>.+)", "Is learning {v}",
         "learn:{k}", rd.phrase(3, cut=True)),
    rule("en", I_AM + r" (?:currently )?training for (?P<v>.+)", "Is training for {v}",
         "goal:{k}", rd.phrase(4)),
)  # fmt: skip

_JOB = r"(?P<j>[\w'-]+)$"
KINDS: Final[tuple[Kind, ...]] = (
    kind(r"^(?:name is|name:|first name:|called)\s", TIER_NAME, "name"),
    kind(r"^(?:lives in|based in|home:)\s", TIER_HOME, "home"),
    kind(r"^(?:is from|from:|comes from)\s", TIER_HOME, "origin"),
    kind(r"^(?:works as|job:|occupation:|is a student$|is retired$)", TIER_WORK, "work_as"),
    kind(r"^(?:works at|works for|works in|employer:)\s", TIER_WORK, "work_at"),
    kind(r"^teaches\s", TIER_WORK, "teaches"),
    kind(r"^is (?:married|engaged|divorced|widowed)\b", TIER_FAMILY, "marital"),
    kind(r"^is (?:no longer )?(?:vegetarian|vegan|pescatarian)$", TIER_PREFERENCE, "diet"),
    kind(r"^(?:does|goes) (?P<o>.+)$", TIER_PREFERENCE, "does:{o}"),
    kind(r"^(?:supports|is a fan of) ", TIER_PREFERENCE, "team"),
    kind(r"^doesn't eat (?P<o>.+)$", TIER_PREFERENCE, "noeat:{o}"),
    kind(r"^doesn't drink (?P<o>.+)$", TIER_PREFERENCE, "nodrink:{o}"),
    kind(r"^is allergic to (?P<o>.+)$", TIER_FAMILY, "allergy:{o}"),
    kind(r"^birthday is\s", TIER_FAMILY, "birthday"),
    kind(r"^(?:likes|loves|dislikes|enjoys) (?P<o>.+)$", TIER_PREFERENCE, "taste:{o}"),
    kind(r"^prefers (?P<o>.+)$", TIER_PREFERENCE, "pref:{o}"),
    kind(r"^plays (?P<o>.+)$", TIER_PREFERENCE, "plays:{o}"),
    kind(r"^speaks (?P<o>.+)$", TIER_PREFERENCE, "speaks:{o}"),
    kind(r"^(?:goal:|is learning|is training for|wants to)\s", TIER_GOAL, None),
    kind(r"^has (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:[\w-]+ )?"
         r"(?P<r>" + "|".join(sorted(v.RELATIONS, key=len, reverse=True)) + r")\b",
         TIER_FAMILY, "has"),
    kind(r"^(?P<r>[\w-]+)(?:'s name)? is ", TIER_FAMILY, "rel"),
)  # fmt: skip
