"""Token authentication that also notes activity, so guest housekeeping spares active guests."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication

from accounts.services import touch


class TokenAuthenticationWithActivity(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        touch(user)
        return user, token
