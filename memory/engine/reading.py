"""What a pass reads: unread turns, oldest first within the transcript cap, with a few read
turns as context; or an ended voice session, a part at a time.

Every turn is read once as a source: the engine marks what it read in the transaction that
stores the list. A turn over the cap is read in parts, in order; it stays unread until its last
part, and what was read of it goes along as context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from memory import turns
from memory.models import Memory
from memory.rules import budget, prompts, provenance
from memory.rules.triggers import is_forget_request, is_remember_request

# Unread turns looked at per round (the transcript cap usually binds first).
UNREAD_TURNS_SCANNED = 500
# Read turns sent as context, per conversation with new turns, and their size.
CONTEXT_TURNS = 4
CONTEXT_CONVERSATIONS = 8
CONTEXT_TURN_CHARS = 1_000


Turn = dict[str, Any]


@dataclass(frozen=True)
class Work:
    """One pass's reading: new turns (its only sources), context, and what to mark read."""

    task: prompts.Task
    transcript: list[Turn]
    forget_requested: bool
    context: list[Turn] = field(default_factory=list)
    message_ids: tuple[int, ...] = ()
    voice_session_id: int | None = None
    # Voice turns read: from, to, and characters read at each end (a long turn in parts).
    voice_turns: tuple[int, int] = (0, 0)
    voice_chars: tuple[int, int] = (0, 0)
    # Turns read only in part, and the whole text of each such transcript turn, by place.
    parts: tuple[turns.Part, ...] = ()
    whole_texts: dict[int, str] = field(default_factory=dict)
    # Unread turns left for another round.
    more: bool = False
    # Each transcript number's conversation (1 is the first): a new line's source. The model
    # sees only the numbers.
    conversations: tuple[int, ...] = ()

    def said(self) -> list[provenance.Said]:
        """What the person said, oldest first, with its conversation. A part asks to remember
        when its turn does."""
        return [
            provenance.Said(
                conversation=self._conversation(turn),
                text=turn["content"],
                remember=is_remember_request(self._whole_text(place, turn)),
                turn=place + 1,
                message=self._message(place),
            )
            for place, turn in enumerate(self.transcript)
            if turn["role"] == "user"
        ]

    def person_turns(self) -> dict[int, str]:
        """The person's turns by their number in the request (from 1)."""
        return {
            place + 1: turn["content"]
            for place, turn in enumerate(self.transcript)
            if turn["role"] == "user"
        }

    def _whole_text(self, place: int, turn: Turn) -> str:
        text: str = self.whole_texts.get(place) or turn["content"]
        return text

    def _message(self, place: int) -> int | None:
        return self.message_ids[place] if place < len(self.message_ids) else None

    def _conversation(self, turn: Turn) -> int | None:
        number = turn.get("conversation")
        if not isinstance(number, int) or not 0 < number <= len(self.conversations):
            return None
        return self.conversations[number - 1]


def next_work(memory: Memory, *, turns_at_most: int | None = None) -> Work | None:
    """The memory's next work; ``turns_at_most`` reads fewer turns (splitting failed work)."""
    voice = None
    if getattr(memory, "voice_pending", True):
        voice = turns.store().next_voice_work(memory.owner_id)
    if voice is not None:
        return _voice_work(voice, turns_at_most)
    return _chat_work(memory, turns_at_most)


def _voice_work(voice: turns.VoiceWork, turns_at_most: int | None = None) -> Work:
    """The session's next turns within the cap, from where the last pass stopped."""
    said: list[Turn] = [dict(turn) for turn in voice.transcript]
    start = voice.turns_read
    unread = said[start:]
    if unread:
        unread[0] = {**unread[0], "read_to": voice.chars_read}
    taken = fit_transcript(unread)[:turns_at_most]
    last_done = not taken or taken[-1]["done"]
    end = start + len(taken) - (0 if last_done else 1)
    transcript = [{"role": t["role"], "content": t["content"]} for t in taken]
    # A long session takes several passes; what came before goes as context.
    context = said[max(0, start - CONTEXT_TURNS) : start]
    if taken and taken[0]["start"]:
        context.append(_read_so_far(unread[0]))
    return Work(
        task="voice",
        transcript=transcript,
        context=context,
        forget_requested=asks_to_forget(transcript),
        voice_session_id=voice.session_id,
        voice_turns=(start, end),
        voice_chars=(voice.chars_read, 0 if last_done else taken[-1]["end"]),
        more=end < len(said),
        whole_texts=_whole_texts(unread, taken),
    )


