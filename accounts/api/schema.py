"""The token scheme in the OpenAPI document: HTTP bearer, which every generator sends."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.api.authentication.TokenAuthenticationWithActivity"
    match_subclasses = True  # TokenIfStillValid too: the same header
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The API token from `auth/guest`, `auth/signup` or `auth/login`: "
            "`Authorization: Bearer <token>`, or `Authorization: Token <token>`.",
        }
