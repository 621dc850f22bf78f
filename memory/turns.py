"""Memory's port to the turns it learns from; the chat app implements it.

Chat owns messages and voice sessions. Memory states here what it needs (unread turns, a
little context, read marks) and chat plugs in its store from ``ChatConfig.ready``. Memory
imports nothing of chat.

Every mark is a conditional update returning how many turns it changed; the pass engine
compares that with what it read, so two racing passes never both read a turn.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypedDict

from django.db import models

from core import batch
from core.slots import Slot


class TurnState(models.IntegerChoices):
    """Where a turn stands for memory: every turn is read once as a source."""

    UNREAD = 0  # a source for the next pass
    READ = 1  # read by a pass: never a source again, may go along as context
    SKIPPED = 2  # cleared, said with memory off, or in a temporary chat: never read at all
    # Said while memory could not be read or told: not a source yet. Settled as memory was
    # then (``settle_pending``), by the sweeper or a switch: unread if on, skipped if off.
    PENDING = 3


class UnreadTurn(TypedDict):
    id: int
    conversation_id: int
    role: str
    content: str
    tokens: int | None
    # Characters earlier passes read: a turn over the transcript cap is read in parts and
    # stays unread until its last part.
    read_to: int


class ContextTurn(TypedDict):
    role: str
    content: str


@dataclass(frozen=True)
class Part:
    """What a pass read of one long turn: characters ``start`` to ``end`` (``done``: to its end)."""

    turn_id: int
    start: int
    end: int
    done: bool


@dataclass(frozen=True)
class VoiceWork:
    """An ended voice session no pass finished, and how much is read (turns, then characters)."""

    session_id: int
    transcript: list[ContextTurn]
    turns_read: int
    chars_read: int = 0


class TurnStore(Protocol):
    """What memory needs of the stored turns. Ids are the store's own; owners are user ids."""

    def unread(self, owner_id: int, *, limit: int) -> list[UnreadTurn]:
        """The owner's unread turns outside temporary chats, oldest first."""
        ...

    def read_before(
        self, conversation_id: int, *, before_id: int, after_id: int, limit: int
    ) -> list[ContextTurn]:
        """Up to ``limit`` read turns just before ``before_id`` (after ``after_id``, a clear's
        floor), oldest first."""
        ...

    def has_unread(self, owner_id: int) -> bool:
        """Unread turns or an ended, unfinished voice session of the owner."""
        ...

    def read_marks(
        self, turn_ids: tuple[int, ...], *, version: object = None, parts: tuple[Part, ...] = ()
    ) -> list[batch.Update]:
        """The writes that mark still-unread turns read, each expecting all of its turns
        (``core.batch``), so two racing passes never both read one. ``version``: the list
        version the pass wrote (a ``batch.Inserted``), None for no change; each turn keeps it,
        so chat can show the change. A turn in ``parts`` moves its mark from exactly the part's
        start to its end, so no part is read twice; it is read once its last part is."""
        ...

    def mark_skipped(self, turn_ids: tuple[int, ...]) -> int:
        """Put still-unread turns out of every pass's reach; how many were."""
        ...

    def skip_unread_of(self, owner_id: int) -> int:
        """Put every unread or pending turn of the owner out of reach (a clear)."""
        ...

    def owners_with_pending(self, *, limit: int) -> list[int]:
        """Owners with pending turns (``TurnState.PENDING``), at most ``limit`` of them."""
        ...

    def settle_pending(self, owner_id: int, *, enabled: bool, since: datetime | None) -> int:
        """Settle pending turns: unread if memory was on and no switch came after them
        (``since``), else skipped; how many became unread."""
        ...

    def skip_through(self, owner_id: int, last_id: int) -> int:
        """Skip the owner's turns up to ``last_id``, read or not: not even context (handover)."""
        ...

    def newest_turn_id(self, owner_id: int) -> models.Subquery:
        """The id of the owner's newest turn, as a subquery to use inside an update."""
        ...

    def voice_pending(self) -> models.Exists:
        """Whether ``OuterRef("owner_id")`` has an ended, unfinished voice session."""
        ...

    def next_voice_work(self, owner_id: int) -> VoiceWork | None:
        """The owner's oldest ended voice session no pass has finished."""
        ...

    def mark_voice_read(
        self, session_id: int, *, start: int, end: int, done: bool, chars: tuple[int, int] = (0, 0)
    ) -> bool:
        """Move the session's read mark from ``start`` to ``end`` and ``chars`` into a long
        turn; False when another pass moved it first."""
        ...

    def close_voice_session(self, session_id: int) -> None:
        """Never read this session (again): a pass gave up on it."""
        ...

    def close_voice_sessions_of(self, owner_id: int) -> None:
        """Never read any unfinished session of the owner."""
        ...

    def titles(self, owner_id: int, conversation_ids: Collection[int]) -> dict[int, str]:
        """Titles of the owner's conversations among ``conversation_ids``, in one query."""
        ...


_slot: Slot[TurnStore] = Slot("turn store", "the chat app")
# Plug in the implementation (``AppConfig.ready`` of the chat app), and get it.
use = _slot.fill
store = _slot.get
