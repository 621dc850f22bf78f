"""What one write did to the list (added, changed from → to, removed), for history and undo.

Pure module. The record is the diff of the two lists, so even a line a pass removed unasked is
named and one Undo brings it back. Pairing removed with added lines is a guess (a writer's hint,
then a shared word, then likeness); any pairing reverts to the same list.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from memory.rules.lines import fold

# Leftover lines (a removal and an addition anywhere) read as one change from this similarity.
_ALIKE: Final = 0.6
_WORD_RE: Final = re.compile(r"\w+")


@dataclass(frozen=True)
class ChangeRecord:
    added: list[str] = field(default_factory=list)
    changed: list[tuple[str, str]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # Removed at the person's cited request (tombstoned), shown as "Forgot …".
    forgotten: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.changed or self.removed or self.forgotten)


def _words(text: str) -> set[str]:
    return {word for word in _WORD_RE.findall(fold(text)) if len(word) > 2}


def _share_a_word(old: str, new: str) -> bool:
    return bool(_words(old) & _words(new))


def _ratio(old: str, new: str) -> float:
    return difflib.SequenceMatcher(a=fold(old), b=fold(new), autojunk=False).ratio()


def diff(
    before: Sequence[str], after: Sequence[str], *, pairs: Iterable[tuple[str, str]] = ()
) -> ChangeRecord:
    """The change that turned ``before`` into ``after``; ``pairs``: (from, to) the writer knows."""
    kept_before, kept_after = set(after), set(before)
    removed = [line for line in before if line not in kept_before]
    added = [line for line in after if line not in kept_after]
    changed: list[tuple[str, str]] = []

    def pair(old: str, new: str) -> None:
        changed.append((old, new))
        removed.remove(old)
        added.remove(new)

    for old, new in pairs:
        if old in removed and new in added:
            pair(old, new)
    matcher = difflib.SequenceMatcher(a=list(before), b=list(after), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        for old, new in zip(before[i1:i2], after[j1:j2], strict=False):
            if old in removed and new in added and _share_a_word(old, new):
                pair(old, new)
    for old in list(removed):
        scored = [(_ratio(old, new), new) for new in added]
        best = max(scored, default=(0.0, ""))
        if best[0] >= _ALIKE:
            pair(old, best[1])
    return ChangeRecord(added=added, changed=changed, removed=removed)


def revert(lines: Sequence[str], record: ChangeRecord) -> list[str]:
    """`lines` with `record` undone; removed lines come back at the end (a list has no order)."""
    back = {new: old for old, new in record.changed}
    added = set(record.added)
    reverted = [back.get(line, line) for line in lines if line not in added]
    reverted.extend(line for line in [*record.removed, *record.forgotten] if line not in reverted)
    return reverted


def one(record: ChangeRecord, item: int) -> ChangeRecord | None:
    """The ``item``-th line of ``record`` alone, counted as a receipt shows them (added,
    changed, removed, forgotten); None past the end."""
    parts = _parts(record)
    return parts[item] if 0 <= item < len(parts) else None


def _parts(record: ChangeRecord) -> list[ChangeRecord]:
    return [
        *(ChangeRecord(added=[line]) for line in record.added),
        *(ChangeRecord(changed=[pair]) for pair in record.changed),
        *(ChangeRecord(removed=[line]) for line in record.removed),
        *(ChangeRecord(forgotten=[line]) for line in record.forgotten),
    ]


def holds(lines: Sequence[str], record: ChangeRecord) -> bool:
    """``record``'s change still stands in ``lines``: what it added or rewrote is there, what it
    removed is not. Only then does undoing it mean anything."""
    there = set(lines)
    return (
        all(line in there for line in record.added)
        and all(new in there and old not in there for old, new in record.changed)
        and not any(line in there for line in [*record.removed, *record.forgotten])
    )


def standing(lines: Sequence[str], record: ChangeRecord) -> tuple[bool, ...]:
    """Whether each line of ``record`` (in ``one``'s order) still stands in ``lines``."""
    return tuple(holds(lines, single) for single in _parts(record))


def inverse_pairs(record: ChangeRecord) -> list[tuple[str, str]]:
    """The (from, to) pairs of the change that undoes ``record``."""
    return [(new, old) for old, new in record.changed]


def without(record: ChangeRecord, forgotten: Callable[[str], bool]) -> ChangeRecord:
    """`record` without forgotten lines, so an undo never brings one back."""
    added = [line for line in record.added if not forgotten(line)]
    removed = [line for line in record.removed if not forgotten(line)]
    held = [line for line in record.forgotten if not forgotten(line)]
    changed: list[tuple[str, str]] = []
    for old, new in record.changed:
        if forgotten(old) and not forgotten(new):
            added.append(new)
        elif forgotten(new) and not forgotten(old):
            removed.append(old)
        elif not forgotten(old):
            changed.append((old, new))
    return ChangeRecord(added=added, changed=changed, removed=removed, forgotten=held)
