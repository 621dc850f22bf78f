"""The Memory section's context, apart from the views: they import DRF, which may still be
loading when accounts reach this through ``memory.facade``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest

import llm
from core.people import person_of
from memory import screening, services, texts
from memory.texts import MEMORY_UNAVAILABLE


def _nothing_yet() -> services.MemoryView:
    """A visitor's memory: empty, and no row is created for it."""
    return services.MemoryView(
        lines=[], tokens=0, token_limit=settings.MEMORY_TOKEN_LIMIT, enabled=True, version=0
    )


def section_context(request: HttpRequest, *, expanded: bool = False) -> dict[str, Any]:
    """The section's context; a failed read is an error, never an empty list."""
    person = person_of(request)
    # The built-in model is a stand-in: Settings says so, and how to connect a real one.
    offline = settings.MEMORY_MODEL.startswith(f"{llm.OFFLINE_PROVIDER}/")
    # A visitor has no list a pass could change.
    every = 0 if person is None else settings.MEMORY_SECTION_REFRESH_SECONDS
    polling = {"memory_poll_ms": round(every * 1000)}
    if person is None:
        memory = _nothing_yet()
        return {
            "memory": memory,
            "memory_expanded": expanded,
            "memory_offline": offline,
            "memory_state": services.shown_state(memory.version, memory.enabled),
            **polling,
        }
    try:
        screening.screen_before_showing(owner_id=person.pk)
        memory = services.view_memory(owner_id=person.pk)
    except DatabaseError:
        return {"memory": None, "memory_error": MEMORY_UNAVAILABLE}
    screened = texts.screened_lines(memory.screened)
    return {
        "memory": memory,
        "memory_expanded": expanded,
        "memory_offline": offline,
        "memory_screened": screened,
        "memory_state": services.shown_state(memory.version, memory.enabled),
        **polling,
    }
