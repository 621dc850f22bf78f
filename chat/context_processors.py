"""What every page of the app layout shows: the sidebar's conversations."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from chat import chats
from core.people import person_of

# The sidebar lists the most recent conversations; older ones are found by its search.
SIDEBAR_CONVERSATIONS = 50


def sidebar(request: HttpRequest) -> dict[str, Callable[[], object]]:
    """A callable, so the query runs only on pages that show the sidebar (a template calls it
    when it first reads it)."""

    def conversations() -> object:
        listed = chats.listed(person_of(request)).only("pk", "title", "updated_at")
        return list(listed[:SIDEBAR_CONVERSATIONS])

    return {"sidebar_conversations": conversations}
