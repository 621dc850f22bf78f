"""What a pass reads: every turn no pass has read yet, oldest first and within the transcript
cap, with a few already-read turns as context; or an ended voice session, a part at a time.

Every turn is read exactly once as a source (``memory.turns``): the pass engine
(``memory.passes``) marks what it read in the transaction that stores the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from memory import budget, prompts, provenance, turns
from memory.models import Memory
from memory.triggers import is_forget_request, is_remember_request

# At most this many unread turns are looked at per round (the transcript cap usually binds first).
UNREAD_TURNS_SCANNED = 500
# Already-read turns that go along as context, per conversation with new turns, and their size.
CONTEXT_TURNS = 4
CONTEXT_CONVERSATIONS = 8
CONTEXT_TURN_CHARS = 1_000


Turn = dict[str, Any]


@dataclass(frozen=True)
class Work:
    """What one pass reads: the new turns (its only sources), the already-read turns that go
    along as context, and what to mark read once the pass is stored."""

    task: prompts.Task
    transcript: list[Turn]
    forget_requested: bool
    context: list[Turn] = field(default_factory=list)
    message_ids: tuple[int, ...] = ()
    voice_session_id: int | None = None
    # The voice turns this pass reads: from (already read before) to (read once stored).
    voice_turns: tuple[int, int] = (0, 0)
    # Unread turns are left for another round (the transcript cap, or a long backlog).
    more: bool = False
    # The conversation of each number a chat transcript's turns carry (``conversation``: 1 is
    # the first): where a line this pass writes came from. The model sees only the numbers.
    conversations: tuple[int, ...] = ()

    def said(self) -> list[provenance.Said]:
        """What the person said in this work, oldest first, with its conversation."""
        return [
            provenance.Said(
                conversation=self._conversation(turn),
                text=turn["content"],
                remember=is_remember_request(turn["content"]),
            )
            for turn in self.transcript
            if turn["role"] == "user"
        ]

    def _conversation(self, turn: Turn) -> int | None:
        number = turn.get("conversation")
        if not isinstance(number, int) or not 0 < number <= len(self.conversations):
            return None
        return self.conversations[number - 1]


def next_work(memory: Memory, *, turns_at_most: int | None = None) -> Work | None:
    """The next work of the memory's pass; ``turns_at_most`` reads fewer turns than the cap
    allows (a pass splitting work the model failed on), the rest left for the next round."""
    voice = None
    if getattr(memory, "voice_pending", True):
        voice = turns.store().next_voice_work(memory.owner_id)
    if voice is not None:
        said: list[Turn] = [dict(turn) for turn in voice.transcript]
        start = voice.turns_read
        taken = fit_transcript(said[start:])[:turns_at_most]
        end = start + len(taken)
        return Work(
            task="voice",
            transcript=taken,
            # A long session is read over several passes; what came before goes as context.
            context=said[max(0, start - CONTEXT_TURNS) : start],
            forget_requested=asks_to_forget(taken),
            voice_session_id=voice.session_id,
            voice_turns=(start, end),
            more=end < len(said),
        )
    return _chat_work(memory, turns_at_most)


def _chat_work(memory: Memory, turns_at_most: int | None = None) -> Work | None:
    """Every turn no pass has read yet, oldest first, across conversations, within the
    transcript cap; what does not fit stays unread for the next round."""
    unread: list[Turn] = [
        dict(turn) for turn in turns.store().unread(memory.owner_id, limit=UNREAD_TURNS_SCANNED)
    ]
    if not unread:
        return None
    taken = fit_transcript(unread)[:turns_at_most]
    numbers: dict[int, int] = {}
    for row in taken:
        numbers.setdefault(row["conversation_id"], len(numbers) + 1)
    transcript = [
        {"role": r["role"], "content": r["content"], "conversation": numbers[r["conversation_id"]]}
        for r in taken
    ]
    return Work(
        task="rewrite",
        transcript=transcript,
        forget_requested=asks_to_forget(transcript),
        context=_context(memory, taken, numbers),
        message_ids=tuple(r["id"] for r in taken),
        more=len(taken) < len(unread) or len(unread) == UNREAD_TURNS_SCANNED,
        conversations=tuple(numbers),
    )


def _context(memory: Memory, taken: list[Turn], numbers: dict[int, int]) -> list[Turn]:
    """The few turns just before the new ones in each conversation, already read by a pass:
    they help the model understand the new turns and are never a source. Nothing from before
    a clear goes along, and nothing a pass did not read (said with memory off)."""
    first_new: dict[int, int] = {}
    for row in taken:
        first_new.setdefault(row["conversation_id"], row["id"])
    context: list[Turn] = []
    for conversation_id, first_id in list(first_new.items())[:CONTEXT_CONVERSATIONS]:
        rows = turns.store().read_before(
            conversation_id,
            before_id=first_id,
            after_id=memory.context_from_id,
            limit=CONTEXT_TURNS,
        )
        context.extend(
            {
                "role": r["role"],
                "content": r["content"][:CONTEXT_TURN_CHARS],
                "conversation": numbers[conversation_id],
            }
            for r in rows
        )
    return context


def asks_to_forget(turns: list[Turn]) -> bool:
    return any(t["role"] == "user" and is_forget_request(t["content"]) for t in turns)


def asks_to_remember(turns: list[Turn]) -> bool:
    return any(t["role"] == "user" and is_remember_request(t["content"]) for t in turns)


def fit_transcript(turns: list[Turn]) -> list[Turn]:
    """The oldest turns that fit in the transcript cap (SPEC §2: 20,000 tokens), in order; a
    single turn larger than the cap alone is cut to fit, so a pass always makes progress. A
    turn's ``tokens``, when the message stored them, are not counted again."""
    limit = settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT
    # A token is at least one byte: a transcript with fewer bytes than the cap fits uncounted.
    if sum(len(t["content"].encode()) + 4 for t in turns) <= limit:
        return turns
    kept: list[Turn] = []
    remaining = limit
    for turn in turns:
        stored = turn.get("tokens")
        cost = (budget.count_tokens(turn["content"]) if stored is None else stored) + 4
        if cost > remaining:
            if not kept:
                kept.append(
                    {**turn, "content": budget.truncate_to_tokens(turn["content"], limit - 4)}
                )
            break
        kept.append(turn)
        remaining -= cost
    return kept
