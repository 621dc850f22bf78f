"""API tokens (knox's ``AuthToken``): one per device, stored as a SHA-512 digest, expiring.
Their ends, and web logouts, go to the erasure journal, so no restored backup revives them."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from accounts.models import User
from core import erasures


def issue_token(user: User) -> str:
    """A new token for one device, in plain text this once; a guest's ends with the guest."""
    return str(token_answer(user)["token"])


def token_answer(user: User) -> dict[str, object]:
    """``{"token", "expires_at"}`` for the API: when the token ends unless used (each use
    moves it on, up to ``API_TOKEN_MAX_DAYS`` after it was made); null for a guest's."""
    expiry = None if user.is_guest else knox_settings.TOKEN_TTL
    row, token = AuthToken.objects.create(user=user, expiry=expiry)
    return {"token": str(token), "expires_at": row.expiry}


def end_token(token: AuthToken) -> None:
    """End one device's token (a logout); already gone is fine."""
    AuthToken.objects.filter(digest=token.digest).delete()
    erasures.record(erasures.TOKEN, digest=token.digest)


def end_all_tokens(user_id: int) -> None:
    """End every token of the person."""
    AuthToken.objects.filter(user_id=user_id).delete()
    joined = User.objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is not None:
        erasures.record(erasures.TOKENS, owner=erasures.key(user_id, joined))


def session_ended(*, request: HttpRequest | None, **_: object) -> None:
    """A web logout (Django's ``user_logged_out``): journaled, so no restore revives it."""
    key = request.session.session_key if request is not None else None
    if key:
        erasures.record(erasures.SESSION, session=erasures.session_digest(key))


def delete_expired_tokens() -> int:
    """Housekeeping: expired tokens go (the authentication refuses them already)."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return deleted
