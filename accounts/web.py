"""The person behind a web request: the logged-in account, or a guest created on first visit.

Every web page works for guests (SPEC §8), so instead of ``login_required`` the pages use
``person_required``, which makes sure the session has a person before the view runs.
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

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# The sidebar lists the most recent conversations; older ones stay in the export.
SIDEBAR_CONVERSATIONS = 50

View = Callable[..., HttpResponse]


def current_person(request: HttpRequest) -> User:
    """The logged-in user, or a new guest logged into this session on the first visit."""
    user = request.user
    if not user.is_authenticated:
        user = services.create_guest()
        login(request, user, backend=MODEL_BACKEND)
    services.touch(user)
    return user


def person_required(view: View) -> View:
    """Run ``view`` with ``request.user`` set to a person (a guest if nobody is logged in)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        current_person(request)
        return view(request, *args, **kwargs)

    return wrapped


def guest_of(request: HttpRequest) -> User | None:
    """The session's guest, to be merged into the account it signs up or logs in as."""
    user = request.user
    if user.is_authenticated and user.is_guest:
        return user
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
