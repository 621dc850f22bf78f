"""Where every line of a memory came from: its kind, conversation, when learned and changed.

Pure module. Every write computes the sources with `carry`: a kept line keeps its source, a
rewritten one its origin with a new `changed_at`, one brought back (restore, undo, merge) its
source from there; any other line is new.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, NotRequired, TypedDict

from memory.rules import evidence
from memory.rules.lines import fold


class Kind:
    """What produced a line (the API's ``kind``)."""

    LEARNED: Final = "learned"  # a scheduled pass over chat turns
    REMEMBERED: Final = "remembered"  # a pass over a turn that asked to remember
    VOICE: Final = "voice"  # a pass over a voice session
    ADDED: Final = "added"  # written by the person
    EDITED: Final = "edited"  # rewritten by the person
    MERGED: Final = "merged"  # brought over from a guest at signup or login
    IMPORTED: Final = "imported"  # pasted from another assistant (``memory.importing``)


KINDS: Final = (
    Kind.LEARNED,
    Kind.REMEMBERED,
    Kind.VOICE,
    Kind.ADDED,
    Kind.EDITED,
    Kind.MERGED,
    Kind.IMPORTED,
)
# The kinds a person wrote: no conversation produced them.
BY_HAND: Final = frozenset({Kind.ADDED, Kind.EDITED})
# Pinned: lines the person wrote, imported or asked to remember. A background pass or a condense
# never removes, merges or rewords them unless the person's own turn, cited, corrects or forgets
# them.
PINNED: Final = frozenset({Kind.ADDED, Kind.EDITED, Kind.REMEMBERED, Kind.IMPORTED})


class Source(TypedDict):
    kind: str
    conversation: int | None
    learned_at: str  # ISO 8601
    changed_at: str
    # A line pinned before it changed kind (a guest's own line, merged at signup).
    pinned: NotRequired[bool]
    # The person's message a pass learned it from, for a link to that very message.
    message: NotRequired[int]
    # The assistant an imported line came from ("chatgpt", "claude", "gemini", "other").
    product: NotRequired[str]


def is_pinned(src: Source) -> bool:
    return src["kind"] in PINNED or bool(src.get("pinned"))


def stamp(at: datetime) -> str:
    return at.isoformat()


def source(
    kind: str, at: datetime, *, conversation: int | None = None, message: int | None = None
) -> Source:
    """A line new at ``at``."""
    when = stamp(at)
    made = Source(kind=kind, conversation=conversation, learned_at=when, changed_at=when)
    if message is not None:
        made["message"] = message
    return made


def aligned(lines: Sequence[str], sources: Sequence[Source], fallback: Source) -> list[Source]:
    """One source per line: `sources` cut or padded with `fallback`."""
    kept = [Source(**item) for item in sources[: len(lines)]]
    return kept + [Source(**fallback) for _ in range(len(lines) - len(kept))]


def rewritten(old: Source, at: datetime) -> Source:
    """A line a pass (or a condense) rewrote: same origin, changed now."""
    return Source(**{**old, "changed_at": stamp(at)})


def edited(old: Source, at: datetime) -> Source:
    """A line the person rewrote: theirs now (no conversation), first learned when it was."""
    return Source(
        kind=Kind.EDITED, conversation=None, learned_at=old["learned_at"], changed_at=stamp(at)
    )


@dataclass(frozen=True)
class Origin:
    """What a write says of the lines it brings in: `new` sources, `known` ones brought back, and
    `by_hand` when the person rewrote them."""

    new: Callable[[str], Source]
    known: Mapping[str, Source] | None = None
    by_hand: bool = False


def carry(
    *,
    before: Sequence[str],
    sources: Sequence[Source],
    after: Sequence[str],
    changed: Iterable[tuple[str, str]],
    origin: Origin,
    at: datetime,
) -> list[Source]:
    """The sources of `after`, from those of `before` and the change record (from → to pairs)."""
    old = {line: src for line, src in zip(before, sources, strict=False)}
    old_of = {new: previous for previous, new in changed if previous in old}
    known = origin.known or {}
    rewrite = edited if origin.by_hand else rewritten
    result: list[Source] = []
    for line in after:
        if line in old:
            result.append(Source(**old[line]))
        elif line in known:
            result.append(Source(**known[line]))
        elif line in old_of:
            result.append(rewrite(old[old_of[line]], at))
        else:
            result.append(origin.new(line))
    return result


# --- Which turn a new line came from ----------------------------------------------------------

_WORD_RE: Final = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return {word for word in _WORD_RE.findall(fold(text)) if len(word) > 2}


@dataclass(frozen=True)
class Said:
    """A user turn a pass read: its conversation (None: a voice session) and its text."""

    conversation: int | None
    text: str
    remember: bool = False
    # Its number in the pass's transcript (what a model cites), when read by a pass.
    turn: int | None = None
    message: int | None = None  # the stored message (None: a voice turn)


def supporting(line: str, said: Sequence[Said]) -> int | None:
    """The index of the turn sharing most significant words with `line` (newest on a tie)."""
    if not said:
        return None
    words = _words(line)
    best, best_score = len(said) - 1, 0
    for index, turn in enumerate(said):
        score = len(words & _words(turn.text))
        if score and score >= best_score:
            best, best_score = index, score
    return best


def _asked_to_remember(said: Sequence[Said], index: int) -> bool:
    """The turn asked to remember, or the person's next turn there only asked to ("remember
    that", "ricordalo"); a next turn asking to remember a fact of its own is about that fact."""
    turn = said[index]
    following = [s for s in said[index + 1 :] if s.conversation == turn.conversation][:1]
    return turn.remember or any(s.remember and not evidence.stems(s.text) for s in following)


def restated_and_remembered(line: str, said: Sequence[Said], *, turn: int | None = None) -> bool:
    """The person said the fact of `line` again (its names, numbers and nouns, not only its
    verb: `evidence.restates`) in a turn asking to remember it, or followed by one. Only then
    may a forgotten line be written again. ``turn``: the turn the model cited, the only one
    looked at when given."""
    for index, spoken in enumerate(said):
        if turn is not None and spoken.turn != turn:
            continue
        if evidence.restates(line, spoken.text) and _asked_to_remember(said, index):
            return True
    return False


def learned_from(
    line: str, said: Sequence[Said], *, voice: bool, at: datetime, turn: int | None = None
) -> Source:
    """The source of a new line from a pass: the conversation of the turn the model cited
    (``turn``), else of its best supporting turn.

    `remembered` when that turn, or the next one there, asked to remember; `voice` for voice."""
    cited = [i for i, spoken in enumerate(said) if turn is not None and spoken.turn == turn]
    index = cited[0] if cited else supporting(line, said)
    if index is None:
        return source(Kind.VOICE if voice else Kind.LEARNED, at)
    if voice:
        return source(Kind.VOICE, at)
    spoken = said[index]
    kind = Kind.REMEMBERED if _asked_to_remember(said, index) else Kind.LEARNED
    return source(kind, at, conversation=spoken.conversation, message=spoken.message)
