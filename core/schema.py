"""The OpenAPI error responses: the one error body on every 4xx and 5xx.

A view declares its own (``errors("stale_version")``); the schema adds those its kind of
operation can answer (401, 429, 400/413, 404, 409 ``busy`` on writes, 503 everywhere).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from core.idempotency import HEADER


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable: what the app maps to its alerts.")
    detail = serializers.CharField(help_text="For people, in the request's language.")
    # DRF's metaclass takes declared fields off the class: ``Serializer.fields`` is not shadowed.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="`invalid`: what is wrong, by field."
    )
    reason = serializers.CharField(
        required=False,
        help_text="`line_refused`: secret, link, instruction, markup, length or duplicate.",
    )


class RateLimitedSerializer(ErrorSerializer):
    retry_after = serializers.IntegerField(help_text="Seconds to wait (also `Retry-After`).")


REQUEST_ID = OpenApiParameter(
    "X-Request-Id",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Yours if you sent a plain one (letters, digits, `-_.:`, up to 128), else ours.",
    response=True,
)
RATE_LIMIT_HEADERS = [
    OpenApiParameter(name, int, OpenApiParameter.HEADER, description=text, response=True)
    for name, text in (
        ("RateLimit-Limit", "Requests allowed in the window of the tightest limit."),
        ("RateLimit-Remaining", "Requests left in it."),
        ("RateLimit-Reset", "Seconds until it frees a request."),
    )
]

_CODES_PREFIX = "Codes: "


def errors(*codes: str) -> OpenApiResponse:
    """An error response answering one of ``codes``, for ``extend_schema(responses=…)``."""
    return OpenApiResponse(ErrorSerializer, description=_describe(codes))


def _describe(codes: tuple[str, ...] | list[str]) -> str:
    # The one place drf-spectacular keeps of a response.
    return _CODES_PREFIX + ", ".join(f"`{code}`" for code in codes)


def _codes_of(response: dict[str, Any]) -> list[str]:
    description = response.get("description", "")
    if not description.startswith(_CODES_PREFIX):
        return []
    return [code.strip("` ") for code in description.removeprefix(_CODES_PREFIX).split(",")]


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, with the error body on every 4xx and 5xx (module docstring)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        if self.method == "DELETE" and "requestBody" in operation:
            operation["requestBody"]["required"] = False  # e.g. a guest deletes with no password
        responses = operation["responses"]
        for status, common in self._common_errors(operation).items():
            codes = _codes_of(responses.get(status, {}))
            codes += [code for code in common if code not in codes]
            responses[status] = {"description": _describe(codes)}
        for status in [status for status in responses if status[0] in "45"]:
            responses[status] = self._error_response(status, responses[status])
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _common_errors(self, operation: dict[str, Any]) -> dict[str, list[str]]:
        # Any request may meet an unexpected failure (JSON, never a page) or an outage, or ask
        # for a media type we never answer.
        common = {"500": ["error"], "503": ["unavailable"], "406": ["not_acceptable"]}
        if self.view.get_authenticators():
            common["401"] = ["not_authenticated"]
        if self.view.get_throttles():
            common["429"] = ["rate_limited"]
        if "requestBody" in operation:
            common["400"] = ["invalid", "malformed_json", "too_deep"]
            common["413"] = ["too_large"]
            common["415"] = ["unsupported_media_type"]
        if "{" in self.path:
            common["404"] = ["not_found"]
        if self.method != "GET":
            # A deadlock lost after its retries (``core.db``).
            common["409"] = ["busy"]
        if self._idempotent():
            common.setdefault("400", []).append("invalid_idempotency_key")
            common["409"] += ["idempotency_key_reused", "request_in_progress"]
        return common

    def _idempotent(self) -> bool:
        handler = getattr(self.view, self.method.lower(), None)
        return bool(getattr(handler, "idempotent", False))

    def _get_request_body(self, direction: str = "request") -> Any:
        # drf-spectacular gives DELETE no body; a view whose DELETE takes one says so.
        if self.method != "DELETE" or not getattr(self.view, "delete_takes_a_body", False):
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"

    def get_override_parameters(self) -> list[Any]:
        found = [*super().get_override_parameters(), REQUEST_ID]
        if self.view.get_throttles():
            found += RATE_LIMIT_HEADERS
        if self._idempotent():
            found += [
                OpenApiParameter(
                    HEADER,
                    str,
                    OpenApiParameter.HEADER,
                    description="Any unique string (1–255 visible ASCII characters): a retry "
                    "with the same key and body gets the first answer, kept 24 hours.",
                ),
                OpenApiParameter(
                    "Idempotent-Replayed",
                    str,
                    OpenApiParameter.HEADER,
                    enum=["true"],
                    description="On a retry answered from its Idempotency-Key.",
                    response=True,
                ),
            ]
        return found

    def _error_response(self, status: str, declared: dict[str, Any]) -> dict[str, Any]:
        codes = _codes_of(declared)
        serializer = RateLimitedSerializer if status == "429" else ErrorSerializer
        description = _describe(codes) if codes else "An error."
        response = self._get_response_for_code(
            OpenApiResponse(serializer, description=description), status
        )
        # Errors are JSON whatever was asked (a stream's too: it fails before it starts).
        json_only = response.get("content", {}).get("application/json")
        if json_only is not None:
            response["content"] = {"application/json": json_only}
        if status == "429" or (status == "409" and self._idempotent()):
            response.setdefault("headers", {})["Retry-After"] = {
                "schema": {"type": "integer"},
                "description": "Seconds to wait before trying again.",
            }
        return response
