"""Cursor pages for the API's lists (DRF's ``CursorPagination``): stable under inserts, since a
cursor names a position, not an offset. ``?cursor=…&limit=…``; the answer is
``{"results", "next", "previous"}``, each link a URL or null."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError
from django.db.models import QuerySet
from django.utils.translation import gettext
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import Invalid


class Pages(CursorPagination):
    page_size = 50
    max_page_size = 200
    page_size_query_param = "limit"

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except (ValueError, TypeError, ValidationError, DataError):
            # A cursor that decodes to a position no row can have ("p=abc", a 13th month).
            raise _bad_cursor() from None

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise Invalid(
                "invalid_limit",
                gettext("limit is a whole number from 1 to %(most)s.")
                % {"most": self.max_page_size},
            )
        return int(raw)

    def decode_cursor(self, request: Request) -> Cursor | None:
        raw = request.query_params.get(self.cursor_query_param)
        if raw is not None and not _CURSOR_RE.match(raw):
            raise _bad_cursor()  # base64 decoding would skip what it cannot read
        try:
            return super().decode_cursor(request)
        except Exception:  # noqa: BLE001 - DRF raises NotFound; a bad cursor is the caller's
            raise _bad_cursor() from None


_CURSOR_RE = re.compile(r"\A[A-Za-z0-9+/=_-]{1,500}\Z")


def _bad_cursor() -> Invalid:
    return Invalid("invalid_cursor", gettext("This cursor is from no page of this list."))


class ConversationPages(Pages):
    """Newest first (by last activity)."""

    ordering = ("-updated_at", "-id")


class MessagePages(Pages):
    """In the order they were said. The first page holds the newest messages; ``previous``
    goes back to older ones, ``next`` on to newer ones."""

    ordering = "-id"

    def in_order(self, queryset: QuerySet[Any], request: Request) -> list[Any]:
        return list(reversed(self.paginate_queryset(queryset, request) or []))

    def links(self) -> dict[str, str | None]:
        # Read newest-first, shown oldest-first: DRF's "next" page is the older one.
        return {"next": self.get_previous_link(), "previous": self.get_next_link()}

    def get_paginated_response(self, data: Any) -> Response:
        return Response({"results": data, **self.links()})
