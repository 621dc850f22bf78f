"""One access helper per resource: someone else's conversation or project is a 404, the same
way on the web pages and in the API."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from chat.models import Conversation, Project, VoiceSession
from core.people import Person


def conversation_for(user: Person | None, pk: int) -> Conversation:
    # The project comes along: a chat request reads its instructions after the message is
    # stored, when the project may have been deleted meanwhile.
    return get_object_or_404(Conversation.objects.for_owner(user).select_related("project"), pk=pk)


def project_for(user: Person | None, pk: int) -> Project:
    return get_object_or_404(Project.objects.for_owner(user), pk=pk)


def voice_session_for(user: Person | None, pk: int) -> VoiceSession:
    return get_object_or_404(VoiceSession.objects.for_owner(user), pk=pk)
