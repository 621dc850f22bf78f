"""What every response carries that apps expect from the APIs they know (issue 27, point 6):
a request id, the rate limit that applies, and JSON gzipped.

A request id is the client's ``X-Request-Id`` when it is a plain token (letters, digits and
``-_.:``, up to 128), else a new one; it is on the response and on every log record of the
request (``%(request_id)s``), never with content. Hand-written, not django-guid: that one keeps
only UUIDs from clients, and an app's own ids are worth keeping.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware

HEADER = "X-Request-Id"
_ID_RE = re.compile(r"\A[A-Za-z0-9._:-]{1,128}\Z")
_current: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
RATE_NOTE = "_whizi_rate_limit"  # (limit, remaining, reset seconds), set by core.throttling


class RequestIdFilter(logging.Filter):
    """Puts the request id on each record (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get()
        return True


def current_request_id() -> str:
    return _current.get()


@contextlib.contextmanager
def logging_as(request_id: str) -> Iterator[None]:
    """The request id on log records written later, by a stream's body after its view."""
    token = _current.set(request_id)
    try:
        yield
    finally:
        # Closed from another context (a collected generator): nothing to put back there.
        with contextlib.suppress(ValueError):
            _current.reset(token)


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        sent = request.headers.get(HEADER, "")
        request_id = sent if _ID_RE.match(sent) else uuid.uuid4().hex
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        if note := getattr(request, RATE_NOTE, None):
            limit, remaining, reset = note
            response["RateLimit-Limit"] = str(limit)
            response["RateLimit-Remaining"] = str(remaining)
            response["RateLimit-Reset"] = str(reset)
        return response


class JsonGZipMiddleware(GZipMiddleware):
    """Django's gzip for JSON only: never a stream (it would hold events back) and never a page
    (a page with a CSRF token is what BREACH reads)."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        kind = response.get("Content-Type", "")
        if response.streaming or not (kind.startswith("application/") and "json" in kind):
            return response
        etag = response.get("ETag")
        response = super().process_response(request, response)
        if etag is not None:
            # Django weakens it for caches; ours names the memory's version whatever the
            # encoding, and apps send it back in If-Match, which compares strongly.
            response["ETag"] = etag
        return response
