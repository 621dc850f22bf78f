"""API-wide pieces: JSON errors with a stable ``code`` the mobile app maps to its alerts."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.views.defaults import page_not_found
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.parsers import BodyTooLarge, JSONTooDeep
from core.throttling import rate_limited_body

# The database cannot be reached (refused, dropped, timed out): the service is down, not the
# request wrong. Other database errors (an integrity error, a value too long) are our bugs.
OUTAGE_ERRORS = (OperationalError, InterfaceError)


_CODES = {
    JSONTooDeep: "too_deep",
    BodyTooLarge: "too_large",
    exceptions.ParseError: "malformed_json",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "rate_limited",
    exceptions.PermissionDenied: "forbidden",
}


def error(code: str, detail: str | Promise, http_status: int, **extra: Any) -> Response:
    """An API error: a stable ``code`` for the app, a ``detail`` for people."""
    return Response({"code": code, "detail": str(detail), **extra}, status=http_status)


def unavailable_text() -> str:
    return gettext("The service is unavailable right now. Try again in a moment.")


def _outage(exc: Exception, context: dict[str, Any]) -> Response:
    """503 with the view's own code for an outage (``memory_unavailable``, ``clear_failed``,
    as the README promises) or ``unavailable``; also when authentication hit the outage."""
    view = context.get("view")
    request = context.get("request")
    method = getattr(request, "method", "")
    code, detail = getattr(view, "outage_codes", {}).get(method, ("unavailable", None))
    return error(code, detail or unavailable_text(), status.HTTP_503_SERVICE_UNAVAILABLE)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OUTAGE_ERRORS):
        return _outage(exc, context)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": "Check the fields.", "fields": exc.detail}
        return response
    if isinstance(exc, exceptions.Throttled):
        # DRF's Throttled sets ``wait`` in __init__; its stubs do not declare it.
        wait = max(int(exc.wait or 1), 1)  # type: ignore[attr-defined]
        response.data = rate_limited_body(wait)
        response["Retry-After"] = str(wait)
        return response
    if isinstance(exc, Http404):  # get_object_or_404 raises Django's own
        exc = exceptions.NotFound()
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    detail = exc.detail if isinstance(exc, exceptions.APIException) else "Error."
    if code == "malformed_json":
        detail = "The request body is not valid JSON."
    if code == "not_found":
        detail = "Not found."
    response.data = {"code": code, "detail": str(detail)}
    if response.status_code == status.HTTP_403_FORBIDDEN and code == "not_authenticated":
        response.status_code = status.HTTP_401_UNAUTHORIZED
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 everywhere: JSON with the stable code under /api/, the app's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": "Not found."}, status=404)
    return page_not_found(request, exception)
