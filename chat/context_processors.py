"""What every page of the app layout shows: the sidebar's conversations."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest

from chat import chats
from core.people import person_of


def sidebar(request: HttpRequest) -> dict[str, Callable[[], object]]:
    """A cached callable: the query runs once, only on pages showing the sidebar."""

    @functools.cache
    def conversations() -> object:
        return chats.sidebar_list(person_of(request))

    return {"sidebar_conversations": conversations}
