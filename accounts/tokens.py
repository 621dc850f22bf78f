"""API tokens (knox's ``AuthToken``): one per device, stored as a SHA-512 digest, expiring."""

from __future__ import annotations

from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from accounts.models import User


def issue_token(user: User) -> str:
    """A new token for one device, in plain text this once; a guest's ends with the guest."""
    expiry = None if user.is_guest else knox_settings.TOKEN_TTL
    _, token = AuthToken.objects.create(user=user, expiry=expiry)
    return str(token)


def end_token(token: AuthToken) -> None:
    """End one device's token (a logout); already gone is fine."""
    AuthToken.objects.filter(digest=token.digest).delete()


def end_all_tokens(user_id: int) -> None:
    """End every token of the person."""
    AuthToken.objects.filter(user_id=user_id).delete()


def delete_expired_tokens() -> int:
    """Housekeeping: expired tokens go (the authentication refuses them already)."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return deleted
