"""Voice sessions: the prompt with the memory, and one memory pass owed at the end."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chat.models import VoiceSession
from chat.services.offer import check_model
from core.db import retry_on_lock_conflict
from core.errors import Busy, Conflict, NotFound
from memory import facade


class AlreadyEnded(Conflict):
    """The voice session was ended before (HTTP 409)."""

    code = "already_ended"
    detail = "This voice session has already ended."


def start_voice_session(*, owner_id: int, model: str | None = None) -> tuple[VoiceSession, str]:
    """A voice session and its prompt: the system prompt with the memory (SPEC §6)."""
    model = check_model(model or settings.DEFAULT_CHAT_MODEL)
    memory = facade.read_for_request(owner_id=owner_id)
    with facade.owner_still_there():
        session = VoiceSession.objects.create(
            owner_id=owner_id,
            model=model,
            # Said with memory off or unreadable: never read, as for a chat turn.
            memory_pass_done_at=None if memory.enabled and not memory.failed else timezone.now(),
        )
    return session, _instructions(memory)


def voice_instructions(*, owner_id: int) -> str:
    """The prompt a voice session starts with, as memory stands now."""
    return _instructions(facade.read_for_request(owner_id=owner_id))


def _instructions(memory: facade.MemoryRead) -> str:
    parts = [settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME)]
    if memory.block:
        parts.append(memory.block)
    elif note := facade.memory_note(memory):
        parts.append(note)
    return "\n\n".join(parts)


class VoiceSessionGone(NotFound):
    """The session was deleted with its owner while its end was on its way (HTTP 404)."""


@retry_on_lock_conflict
def end_voice_session(*, session: VoiceSession, transcript: list[dict[str, str]]) -> None:
    """Store the transcript and owe one voice pass; AlreadyEnded on a second end,
    VoiceSessionGone if deleted meanwhile.

    The memory row is locked before the session, as by everyone writing both, so an end racing
    its guest's deletion or signup waits or goes first, never deadlocks. The owner is checked
    under that lock: after a signup the end counts for the account.
    """
    turns = [
        {"role": t["role"], "content": facade.clean_text(t["content"])}
        for t in transcript
        if t["role"] in ("user", "assistant")
    ]
    for _attempt in range(3):  # a session changes owner at most once (its guest signs up)
        owner_id = _voice_owner(session.pk)
        facade.get_memory(owner_id=owner_id)  # made outside the lock, on first use
        with transaction.atomic():
            memory_id = facade.lock_memory(owner_id=owner_id)
            ended = VoiceSession.objects.filter(
                pk=session.pk, owner_id=owner_id, ended_at__isnull=True
            ).update(ended_at=timezone.now(), transcript=turns)
            if ended:
                facade.owe_pass(owner_id=owner_id, memory_id=memory_id)
                return
        if _voice_owner(session.pk) == owner_id:
            raise AlreadyEnded
    raise Busy  # it kept changing hands; nothing was stored


def _voice_owner(session_id: int) -> int:
    """Who owns the voice session now, or VoiceSessionGone."""
    owner_id = VoiceSession.objects.filter(pk=session_id).values_list("owner_id", flat=True)
    found = owner_id.first()
    if found is None:
        raise VoiceSessionGone
    return found