def _chat_work(memory: Memory, turns_at_most: int | None = None) -> Work | None:
    """Unread turns, oldest first across conversations, within the cap; the rest wait."""
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
    parts = tuple(
        turns.Part(turn_id=r["id"], start=r["start"], end=r["end"], done=r["done"])
        for r in taken
        if r["start"] or not r["done"]
    )
    return Work(
        task="rewrite",
        transcript=transcript,
        forget_requested=asks_to_forget(transcript),
        context=_context(memory, taken, numbers, unread),
        message_ids=tuple(r["id"] for r in taken),
        parts=parts,
        more=(
            len(taken) < len(unread)
            or len(unread) == UNREAD_TURNS_SCANNED
            or not all(part.done for part in parts)
        ),
        conversations=tuple(numbers),
        whole_texts=_whole_texts(unread, taken),
    )


def _whole_texts(unread: list[Turn], taken: list[Turn]) -> dict[int, str]:
    """The whole text of each turn ``taken`` reads only in part."""
    return {
        place: unread[place]["content"]
        for place, turn in enumerate(taken)
        if turn["start"] or not turn["done"]
    }


def _context(
    memory: Memory, taken: list[Turn], numbers: dict[int, int], unread: list[Turn]
) -> list[Turn]:
    """The read turns just before the new ones in each conversation: context, never a source.
    Nothing from before a clear or said with memory off. A long turn's next part is preceded
    by the end of what was read of it."""
    first_new: dict[int, int] = {}  # where each conversation's new turns begin in ``taken``
    for place, row in enumerate(taken):
        first_new.setdefault(row["conversation_id"], place)
    context: list[Turn] = []
    for conversation_id, place in list(first_new.items())[:CONTEXT_CONVERSATIONS]:
        rows: list[Turn] = [
            dict(row)
            for row in turns.store().read_before(
                conversation_id,
                before_id=taken[place]["id"],
                after_id=memory.context_from_id,
                limit=CONTEXT_TURNS,
            )
        ]
        if taken[place]["start"]:
            rows.append(_read_so_far(unread[place]))
        context.extend(
            {
                "role": r["role"],
                "content": r["content"][:CONTEXT_TURN_CHARS],
                "conversation": numbers[conversation_id],
            }
            for r in rows
        )
    return context


def _read_so_far(turn: Turn) -> Turn:
    """The end of what earlier passes read of a long turn, as context for its next part."""
    read_to = turn["read_to"]
    text = turn["content"][max(0, read_to - CONTEXT_TURN_CHARS) : read_to]
    return {"role": turn["role"], "content": text}


def asks_to_forget(turns: list[Turn]) -> bool:
    return any(t["role"] == "user" and is_forget_request(t["content"]) for t in turns)


def asks_to_remember(turns: list[Turn]) -> bool:
    return any(t["role"] == "user" and is_remember_request(t["content"]) for t in turns)


def fit_transcript(turns: list[Turn]) -> list[Turn]:
    """The oldest turns that fit the transcript cap (SPEC §2: 20,000 tokens), in order, each
    from ``read_to``; a taken turn's ``content`` is what this pass reads of it.

    A turn larger than the room left waits; when it comes first, its next part is read alone
    (``budget.part_end``), so a pass always progresses. Stored ``tokens`` are not recounted."""
    limit = settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT
    unread = [(turn, turn.get("read_to") or 0) for turn in turns]
    # A token is at least a byte: fewer bytes than the cap fits uncounted.
    counted = sum(len(t["content"][start:].encode()) + 4 for t, start in unread) > limit
    kept: list[Turn] = []
    remaining = limit
    for turn, start in unread:
        text = turn["content"][start:]
        stored = turn.get("tokens") if start == 0 else None
        cost = ((budget.count_tokens(text) if stored is None else stored) + 4) if counted else 0
        if cost > remaining:
            if not kept:
                kept.append(_taken(turn, start, start + budget.part_end(text, limit - 4)))
            break
        kept.append(_taken(turn, start, len(turn["content"])))
        remaining -= cost
    return kept


def _taken(turn: Turn, start: int, end: int) -> Turn:
    return {
        **turn,
        "content": turn["content"][start:end],
        "start": start,
        "end": end,
        "done": end == len(turn["content"]),
    }
