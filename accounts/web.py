"""Accounts' web helpers: the session's person as a User."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


def account_of(request: HttpRequest) -> User | None:
    """The session's person as a User, or None for a visitor."""
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
