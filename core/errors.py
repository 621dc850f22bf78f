"""The one error type services raise: ``ServiceError(code, status)`` and its family.

A service states a failure once: a stable ``code`` (SPEC §10), a ``status``, a ``detail`` and
``extra`` fields; ``core.api`` and ``core.error_pages`` answer it. Privacy: detail and extras
are fixed texts and codes, never message or memory text, and ``str()`` is the code and status.
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
    """An answer the person or app can act on, not a bug (no 5xx unless unavailable).
    Subclasses set defaults; an instance may override them."""

    code: str = "error"
    status: int = 400
    detail: Text = "Error."
    # An error, or a warning when the page was only out of date.
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
    """Nothing of the person's there (HTTP 404); also an ``Http404`` for pages."""

    code = "not_found"
    status = 404
    detail = "Not found."


class Conflict(ServiceError):
    """The request contradicts the state it found (HTTP 409)."""

    code = "conflict"
    status = 409


class Busy(Conflict):
    """A deadlock or serialization rollback, after every retry (HTTP 409): nothing changed,
    a retry works. Not an outage (``core.db``)."""

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
