"""Chat's side of ``memory.turns``: messages and voice sessions as turns (``ChatConfig.ready``)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from django.db import models
from django.db.models import Exists, F, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from chat.models import Conversation, Message, VoiceSession
from core import batch
from memory.turns import ContextTurn, Part, TurnState, UnreadTurn, VoiceWork

# A voice session is owed until its pass is done (a clear or memory off marks it done).
_VOICE_OWED = {"ended_at__isnull": False, "memory_pass_done_at__isnull": True}


class ChatTurns:
    """``memory.turns.TurnStore`` over ``Message.memory_state`` and ``VoiceSession``."""

    def unread(self, owner_id: int, *, limit: int) -> list[UnreadTurn]:
        rows = (
            Message.objects.filter(
                conversation__owner_id=owner_id,
                conversation__temporary=False,
                memory_state=TurnState.UNREAD,
            )
            .order_by("id")
            .values("id", "conversation_id", "role", "content", "tokens", "memory_read_to")[:limit]
        )
        return [
            UnreadTurn(
                id=row["id"],
                conversation_id=row["conversation_id"],
                role=row["role"],
                content=row["content"],
                tokens=row["tokens"],
                read_to=row["memory_read_to"],
            )
            for row in rows
        ]

    def read_before(
        self, conversation_id: int, *, before_id: int, after_id: int, limit: int
    ) -> list[ContextTurn]:
        rows = (
            Message.objects.filter(
                conversation_id=conversation_id,
                id__lt=before_id,
                id__gt=after_id,
                memory_state=TurnState.READ,
            )
            .order_by("-id")
            .values("role", "content")[:limit]
        )
        return [ContextTurn(role=r["role"], content=r["content"]) for r in reversed(rows)]

    def has_unread(self, owner_id: int) -> bool:
        return (
            Message.objects.filter(
                conversation__owner_id=owner_id,
                conversation__temporary=False,
                memory_state=TurnState.UNREAD,
            ).exists()
            or VoiceSession.objects.filter(owner_id=owner_id, **_VOICE_OWED).exists()
        )

    def read_marks(
        self, turn_ids: tuple[int, ...], *, version: object = None, parts: tuple[Part, ...] = ()
    ) -> list[batch.Update]:
        in_part = {part.turn_id: part for part in parts if part.turn_id in turn_ids}
        whole = [turn_id for turn_id in turn_ids if turn_id not in in_part]
        # A turn read in parts comes first, so locks go in id order (``core.db``).
        marks = [self._part_marks(part, version) for part in in_part.values()]
        if whole:
            read = {"memory_changed": version is not None, "memory_version": version}
            marks.append(self._marks(whole, {"memory_state": TurnState.READ, **read}))
        return marks

    def _part_marks(self, part: Part, version: object) -> batch.Update:
        """Move a long turn's read mark past one part, from exactly where that part starts."""
        marks: dict[str, object] = {"memory_read_to": part.end}
        if version is not None:  # this part changed the list: the turn says so
            marks.update(memory_changed=True, memory_version=version)
        if part.done:
            marks["memory_state"] = TurnState.READ
            if version is None:  # changed by an earlier part, or not at all
                marks["memory_changed"] = Coalesce(F("memory_changed"), Value(False))
        return self._marks([part.turn_id], marks, read_from=part.start)

    @staticmethod
    def _marks(
        turn_ids: list[int], marks: dict[str, object], read_from: int | None = None
    ) -> batch.Update:
        """``marks`` on each of the turns while unread (and read up to ``read_from``), which all
        of them must be."""
        turns = Message.objects.filter(pk__in=turn_ids, memory_state=TurnState.UNREAD)
        if read_from is not None:
            turns = turns.filter(memory_read_to=read_from)
        return batch.Update(turns, marks, expect=len(turn_ids))

    def mark_skipped(self, turn_ids: tuple[int, ...]) -> int:
        if not turn_ids:
            return 0
        return Message.objects.filter(pk__in=turn_ids, memory_state=TurnState.UNREAD).update(
            memory_state=TurnState.SKIPPED
        )

    def skip_unread_of(self, owner_id: int) -> int:
        return Message.objects.filter(
            conversation__owner_id=owner_id,
            memory_state__in=(TurnState.UNREAD, TurnState.PENDING),
        ).update(memory_state=TurnState.SKIPPED)

    def owners_with_pending(self, *, limit: int) -> list[int]:
        rows = Message.objects.filter(memory_state=TurnState.PENDING).values_list(
            "conversation__owner_id", flat=True
        )
        return list(rows.distinct()[:limit])

    def settle_pending(self, owner_id: int, *, enabled: bool, since: datetime | None) -> int:
        pending = Message.objects.filter(
            conversation__owner_id=owner_id, memory_state=TurnState.PENDING
        )
        if not enabled:
            pending.update(memory_state=TurnState.SKIPPED)
            return 0
        said_after = pending if since is None else pending.filter(created_at__gt=since)
        unread = said_after.update(memory_state=TurnState.UNREAD)
        pending.update(memory_state=TurnState.SKIPPED)  # said before the switch that came after
        return unread

    def skip_through(self, owner_id: int, last_id: int) -> int:
        return (
            Message.objects.filter(conversation__owner_id=owner_id, id__lte=last_id)
            .exclude(memory_state=TurnState.SKIPPED)
            .update(memory_state=TurnState.SKIPPED)
        )

    def newest_turn_id(self, owner_id: int) -> models.Subquery:
        return Subquery(
            Message.objects.filter(conversation__owner_id=owner_id).order_by("-id").values("id")[:1]
        )

    def voice_pending(self) -> models.Exists:
        return Exists(VoiceSession.objects.filter(owner_id=OuterRef("owner_id"), **_VOICE_OWED))

    def next_voice_work(self, owner_id: int) -> VoiceWork | None:
        session = (
            VoiceSession.objects.filter(owner_id=owner_id, **_VOICE_OWED)
            .order_by("ended_at", "id")
            .first()
        )
        if session is None:
            return None
        return VoiceWork(
            session_id=session.pk,
            transcript=[
                ContextTurn(role=str(t.get("role")), content=str(t.get("content")))
                for t in session.transcript
            ],
            turns_read=session.memory_turns_read,
            chars_read=session.memory_chars_read,
        )

    def mark_voice_read(
        self, session_id: int, *, start: int, end: int, done: bool, chars: tuple[int, int] = (0, 0)
    ) -> bool:
        return bool(
            VoiceSession.objects.filter(
                pk=session_id,
                memory_turns_read=start,
                memory_chars_read=chars[0],
                memory_pass_done_at__isnull=True,
            ).update(
                memory_turns_read=end,
                memory_chars_read=chars[1],
                memory_pass_done_at=timezone.now() if done else None,
            )
        )

    def close_voice_session(self, session_id: int) -> None:
        VoiceSession.objects.filter(pk=session_id).update(memory_pass_done_at=timezone.now())

    def close_voice_sessions_of(self, owner_id: int) -> None:
        VoiceSession.objects.filter(owner_id=owner_id, memory_pass_done_at__isnull=True).update(
            memory_pass_done_at=timezone.now()
        )

    def titles(self, owner_id: int, conversation_ids: Collection[int]) -> dict[int, str]:
        rows = Conversation.objects.filter(owner_id=owner_id, pk__in=list(conversation_ids))
        return dict(rows.values_list("pk", "title"))
