"""API tokens: one per device, stored hashed, expiring (django-rest-knox's ``AuthToken``).

A token is handed out once, by the login, signup or password change that made it; the database
keeps only its SHA-512 digest (and its first characters, to find the row), so a stolen row does
not authenticate. How long tokens last is ``settings.REST_KNOX`` (``API_TOKEN_TTL_DAYS``,
``API_TOKEN_MAX_DAYS``); a guest's lasts as long as the guest.
"""

from __future__ import annotations

from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from accounts.models import User


def issue_token(user: User) -> str:
    """A new token for one device of ``user``, in plain text this once.

    An account's expires ``TOKEN_TTL`` after its last use (the authentication slides it); a
    guest's has no expiry of its own, since the guest has no other way back in: it ends when the
    guest signs up or logs in (the merge), deletes itself or is deleted after ``GUEST_IDLE_DAYS``
    idle, as before tokens were per device.
    """
    expiry = None if user.is_guest else knox_settings.TOKEN_TTL
    _, token = AuthToken.objects.create(user=user, expiry=expiry)
    return str(token)


def end_token(token: AuthToken) -> None:
    """End one device's token (a logout); already gone is fine."""
    AuthToken.objects.filter(digest=token.digest).delete()


def end_all_tokens(user_id: int) -> None:
    """End every token of the person: every device is logged out of the API."""
    AuthToken.objects.filter(user_id=user_id).delete()


def delete_expired_tokens() -> int:
    """Housekeeping: expired tokens go (the authentication refuses them already)."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return deleted
