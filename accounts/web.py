"""The person behind a web request: the logged-in account, a guest, or a visitor who has not
acted yet.

Every web page works for guests (SPEC §8), but a guest is a row, so it is created when the
visitor acts (a first message, project or setting), never when they look: a crawler or a health
probe reading pages creates nothing. Pages that only show things use ``person_optional`` (the
visitor sees an empty chat, no projects, no memory); actions that need an owner use
``person_required``, which creates the guest on the first unsafe request (a POST) and leaves
GETs alone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import services
from accounts.models import User
from chat.models import Conversation
from config import throttling

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# The sidebar lists the most recent conversations; older ones stay in the export.
SIDEBAR_CONVERSATIONS = 50
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

View = Callable[..., HttpResponse]


def person_of(request: HttpRequest) -> User | None:
    """The logged-in person (account or guest), or None for a visitor who has not acted yet."""
    user = request.user
    return user if user.is_authenticated else None


def _become_guest(request: HttpRequest) -> HttpResponse | None:
    """Make the visitor a guest logged into this session; a 429 page when this address has
    created too many guests lately (then nobody is created)."""
    refused = throttling.refuse_page(request, throttling.GuestThrottle)
    if refused is not None:
        return refused
    login(request, services.create_guest(), backend=MODEL_BACKEND)
    return None


def person_optional(view: View) -> View:
    """Run ``view`` for whoever asks: a person (whose activity is noted) or a visitor."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        person = person_of(request)
        if person is not None:
            services.touch(person)
        return view(request, *args, **kwargs)

    return wrapped


def person_required(view: View) -> View:
    """Run ``view`` with ``request.user`` set to a person on an unsafe request (a visitor's
    first action makes them a guest); a GET runs as ``person_optional`` and creates nobody."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        person = person_of(request)
        if person is not None:
            services.touch(person)
        elif request.method not in SAFE_METHODS:
            refused = _become_guest(request)
            if refused is not None:
                return refused
        return view(request, *args, **kwargs)

    return wrapped


def guest_of(request: HttpRequest) -> User | None:
    """The session's guest, to be merged into the account it signs up or logs in as."""
    person = person_of(request)
    if person is not None and person.is_guest:
        return person
    return None


def page(
    request: HttpRequest, template: str, context: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """Render a page of the app layout: ``context`` plus the sidebar's conversations."""
    sidebar = Conversation.objects.for_owner(request.user).only(
        "pk", "title", "temporary", "updated_at"
    )[:SIDEBAR_CONVERSATIONS]
    return render(
        request, template, {"sidebar_conversations": sidebar, **(context or {})}, status=status
    )
