"""Memory's view of the turns it learns from: a narrow port the chat app implements.

Memory reads what people say but does not own where it is stored: chat keeps messages and voice
sessions. So memory says here what it needs of them — the unread turns, a little context, the
marks that make every turn read exactly once — and the chat app plugs its implementation in as
it loads (``use``, from ``ChatConfig.ready``). Memory imports nothing of chat; the dependency
points one way, from chat to memory.

Every mark is a conditional update that returns how many turns it changed: the pass engine
compares that count with what it read, which is what keeps two racing passes from both reading
the same turn (``memory.engine.passes``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypedDict

from django.db import models

from core.slots import Slot


class TurnState(models.IntegerChoices):
    """Where a turn stands for memory: every turn is read exactly once as a source."""

    UNREAD = 0  # a source for the next pass
    READ = 1  # read by a pass: never a source again, may go along as context
    SKIPPED = 2  # cleared, said with memory off, or in a temporary chat: never read at all
    # Said while memory could not be read or told (its table locked, the database slow): not a
    # source yet. Settled as memory was when it was said (``settle_pending``), by the sweeper
    # or by the switch: unread (and a pass owed) with memory on, skipped with it off.
    PENDING = 3


class UnreadTurn(TypedDict):
    id: int
    conversation_id: int
    role: str
    content: str
    tokens: int | None
    # Characters of ``content`` earlier passes read: a turn longer than the transcript cap is
    # read in parts, and stays unread until its last part is.
    read_to: int


class ContextTurn(TypedDict):
    role: str
    content: str


@dataclass(frozen=True)
class Part:
    """What a pass read of one long turn: its characters from ``start`` to ``end`` (``done``:
    to the end of the turn). Every other turn a pass reads, it reads whole."""

    turn_id: int
    start: int
    end: int
    done: bool


@dataclass(frozen=True)
class VoiceWork:
    """An ended voice session no pass has finished: its transcript and how much is read
    (``turns_read`` whole turns, then ``chars_read`` characters of the next one)."""

    session_id: int
    transcript: list[ContextTurn]
    turns_read: int
    chars_read: int = 0


@dataclass(frozen=True)
class VersionMade:
    """The version of a memory's list a pass wrote (``MemoryVersion.version``): each turn it
    read keeps it, so the chat can show what that turn changed."""

    memory_id: int
    version: int


class TurnStore(Protocol):
    """What memory needs of the stored turns. Ids are the store's own; owners are user ids."""

    def unread(self, owner_id: int, *, limit: int) -> list[UnreadTurn]:
        """The owner's unread turns outside temporary chats, oldest first."""
        ...

    def read_before(
        self, conversation_id: int, *, before_id: int, after_id: int, limit: int
    ) -> list[ContextTurn]:
        """Up to ``limit`` already-read turns of a conversation just before ``before_id`` (and
        after ``after_id``, the floor a clear set), oldest first."""
        ...

    def has_unread(self, owner_id: int) -> bool:
        """Unread turns or an ended, unfinished voice session of the owner."""
        ...

    def mark_read(
        self,
        turn_ids: tuple[int, ...],
        *,
        made: VersionMade | None = None,
        parts: tuple[Part, ...] = (),
    ) -> int:
        """Mark these turns read if they are still unread, with what the pass that read them
        did to the list (``made``: the version it wrote; None: it changed nothing); how many
        were. A turn of ``parts`` was read only in part: its read mark moves from exactly the
        part's start to its end (so no part is read twice), and it is read once its last part
        is; a part that changed the list is what the turn says it did."""
        ...

    def mark_skipped(self, turn_ids: tuple[int, ...]) -> int:
        """Put these turns, if still unread, out of every pass's reach; how many were."""
        ...

    def skip_unread_of(self, owner_id: int) -> int:
        """Put every unread or pending turn of the owner out of every pass's reach (a clear)."""
        ...

    def owners_with_pending(self, *, limit: int) -> list[int]:
        """Owners with pending turns (``TurnState.PENDING``), at most ``limit`` of them."""
        ...

    def settle_pending(self, owner_id: int, *, enabled: bool, since: datetime | None) -> int:
        """Decide the owner's pending turns as memory was when they were said: unread if it
        was on (``enabled``) and no switch came after them (``since``: the last switch, which
        settled what came before it), else skipped; how many became unread."""
        ...

    def skip_through(self, owner_id: int, last_id: int) -> int:
        """Turns of the owner up to ``last_id`` (a clear's floor) become skipped, read or not,
        so they never go along even as context (a guest handing over to an account)."""
        ...

    def newest_turn_id(self, owner_id: int) -> models.Subquery:
        """The id of the owner's newest turn, as a subquery to use inside an update."""
        ...

    def voice_pending(self) -> models.Exists:
        """Whether the owner (``OuterRef("owner_id")``) has an ended, unfinished voice session,
        as an expression to annotate a memory query with."""
        ...

    def next_voice_work(self, owner_id: int) -> VoiceWork | None:
        """The owner's oldest ended voice session no pass has finished."""
        ...

    def mark_voice_read(
        self, session_id: int, *, start: int, end: int, done: bool, chars: tuple[int, int] = (0, 0)
    ) -> bool:
        """Move the session's read mark from ``start`` to ``end`` (``done``: all read), and
        from ``chars[0]`` to ``chars[1]`` characters into the turn it stands at (a long turn
        read in parts); False when another pass moved it first."""
        ...

    def close_voice_session(self, session_id: int) -> None:
        """This session is never read (again): a pass gave up on it."""
        ...

    def close_voice_sessions_of(self, owner_id: int) -> None:
        """Every session of the owner not finished yet, ended or running, is never read."""
        ...

    def titles(self, owner_id: int, conversation_ids: Collection[int]) -> dict[int, str]:
        """The titles of those of ``conversation_ids`` the owner still has, in one query (a
        conversation deleted, or anyone else's, is absent)."""
        ...


_slot: Slot[TurnStore] = Slot("turn store", "the chat app")
# Plug in the implementation (``AppConfig.ready`` of the chat app), and get it.
use = _slot.fill
store = _slot.get
