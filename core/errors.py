"""The one error type the services raise: ``ServiceError(code, status)`` and its family.

A service says what went wrong once, as a stable ``code`` (the API's, SPEC §10), an HTTP
``status``, a ``detail`` for people and the body's ``extra`` fields; ``core.api`` answers it on
the API and ``core.error_pages`` on the web pages. Privacy: the detail and the extra fields
are our own fixed texts and codes, never message or memory text, and ``str()`` of the error
(what a log or a traceback shows) is its code and status alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from django.contrib.messages import constants as levels
from django.http import Http404
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# A text for people: plain, or translated when shown (``gettext_lazy``).
Text: TypeAlias = "str | StrPromise"


class ServiceError(Exception):
    """An answer the person (or the app) can act on, not a bug: never a 5xx unless
    the service itself is unavailable. Subclasses fix the defaults; an instance may
    override them (``AuthError("email_taken", gettext("…"))``)."""

    code: str = "error"
    status: int = 400
    detail: Text = "Error."
    # How a page shows it: an error, or a warning when the page was only out of date.
    level: ClassVar[int] = levels.ERROR

    def __init__(
        self,
        code: str | None = None,
        detail: Text | None = None,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        if code is not None:
            self.code = code
        if detail is not None:
            self.detail = detail
        if status is not None:
            self.status = status
        self.headers = headers or {}
        self.extra = extra
        super().__init__(self.code)  # the args a traceback shows: the code only

    def __str__(self) -> str:
        return f"{self.code} ({self.status})"

    def body(self) -> dict[str, Any]:
        """The JSON every error answers (SPEC §10): ``{"code", "detail", ...extra}``."""
        return {"code": self.code, "detail": str(self.detail), **self.extra}


class Invalid(ServiceError):
    """Input the person can fix (HTTP 400)."""

    code = "invalid"
    detail = "Check the fields."


class Forbidden(ServiceError):
    """Known, and not allowed (HTTP 403)."""

    code = "forbidden"
    status = 403


class NotFound(ServiceError, Http404):
    """Nothing of the person's there (HTTP 404). Also an ``Http404``, so a page that meets it
    shows Django's 404 page, as ``get_object_or_404`` does."""

    code = "not_found"
    status = 404
    detail = "Not found."


class Conflict(ServiceError):
    """The request contradicts the state it found (HTTP 409)."""

    code = "conflict"
    status = 409


class Busy(Conflict):
    """The database rolled the request back to break a deadlock or a serialization failure
    with someone changing the same rows, again after every retry (HTTP 409): nothing was
    changed, and trying again works. Not an outage (``core.db``)."""

    code = "busy"
    detail = _("Something else was changing this at the same moment. Nothing changed; try again.")


class Stale(ServiceError):
    """Changed since the version the caller saw (HTTP 412)."""

    code = "stale_version"
    status = 412
    level = levels.WARNING


class Unavailable(ServiceError):
    """The service cannot answer right now: nothing was changed (HTTP 503)."""

    code = "unavailable"
    status = 503
    detail = _("The service is unavailable right now. Try again in a moment.")
