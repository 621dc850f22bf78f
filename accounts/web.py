"""Accounts' web helpers: the session's guest, merged into the account it signs up or logs in
as. (Who a request is for, and making a visitor a guest, is ``core.people`` and
``accounts.middleware``.)"""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


def account_of(request: HttpRequest) -> User | None:
    """The session's person (an account or a guest) as the User it is, or None for a visitor
    who has not acted yet: ``core.people.person_of`` for the app that owns the model."""
    user = request.user
    if not user.is_authenticated:
        return None
    return user


def guest_of(request: HttpRequest) -> User | None:
    """The session's guest, to be merged into the account it signs up or logs in as."""
    user = request.user
    if isinstance(user, User) and user.is_guest:
        return user
    return None
