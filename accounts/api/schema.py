"""The token scheme in the OpenAPI document, so generated clients send ``Token <key>``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.api.authentication.TokenAuthenticationWithActivity"
    match_subclasses = True  # TokenIfStillValid too: the same header
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization",
            token_prefix="Token",  # noqa: S106 - the scheme's word, not a secret
        )
