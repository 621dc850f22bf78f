"""Token authentication (django-rest-knox: hashed tokens, one per device, sliding expiry) that
also notes activity, so guest housekeeping spares active guests."""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import exceptions

from accounts.services import touch

# What a token can look like: knox's 64 hex digits, or the 40 of a token issued before tokens
# were hashed (accounts/migrations/0003 hashed those in). Anything else is refused before the
# database is asked: a header of any bytes never reaches a query (a NUL is an error there).
TOKEN_SHAPE = re.compile(rb"[0-9a-f]{64}|[0-9a-f]{40}")


class TokenAuthenticationWithActivity(TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if not TOKEN_SHAPE.fullmatch(token):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, auth_token = super().authenticate_credentials(token)
        touch(user)
        return user, auth_token

    def _cleanup_token(self, auth_token: AuthToken) -> bool:
        """True when ``auth_token`` has expired (and is deleted). Only this token is looked at:
        knox's own reads every token of the person on every request; housekeeping deletes
        the others once they expire (``accounts.tokens.delete_expired_tokens``)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            AuthToken.objects.filter(digest=auth_token.digest).delete()
            return True
        return False

    def renew_token(self, auth_token: AuthToken) -> None:
        """Slide the expiry (at most hourly, never past ``AUTO_REFRESH_MAX_TTL`` after issue),
        as knox does, with an UPDATE that may find no row: a logout on another request may
        have ended the token meanwhile, which is no error."""
        new_expiry = timezone.now() + knox_settings.TOKEN_TTL
        if knox_settings.AUTO_REFRESH_MAX_TTL is not None:
            new_expiry = min(new_expiry, auth_token.created + knox_settings.AUTO_REFRESH_MAX_TTL)
        delta = (new_expiry - auth_token.expiry).total_seconds()
        if delta > knox_settings.MIN_REFRESH_INTERVAL:
            AuthToken.objects.filter(digest=auth_token.digest).update(expiry=new_expiry)
            auth_token.expiry = new_expiry
