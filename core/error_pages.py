"""Error answers outside DRF: the web's mapping of ``ServiceError``, outages, the unexpected.

A page's ServiceError is shown where the person is (``shown_on_page``); a script gets the JSON
the API would give; anything else is answered by ``OutageMiddleware``. Outage pages skip the
context processors, which may need the database that is down.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext

from core.api import OUTAGE_ERRORS, unavailable_text
from core.db import is_lock_conflict
from core.errors import Busy, ServiceError, Text


def _plain_page(template: str, status: int) -> HttpResponse:
    html = loader.render_to_string(template, {"assistant": settings.ASSISTANT_NAME})
    return HttpResponse(html, status=status)


def outage_response(request: HttpRequest) -> HttpResponse:
    """503: the database cannot be reached; nothing was changed."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "unavailable", "detail": unavailable_text()}, status=503)
    return _plain_page("503.html", 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an outage is still a 503, a lost deadlock a 409, anything else a 500."""
    error = sys.exc_info()[1]
    if error is not None and is_lock_conflict(error):
        busy = service_error_response(request, Busy())
        assert busy is not None  # only a NotFound is left to Django's own page
        return busy
    if isinstance(error, OUTAGE_ERRORS):
        return outage_response(request)
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "error", "detail": gettext("Something went wrong. Try again.")}, status=500
        )
    return _plain_page("500.html", 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: Django's page has inline styles the CSP refuses."""
    return _plain_page("403_csrf.html", 403)


def _from_script(request: HttpRequest) -> bool:
    """The page's script asked (a streamed reply, the model picker): it reads JSON."""
    accept = request.headers.get("Accept", "")
    return "application/json" in accept or "text/event-stream" in accept


def service_error_response(request: HttpRequest, error: ServiceError) -> HttpResponse | None:
    """A ServiceError no page told: JSON for scripts and the API, a 404 page, else a plain one."""
    if _from_script(request) or request.path.startswith("/api/"):
        return JsonResponse(error.body(), status=error.status, headers=error.headers)
    if isinstance(error, Http404):
        return None
    response = render(request, "error.html", {"detail": error.detail}, status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


@contextmanager
def shown_on_page(
    request: HttpRequest,
    *,
    form: forms.Form | None = None,
    tags: str = "",
    texts: Mapping[str, Text] | None = None,
    outage: Text | None = None,
) -> Iterator[None]:
    """Run a page's use-case, telling a ServiceError to the person: on ``form``, or as a
    message (``tags``) on the next page. ``texts``: a page's words for some codes; ``outage``:
    tell a database error too. Scripts get JSON. After an error the rest of the ``with`` block
    is skipped: put what follows success there.
    """
    try:
        yield
    except ServiceError as error:
        if _from_script(request):
            raise
        text = (texts or {}).get(error.code, error.detail)
        if form is not None:
            form.add_error(None, str(text))
        else:
            messages.add_message(request, error.level, text, extra_tags=tags)
    except DatabaseError:
        if outage is None:
            raise
        messages.error(request, outage, extra_tags=tags)


class OutageMiddleware:
    """Answers what escapes a view: an outage (``outage_response``), a ServiceError, and a
    deadlock lost after retries as ``Busy`` (409). DRF views do this in ``core.api``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_lock_conflict(exception):  # a race lost again after its retries: not an outage
            return service_error_response(request, Busy())
        if isinstance(exception, OUTAGE_ERRORS):
            return outage_response(request)
        if isinstance(exception, ServiceError):
            return service_error_response(request, exception)
        return None
