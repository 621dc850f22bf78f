"""Replaying a long conversation through memory passes, as the product would run them.

Pure module; the format is in docs/MEMORY_EVAL.md. Each session is one conversation. A pass runs
every `turns_per_pass` turns, right after a remember request, and at a session's end for unread
turns; it reads the unread turns (the previous pass's go along as context) and the carried list.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from memory.evaluation.scenarios import ScenarioError
from memory.evaluation.scoring import PassOutcome, Spread, spread
from memory.rules.evidence import FUNCTION_WORD_TEXT, PREDICATE_TEXT
from memory.rules.lines import fold

Turn = dict[str, str]
# One pass: (current lines, new turns, context turns) in, the outcome out.
ReplayPropose = Callable[[list[str], list[Turn], list[Turn]], PassOutcome]

_WORD_RE: Final = re.compile(r"[^\W_]+")
_STEM: Final = 4  # "lives"/"live", "prefers"/"prefer", "allergica"/"allergic" share a stem
_STOPWORDS: Final = frozenset((FUNCTION_WORD_TEXT + PREDICATE_TEXT).split())
# A line is supported when at least this share of its content words appear in one user turn.
SUPPORT_SHARE: Final = 0.5


@dataclass(frozen=True)
class Session:
    date: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class SessionReport:
    index: int
    date: str
    turns: int
    passes: int
    errors: int
    lines_before: int
    lines_after: int
    tokens_after: int

    @property
    def growth(self) -> int:
        return self.lines_after - self.lines_before


@dataclass(frozen=True)
class ReplayReport:
    model: str
    sessions: tuple[SessionReport, ...]
    lines: tuple[str, ...] = field(repr=False)
    unsupported: tuple[str, ...] = field(repr=False)
    user_turns: int
    passes: int
    errors: int
    tokens_in: Spread
    tokens_out: Spread
    latency_ms: Spread


def load_replay(path: Path) -> list[Session]:
    """Read a replay file; errors name the file and the session index, never turn text."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ScenarioError(f"{path.name}: not readable as JSON ({type(error).__name__})") from None
    sessions = data.get("sessions") if isinstance(data, dict) else None
    if not isinstance(sessions, list) or not sessions:
        raise ScenarioError(f'{path.name}: expected {{"sessions": [...]}}')
    loaded = []
    for index, session in enumerate(sessions, start=1):
        turns = session.get("turns") if isinstance(session, dict) else None
        if not isinstance(turns, list) or not all(
            isinstance(t, dict)
            and t.get("role") in ("user", "assistant")
            and isinstance(t.get("content"), str)
            for t in turns
        ):
            raise ScenarioError(f"{path.name}: session {index} needs turns of role and content")
        loaded.append(
            Session(
                date=str(session.get("date") or ""),
                turns=tuple({"role": t["role"], "content": t["content"]} for t in turns),
            )
        )
    return loaded


def replay(
    model: str,
    sessions: Sequence[Session],
    propose: ReplayPropose,
    *,
    is_remember_request: Callable[[str], bool],
    turns_per_pass: int = 6,
) -> ReplayReport:
    """Run the passes of a whole replay, carrying the list forward from pass to pass."""
    state = _Replay(propose, turns_per_pass)
    reports = [
        state.session(index, session, is_remember_request)
        for index, session in enumerate(sessions, start=1)
    ]
    supports = [_stems(text) for text in state.read_user_turns]
    return ReplayReport(
        model=model,
        sessions=tuple(reports),
        lines=tuple(state.lines),
        unsupported=tuple(line for line in state.lines if not is_supported(line, supports)),
        user_turns=len(state.read_user_turns),
        passes=sum(r.passes for r in reports),
        errors=sum(r.errors for r in reports),
        tokens_in=spread([o.model_tokens_in for o in state.outcomes]),
        tokens_out=spread([o.model_tokens_out for o in state.outcomes]),
        latency_ms=spread([o.latency_ms for o in state.outcomes]),
    )


class _Replay:
    """The list carried forward, and what the passes read and cost so far."""

    def __init__(self, propose: ReplayPropose, turns_per_pass: int) -> None:
        self.propose = propose
        self.turns_per_pass = turns_per_pass
        self.lines: list[str] = []
        self.tokens = 0
        self.read_user_turns: list[str] = []
        self.outcomes: list[PassOutcome] = []

    def session(
        self, index: int, session: Session, is_remember_request: Callable[[str], bool]
    ) -> SessionReport:
        before, passes, errors = len(self.lines), 0, 0
        read = 0  # turns of this session already given to a pass
        remember_pending = False
        ends = []
        for position, turn in enumerate(session.turns, start=1):
            if turn["role"] == "user" and is_remember_request(turn["content"]):
                remember_pending = True
            # A boundary pass every N turns; a remember request fires right after the reply.
            if position % self.turns_per_pass == 0 or (
                remember_pending and turn["role"] == "assistant"
            ):
                ends.append(position)
                remember_pending = False
        if not ends or ends[-1] < len(session.turns):
            ends.append(len(session.turns))  # the turns left unread when the session ends
        for end in ends:
            new = list(session.turns[read:end])
            context = list(session.turns[max(0, read - self.turns_per_pass) : read])
            read = end
            if not any(t["role"] == "user" for t in new):
                continue  # nothing the person said: the product makes no model call either
            self.read_user_turns.extend(t["content"] for t in new if t["role"] == "user")
            outcome = self.propose(list(self.lines), new, context)
            passes += 1
            if outcome.lines is None:
                errors += 1  # the list stays as it was, as in the product
                continue
            self.outcomes.append(outcome)
            self.lines, self.tokens = list(outcome.lines), outcome.tokens
        return SessionReport(
            index=index,
            date=session.date,
            turns=len(session.turns),
            passes=passes,
            errors=errors,
            lines_before=before,
            lines_after=len(self.lines),
            tokens_after=self.tokens,
        )


def _stems(text: str) -> frozenset[str]:
    """Content words of a text, folded and cut to their first letters (a crude stem)."""
    return frozenset(
        word[:_STEM]
        for word in _WORD_RE.findall(fold(text))
        if word not in _STOPWORDS and (len(word) >= 3 or any(c.isdigit() for c in word))
    )


def is_supported(line: str, user_turns: Sequence[frozenset[str]]) -> bool:
    """Whether one user turn carries at least half of the line's content words.

    Lexical: a line in another language than the turn reads as unsupported. A line with no
    content word is not judged."""
    stems = _stems(line)
    if not stems:
        return True
    need = max(1, math.ceil(len(stems) * SUPPORT_SHARE))
    return any(len(stems & turn) >= need for turn in user_turns)


def supported_by(line: str, texts: Sequence[str]) -> bool:
    """``is_supported`` on raw user turn texts."""
    return is_supported(line, [_stems(text) for text in texts])
