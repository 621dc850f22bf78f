"""What the offline memory model reads in one text, through `memory.offline.lang_*` ("Vivo a
Torino" → "Vive a Torino"); an unsure capture gives no line.
"""

from __future__ import annotations

import re
from typing import Final

from memory.offline import (
    colloquial,
    lang_de,
    lang_en,
    lang_es,
    lang_fr,
    lang_it,
    lang_pt,
    style,
    thirdperson,
)
from memory.offline import patterns as p
from memory.offline.rules import Fact, Kind, Rule

MIN_LINE: Final = 3
MAX_LINE: Final = 160

__all__ = ["Fact", "classify_line", "extract", "note_facts"]

_LANGS: Final = (lang_en, lang_it, lang_fr, lang_es, lang_de, lang_pt)
RULES: Final[tuple[Rule, ...]] = tuple(rule for lang in _LANGS for rule in lang.RULES)
# The style lines first: "Prefers short answers" is a style wish, not any preference.
KINDS: Final[tuple[Kind, ...]] = style.KINDS + tuple(kind for lang in _LANGS for kind in lang.KINDS)


_UND_RE: Final = re.compile(r"\s+und\s+", re.IGNORECASE)


def _variants(clause: str) -> list[str]:
    """The clause, its standard form when colloquial, and German main-clause order of either."""
    variants = [clause]
    standard = colloquial.standard(clause)
    if standard:
        variants.append(standard)
    for text in list(variants):
        # "… und am Wochenende gehe ich segeln": the inverted clause after "und" too.
        for part in [text, *_UND_RE.split(text)[1:]]:
            reordered = lang_de.reorder(part)
            if reordered and reordered not in variants:
                variants.append(reordered)
    return variants


def extract(text: str, *, strict: bool = False, sensitive_ok: bool = False) -> list[Fact]:
    """Facts the person states about themself; health needs `sensitive_ok`, voice `strict`."""
    facts: list[Fact] = []
    for said in p.split_sentences(p.drop_quotes(text)):
        # A statement before a question back to the assistant counts ("I'm a nurse, any
        # tips?"); of reported speech only the words before it are the person's.
        sentence = p.before_reported(p.statement_part(said) or "")
        if not sentence or p.is_sarcastic(said):
            continue
        sentence = colloquial.standard(sentence) or sentence
        found = len(facts)
        start = 0
        for clause in p.split_clauses(sentence):
            keys: set[str] = set()
            # A hypothetical is read up to the end of this clause: "…, in case I ask" after a
            # fact leaves it a fact, "If I lived in Paris" before it does not.
            at = sentence.find(clause, start)
            start = at + len(clause) if at >= 0 else start
            said_so_far = sentence[:start] if at >= 0 else sentence
            for variant in _variants(clause):
                for rule in RULES:
                    fact = _apply(rule, variant, sentence, said_so_far, strict, sensitive_ok)
                    # One value per kind and clause: the first, most specific rule wins.
                    if not fact or fact in facts or (fact.key and fact.key in keys):
                        continue
                    facts.append(fact)
                    if fact.key:
                        keys.add(fact.key)
        # An answer-style wish a "prefer" rule did not already read ("Prefers short answers").
        if not any((fact.key or "").startswith("pref:") for fact in facts[found:]):
            for fact in style.style_facts(sentence, asked=sensitive_ok):
                if fact not in facts and line_ok(fact.line, strict):
                    facts.append(fact)
    return facts


def _apply(
    rule: Rule, clause: str, sentence: str, prefix: str, strict: bool, sensitive: bool
) -> Fact | None:
    """One rule on one clause; ``prefix`` is the sentence up to the end of the clause."""
    if rule.sensitive and not sensitive:
        return None
    match = rule.pattern.search(sentence if rule.whole else clause)
    if not match:
        return None
    said = sentence[: max(len(prefix), match.end())] if rule.whole else prefix
    if p.is_hypothetical(said, rule.lang):
        return None
    if rule.habitual and p.is_one_off(sentence):
        return None
    if not rule.negative and p.is_negated(_negation_scope(clause, match), rule.lang):
        return None
    try:
        fact = rule.build(match, strict)
    except (KeyError, IndexError, ValueError):  # one odd capture costs one fact, not the pass
        return None
    return fact if fact and line_ok(fact.line, strict) else None


# A negation after "and"/"but" is about what follows, not the fact before it.
_AND_RE: Final = re.compile(r"\s(?:and|but|e|ed|ma|mas|et|mais|y|pero|und|aber)\s", re.IGNORECASE)


def _negation_scope(clause: str, match: re.Match[str]) -> str:
    """The clause up to the first "and"/"but" after what the rule read."""
    if match.string is not clause or match.end() >= len(clause):
        return clause
    return clause[: match.end()] + _AND_RE.split(clause[match.end() :], maxsplit=1)[0]


def line_ok(line: str, strict: bool) -> bool:
    """Length within bounds, nothing a voice transcript could have misheard, nothing unsafe."""
    if not MIN_LINE <= len(line) <= MAX_LINE or p.unsafe_line(line):
        return False
    if thirdperson.is_fragment(line):  # "Loves to", "Likes every day": no object
        return False
    # A voice transcript can mishear: symbols and stray characters make a line suspect.
    return not strict or bool(p.VOICE_SAFE_RE.fullmatch(line))


def note_facts(note: str, *, strict: bool) -> list[Fact]:
    """Facts of an explicit "remember that …" that a rule can rewrite with confidence.

    A raw first-person sentence is never stored."""
    note = note.strip().rstrip("?!.;").strip()
    return extract(note, strict=strict, sensitive_ok=True)


def classify_line(line: str) -> tuple[int, str | None]:
    """Return (tier, key) of a memory line; lines sharing a non-None key hold one value."""
    text = p.normalise(line).rstrip(".").strip()
    for kind in KINDS:
        match = kind.pattern.match(text)
        if match:
            return kind.tier, kind.key_of(match)
    return p.TIER_NOTE, None
