"""API-wide pieces: JSON errors with a stable ``code`` the mobile app maps to its alerts.

Every error of an API request, ours (``core.errors.ServiceError``) or DRF's and Django's, is
answered here, in one place: views raise, they do not build error responses.
"""

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

# The database cannot be reached (refused, dropped, timed out): the service is down, not the
# request wrong (but a deadlock or a serialization failure, also an OperationalError, is a race:
# ``core.db``). Other database errors (an integrity error, a value too long) are our bugs.
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
    """503 with the view's own code (``memory_unavailable``, ``clear_failed``, as the README
    promises) for any database error of a view that declares one in ``outage_codes``, also when
    authentication met it; ``unavailable`` for an unreachable database anywhere else."""
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
        # DRF's Throttled sets ``wait`` in __init__; its stubs do not declare it.
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
        # Django's own refusal of a declared length over DATA_UPLOAD_MAX_MEMORY_SIZE, raised
        # when the body is first read (DRF reads request.body before its JSON parser runs, from
        # 3.18): the same 413 as the parser's, still before anything is parsed.
        return BodyTooLarge()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, exceptions.APIException):
        return _from_drf(exc)
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The API's one mapping of errors: ``{"code", "detail", ...extra}`` with the error's
    status and headers (``Retry-After``, ``WWW-Authenticate``); None lets a bug be a 500."""
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
