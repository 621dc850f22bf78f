"""The person behind a web request, as every app's views see it: the logged-in account, a
guest, or a visitor who has not acted yet.

Every web page works for guests (SPEC §8), but a guest is a row, so it is created when the
visitor acts (a first message, project or setting), never when they look: a crawler or a health
probe reading pages creates nothing. A view says which it needs with a marker — ``person_optional``
(the visitor sees an empty chat, no projects, no memory) or ``person_required`` (the first unsafe
request, a POST, makes the visitor a guest; GETs create nobody) — and the accounts app, which owns
people, acts on the marker before the view runs (``accounts.middleware.PersonMiddleware``). So
the apps below accounts never import it, and a view of theirs only reads ``request.user``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

from django.http import HttpRequest, HttpResponseBase
from rest_framework.request import Request

from core.errors import Forbidden

View = Callable[..., HttpResponseBase]
Need = Literal["optional", "required"]
NEED_ATTRIBUTE = "person_need"


class Person(Protocol):
    """What the apps below accounts know of a person: an owner key and whether it is a guest."""

    @property
    def pk(self) -> int: ...

    @property
    def is_guest(self) -> bool: ...

    @property
    def is_authenticated(self) -> bool: ...


def _mark(need: Need) -> Callable[[View], View]:
    def mark(view: View) -> View:
        setattr(view, NEED_ATTRIBUTE, need)
        return view

    return mark


# Run the view for whoever asks: a person (whose activity is noted) or a visitor.
person_optional = _mark("optional")
# Run the view with ``request.user`` a person on an unsafe request (a visitor's first action
# makes them a guest); a GET runs as ``person_optional`` and creates nobody.
person_required = _mark("required")


def need_of(view: View) -> Need | None:
    need: Need | None = getattr(view, NEED_ATTRIBUTE, None)
    return need


def person_of(request: HttpRequest) -> Person | None:
    """The logged-in person (account or guest), or None for a visitor who has not acted yet."""
    user = request.user
    if not user.is_authenticated:
        return None
    return user


def acting_person(request: HttpRequest) -> Person:
    """The person of a request that has one: an unsafe request to a ``person_required`` page,
    whose visitor the middleware has made a guest before the view runs."""
    found = person_of(request)
    if found is None:  # a view reached without the middleware, or not marked person_required
        raise Forbidden
    return found


class PersonRequest(Request):
    """What an API view of chat or memory receives: authentication (``IsAuthenticated``, the
    default permission of every API view) has let only a person through. A type for the views'
    signatures, never built; ``tests/test_architecture.py`` checks that each view taking one
    requires authentication."""

    # DRF types ``user`` as the User model or AnonymousUser, and the apps below accounts may not
    # name the User model; IsAuthenticated leaves only a person (AUTH_USER_MODEL is a Person).
    user: Person  # type: ignore[assignment]
