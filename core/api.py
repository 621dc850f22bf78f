"""The API's one error mapping: JSON with a stable ``code``; views raise, never build errors."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from core.db import is_lock_conflict
from core.errors import Busy, Invalid, NotFound, ServiceError, Unavailable
from core.parsers import BodyTooLarge
from core.throttling import RateLimited

# An unreachable database is an outage (a deadlock, also an OperationalError, is a race:
# ``core.db``); other database errors are our bugs.
OUTAGE_ERRORS = (OperationalError, InterfaceError)


_CODES = {
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


def unavailable_text() -> str:
    return str(Unavailable.detail)


def _outage(exc: Exception, context: dict[str, Any]) -> Unavailable | None:
    """503 with the view's ``outage_codes`` code for any database error, else ``unavailable``
    for an unreachable database."""
    view = context.get("view")
    request = context.get("request")
    method = getattr(request, "method", "")
    own = getattr(view, "outage_codes", {}).get(method)
    if own is not None and isinstance(exc, DatabaseError):
        return Unavailable(*own)
    if isinstance(exc, OUTAGE_ERRORS):
        return Unavailable()
    return None


def _from_drf(exc: exceptions.APIException) -> ServiceError:
    """DRF's own exceptions (authentication, parsing, validation, throttling…) as ours."""
    if isinstance(exc, exceptions.ValidationError):
        return Invalid(fields=exc.detail)
    if isinstance(exc, exceptions.Throttled):
        # ``wait`` is missing from the stubs.
        return RateLimited(max(int(getattr(exc, "wait", None) or 1), 1))
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    detail = str(exc.detail)
    if code == "malformed_json":
        detail = "The request body is not valid JSON."
    if code == "not_found":
        detail = "Not found."
    http_status = exc.status_code
    if http_status == status.HTTP_403_FORBIDDEN and code == "not_authenticated":
        http_status = status.HTTP_401_UNAUTHORIZED
    auth_header = getattr(exc, "auth_header", None)
    headers = {"WWW-Authenticate": auth_header} if auth_header else None
    return ServiceError(code, detail, status=http_status, headers=headers)


def as_service_error(exc: Exception, context: dict[str, Any]) -> ServiceError | None:
    """What an exception of an API request answers, as a ServiceError; None for a bug."""
    if isinstance(exc, ServiceError):
        return exc
    if is_lock_conflict(exc):  # a deadlock lost again after its retries: not an outage
        return Busy()
    if isinstance(exc, DatabaseError):
        return _outage(exc, context)
    if isinstance(exc, Http404):  # get_object_or_404 raises Django's own
        return NotFound()
    if isinstance(exc, RequestDataTooBig):
        # Django's refusal of a declared length over the limit (DRF ≥ 3.18 reads the body
        # first): the parser's 413.
        return BodyTooLarge()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, exceptions.APIException):
        return _from_drf(exc)
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """``{"code", "detail", ...extra}`` with the error's status and headers; None: a 500."""
    error = as_service_error(exc, context)
    if error is None:
        return None
    set_rollback()  # as DRF's own handler does (a no-op without ATOMIC_REQUESTS)
    return Response(error.body(), status=error.status, headers=error.headers)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 everywhere: JSON with the stable code under /api/, the app's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(NotFound().body(), status=404)
    return page_not_found(request, exception)
