"""knox token authentication that notes activity, so housekeeping spares active guests."""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

from accounts.services import touch

# knox's 64 hex digits, or 40 for a pre-hash token (accounts/migrations/0003); anything else is
# refused before a query sees it (a NUL is an error there).
TOKEN_SHAPE = re.compile(rb"[0-9a-f]{64}|[0-9a-f]{40}")


class TokenAuthenticationWithActivity(TokenAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        """``Token <key>``, or the same key as ``Bearer <key>`` (RFC 6750), which generated
        clients send by default."""
        auth = get_authorization_header(request).split()
        if auth and auth[0].lower() == b"bearer":
            if len(auth) != 2:
                raise exceptions.AuthenticationFailed(_("Invalid token header."))
            return self.authenticate_credentials(auth[1])
        return super().authenticate(request)

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if not TOKEN_SHAPE.fullmatch(token):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, auth_token = super().authenticate_credentials(token)
        touch(user)
        return user, auth_token

    def _cleanup_token(self, auth_token: AuthToken) -> bool:
        """Delete ``auth_token`` if expired; only this one (knox's reads them all each time)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            AuthToken.objects.filter(digest=auth_token.digest).delete()
            return True
        return False

    def renew_token(self, auth_token: AuthToken) -> None:
        """Slide the expiry as knox does, by an UPDATE that may find no row (a racing logout)."""
        new_expiry = timezone.now() + knox_settings.TOKEN_TTL
        if knox_settings.AUTO_REFRESH_MAX_TTL is not None:
            new_expiry = min(new_expiry, auth_token.created + knox_settings.AUTO_REFRESH_MAX_TTL)
        delta = (new_expiry - auth_token.expiry).total_seconds()
        if delta > knox_settings.MIN_REFRESH_INTERVAL:
            AuthToken.objects.filter(digest=auth_token.digest).update(expiry=new_expiry)
            auth_token.expiry = new_expiry


class TokenIfStillValid(TokenAuthenticationWithActivity):
    """For login and signup: an ended token is as if absent, so an old one gets no 401."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            return None
