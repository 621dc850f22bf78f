"""API-wide pieces: JSON errors with a stable ``code`` the mobile app maps to its alerts."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

_CODES = {
    exceptions.ParseError: "malformed_json",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.PermissionDenied: "forbidden",
}


def error(code: str, detail: str, http_status: int, **extra: Any) -> Response:
    """An API error: a stable ``code`` for the app, a ``detail`` for people."""
    return Response({"code": code, "detail": str(detail), **extra}, status=http_status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": "Check the fields.", "fields": exc.detail}
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
