"""What every page of the app layout shows: the sidebar's conversations."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from chat.models import Conversation
from core.people import person_of

# The sidebar lists the most recent conversations; older ones stay in the export.
SIDEBAR_CONVERSATIONS = 50


def sidebar(request: HttpRequest) -> dict[str, Callable[[], object]]:
    """A callable, so the query runs only on pages that show the sidebar (a template calls it
    when it first reads it)."""

    def conversations() -> object:
        return list(
            Conversation.objects.for_owner(person_of(request)).only(
                "pk", "title", "temporary", "updated_at"
            )[:SIDEBAR_CONVERSATIONS]
        )

    return {"sidebar_conversations": conversations}
