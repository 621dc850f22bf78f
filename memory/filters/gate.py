"""Code-side refusals: whatever the memory model proposes, code decides what is stored.

Pure module. SPEC §3: a stored line is obeyed in every future conversation, so secrets, links,
markup, instructions, duplicates and lines outside 3-160 characters are refused anywhere in it.
A refused line is only counted by reason; its text never reaches a log or an exception.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from memory.filters.grammar import has_markup, is_instruction
from memory.filters.links import has_link
from memory.filters.normalize import (
    for_checks,
    has_hidden_characters,
    has_mixed_script,
    spelled_digits,
    unleet,
    unspace,
)
from memory.filters.secrets import is_secret
from memory.rules.lines import clean_line, fold, line_key

RefusalReason = Literal["length", "secret", "markup", "link", "instruction"]

# Bump when a rule refuses more: lines checked under an older version are checked again, in
# passes and, until then, on every chat read. A rule that only keeps more needs no bump. What
# each version added is in git history.
RULES_VERSION: Final = 13
MIN_CHARS: Final = 3
MAX_CHARS: Final = 160


def refusal_reason(line: str) -> RefusalReason | None:
    """Why `line` must not be stored, or None.

    In order: "length", "secret", "markup", "link", "instruction".
    """
    cleaned = clean_line(line)
    if not MIN_CHARS <= len(cleaned) <= MAX_CHARS:
        return "length"
    # The checks read look-alikes folded ("４１１１", a Cyrillic "а") and spaced-out letters as
    # words; the line is stored as written.
    text = for_checks(clean_line(unspace(line)))
    folded = fold(text)
    # Leetspeak ("4lw4ys r3c0mm3nd", "S5N", "d00r c0d3") is read in letters too, in its case.
    readings = unleet(text)
    folded_readings = [fold(reading) for reading in readings]
    spelled = spelled_digits(folded)
    if (
        is_secret(text, folded)
        or any(is_secret(reading, reading) for reading in folded_readings)
        or (spelled != folded and is_secret(spelled, spelled))
    ):
        return "secret"
    if has_markup(text):
        return "markup"
    if has_link(text):
        return "link"
    # Look-alike or invisible letters inside a word are a disguise, whatever the word says.
    if has_mixed_script(clean_line(line)) or has_hidden_characters(line):
        return "markup"
    if is_instruction(text) or any(is_instruction(reading) for reading in readings):
        return "instruction"
    return None


# When rules change, stored lines are checked again. Most of a list failing at once says the
# rules are wrong, not the lines: then none is removed (issue 26: never all at once by one match).
SCREEN_HOLD_MIN: Final = 5
SCREEN_HOLD_SHARE: Final = 0.5


@dataclass(frozen=True)
class Screening:
    """Stored lines checked again under today's rules."""

    kept: list[str]
    removed: list[tuple[str, RefusalReason]]
    held: bool = False
    # How many lines failed (all kept when held).
    failing: int = 0


def screen(lines: Sequence[str]) -> Screening:
    """Which stored lines today's rules refuse, unless so many that the rules look wrong."""
    removed: list[tuple[str, RefusalReason]] = []
    kept: list[str] = []
    for line in lines:
        reason = refusal_reason(line)
        if reason is None:
            kept.append(line)
        else:
            removed.append((line, reason))
    if len(removed) >= SCREEN_HOLD_MIN and len(removed) > SCREEN_HOLD_SHARE * len(lines):
        return Screening(kept=list(lines), removed=[], held=True, failing=len(removed))
    return Screening(kept=kept, removed=removed, failing=len(removed))


@dataclass(frozen=True)
class ValidationResult:
    """Lines that may be stored, and how many were refused for each reason."""

    lines: list[str]
    refused: Counter[str] = field(default_factory=Counter)


def validate_lines(
    candidates: Iterable[str], *, known_good: Collection[str] = ()
) -> ValidationResult:
    """Keep acceptable lines once each, in order; refusals are counted. `known_good` lines skip
    the checks, not deduplication."""
    kept: list[str] = []
    refused: Counter[str] = Counter()
    seen: set[str] = set()
    for candidate in candidates:
        line = clean_line(candidate)
        # The candidate as proposed: its double spaces separate spaced-out words.
        reason = None if line in known_good else refusal_reason(candidate)
        if reason is not None:
            refused[reason] += 1
            continue
        key = line_key(line)
        if key in seen:
            refused["duplicate"] += 1
            continue
        seen.add(key)
        kept.append(line)
    return ValidationResult(lines=kept, refused=refused)
