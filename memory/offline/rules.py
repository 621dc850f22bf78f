"""The shape of an offline extraction rule, shared by `memory.offline.lang_*`: a pattern, a
third-person template in the same language, and the key of the older line it replaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from memory.offline import vocab as v
from memory.offline.patterns import capitalise, line_norm, word_set
from memory.offline.readers import Reader

Groups = dict[str, str]
Template = str | Callable[[Groups], "str | None"]
KeyOf = str | Callable[[Groups], "str | None"] | None


@dataclass(frozen=True)
class Fact:
    """One line to store; lines sharing a non-None key hold one value (newest wins)."""

    line: str
    key: str | None = None


_LEADING_WORDS_RE: Final = re.compile(
    r"^(?:(?:the|a|an|to|il|lo|la|le|les|l'|i|gli|a|al|alla|alle|ai|agli|all'|à|au|aux|de|du|"
    r"des|d'|del|della|el|los|las|un|una|uno|une|der|die|das|den|dem|gegen|auf|kein|keine|"
    r"keinen|o|os|as|ao|aos|à|às|do|da|dos|das|um|uma|of)(?:\s+|(?<=')))+",
    re.IGNORECASE,
)


def object_key(text: str) -> str:
    """The part of a value that identifies it, without articles: "le jazz" → "jazz"."""
    norm = line_norm(text)
    return _LEADING_WORDS_RE.sub("", norm).strip() or norm


@dataclass(frozen=True)
class Rule:
    lang: str
    pattern: re.Pattern[str]
    template: Template
    key: KeyOf
    read: Reader | None
    # Health facts are kept only when the person asks to remember them.
    sensitive: bool = False
    # The rule states a negative fact ("I don't eat pork"): the negation guard does not apply.
    negative: bool = False
    # The value is a list a comma would cut ("English, French and Italian"): read the sentence.
    whole: bool = False
    # A habit ("I play tennis"): a one-off with "today", "tonight" or "tomorrow" is no fact.
    habitual: bool = False

    def build(self, match: re.Match[str], strict: bool) -> Fact | None:
        groups = {name: (value or "").strip() for name, value in match.groupdict().items()}
        if self.read is not None:
            value = self.read(groups.get("v", ""), strict)
            if not value:
                return None
            groups["v"] = value
        line = self.template(groups) if callable(self.template) else self.template.format(**groups)
        if not line:
            return None
        line = capitalise(" ".join(line.split()))
        if callable(self.key):
            key = self.key(groups)
        else:
            key = self.key.format(k=object_key(groups.get("v", ""))) if self.key else None
        return Fact(line, key)


def rule(
    lang: str,
    rx: str,
    template: Template,
    key: KeyOf = None,
    read: Reader | None = None,
    *,
    sensitive: bool = False,
    negative: bool = False,
    whole: bool = False,
    habitual: bool = False,
) -> Rule:
    pattern = re.compile(rx, re.IGNORECASE)
    return Rule(lang, pattern, template, key, read, sensitive, negative, whole, habitual)


# --- names of pets and children said with the count ("I have two cats, Pixel and Mochi") ----
# A capital letter, even though the rules match without case: "(?-i:…)".
_CAP = r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+"
_NAME_NOT: Final = word_set(
    "i he she it we they and but who which that the a an il lo la le les el los las der die das "
    "ein eine o os as um uma e et y und ma mais pero aber mas"
)


def named(connectors: str, glue: str) -> str:
    """The regex tail naming what was counted ("named Rex", ", Rex"), maybe a second name."""
    breed = r"(?:,? (?:a|an|un|una|uno|une|ein|eine|einen|um|uma) [\w-]+)?"

    def second(group: str) -> str:
        return r"(?:,? (?:" + glue + r") (?P<" + group + r">" + _CAP + r"))?"

    return (r"(?:" + breed + r",? (?:" + connectors + r") (?P<nm>[\w][\w'-]*)" + second("nm2")
            + r"|, (?P<nm1>" + _CAP + r")" + second("nm3") + r"(?=\s*(?:$|[,.;!])))?")  # fmt: skip


def names(g: Groups, glue: str) -> str:
    """The names captured by ``named``, joined with the language's "and"; "" when unsure."""
    first = g.get("nm") or g.get("nm1") or ""
    found = [name for name in (first, g.get("nm2") or g.get("nm3") or "") if name]
    if not found or any(name.lower() in _NAME_NOT for name in found):
        return ""
    found = [capitalise(name) for name in found]
    return f" {glue} ".join(found)


# --- recognising existing lines: (pattern, tier, key); "{o}" in a key is the object ---------
@dataclass(frozen=True)
class Kind:
    pattern: re.Pattern[str]
    tier: int
    key: str | None

    def key_of(self, match: re.Match[str]) -> str | None:
        if self.key is None:
            return None
        groups = match.groupdict()
        if "j" in groups:  # "È infermiera" is work, "È felice" is not
            word = (groups["j"] or "").lower()
            return self.key.rstrip("?") if word in v.JOBS or word in v.EN_JOBS else None
        if "r" in groups and groups["r"] is not None:
            noun = v.RELATIONS.get(groups["r"].lower())
            if not noun:
                return None
            if self.key == "rel":
                return f"rel:{noun}" if noun in v.SINGLE_RELATIONS else None
            return "has:" + singular(noun)
        if "o" in groups and groups["o"] is not None:
            return self.key.format(o=object_key(groups["o"]))
        return self.key


def kind(rx: str, tier: int, key: str | None) -> Kind:
    return Kind(re.compile(rx, re.IGNORECASE), tier, key)


def singular(noun: str) -> str:
    if noun.endswith("children"):
        return noun.removesuffix("ren")
    return noun.removesuffix("s")


def relation_key(word: str) -> str | None:
    """ "rel:wife" for a relation held once, else None ("Son is Leo": several sons)."""
    noun = v.RELATIONS.get(word.lower())
    return f"rel:{noun}" if noun in v.SINGLE_RELATIONS else None


def has_key(noun: str) -> str | None:
    canonical = v.RELATIONS.get(noun.lower())
    return "has:" + singular(canonical) if canonical else None
