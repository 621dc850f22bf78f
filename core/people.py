"""The person behind a web request: an account, a guest, or a visitor who has not acted yet.

A guest is a row, created when a visitor acts (a POST), never when they look: crawlers create
nothing. Views mark what they need (``person_optional`` or ``person_required``) and
``accounts.middleware.PersonMiddleware`` acts on it, so apps below accounts never import it.
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
    """What apps below accounts know of a person: an owner key and whether it is a guest."""

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
# A visitor's unsafe request makes them a guest; a GET runs as ``person_optional``.
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
    """The person of an unsafe request to a ``person_required`` page (made a guest if needed)."""
    found = person_of(request)
    if found is None:  # a view reached without the middleware, or not marked person_required
        raise Forbidden
    return found


class PersonRequest(Request):
    """An API view's request after ``IsAuthenticated``: only a person. A type, never built;
    ``tests/test_architecture.py`` checks each view taking one requires authentication."""

    # DRF types ``user`` as User or AnonymousUser; apps below accounts may not name User.
    user: Person  # type: ignore[assignment]
