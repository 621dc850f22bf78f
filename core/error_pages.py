"""Error answers outside DRF: the database being unreachable, and anything unexpected.

Under ``/api/`` the answer is JSON with a stable ``code``; elsewhere a plain page. Both are
rendered without the request's context processors, which may need the very database that is
down (the session, the person).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext

from core.api import OUTAGE_ERRORS, unavailable_text


def _plain_page(template: str, status: int) -> HttpResponse:
    html = loader.render_to_string(template, {"assistant": settings.ASSISTANT_NAME})
    return HttpResponse(html, status=status)


def outage_response(request: HttpRequest) -> HttpResponse:
    """503: the database cannot be reached; nothing was changed."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "unavailable", "detail": unavailable_text()}, status=503)
    return _plain_page("503.html", 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an outage that escaped the views (a middleware saving the session, say)
    is still a 503; anything else is a plain 500 page, or JSON under ``/api/``."""
    if isinstance(sys.exc_info()[1], OUTAGE_ERRORS):
        return outage_response(request)
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "error", "detail": gettext("Something went wrong. Try again.")}, status=500
        )
    return _plain_page("500.html", 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: Django's own page carries inline styles the Content-Security-Policy
    refuses; this one says the same plainly. (The API is not cookie-based: no CSRF there.)"""
    return _plain_page("403_csrf.html", 403)


class OutageMiddleware:
    """Answers a view that met an unreachable database with ``outage_response``: a page or
    JSON saying so, instead of a 500 (DRF views answer it themselves, in ``core.api``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OUTAGE_ERRORS):
            return outage_response(request)
        return None
