"""One access helper per resource: someone else's is a 404, on the web and in the API."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from chat.models import Conversation, Project, VoiceSession
from core.people import Person


def conversation_for(user: Person | None, pk: int) -> Conversation:
    # With the project: it may be deleted before a request reads its instructions.
    return get_object_or_404(Conversation.objects.for_owner(user).select_related("project"), pk=pk)


def project_for(user: Person | None, pk: int) -> Project:
    return get_object_or_404(Project.objects.for_owner(user), pk=pk)


def voice_session_for(user: Person | None, pk: int) -> VoiceSession:
    return get_object_or_404(VoiceSession.objects.for_owner(user), pk=pk)
