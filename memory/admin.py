"""The operators' admin: read-only and content-free (issue 13 point 7).

The memory trace and pass scheduling, never a line or a message: fields are an allow-list,
search matches an owner id only. Messages are not registered.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from memory.models import Memory, MemoryEvent
from memory.scheduling import COORDINATION_COLUMNS


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewing only, searched by owner id."""

    actions = None
    # Listed so the search box shows; see get_search_results.
    search_fields = ("=owner_id",)
    search_help_text = "Owner id (exact)"
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        # Never a text search: an owner id, exactly, or nothing.
        term = search_term.strip()
        if not term:
            return queryset, False
        if not term.isdigit():
            return queryset.none(), False
        return queryset.filter(owner_id=int(term)), False


class OwedFilter(admin.SimpleListFilter):
    title = "owed"
    parameter_name = "owed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "A pass is owed"), ("no", "Nothing owed")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet | None:
        if self.value() == "yes":
            return queryset.filter(pass_requested=True)
        if self.value() == "no":
            return queryset.filter(pass_requested=False)
        return None


def _backing_off(now: Any) -> Q:
    return Q(pass_failures__gt=0) | Q(pass_retries__gt=0) | Q(pass_not_before__gt=now)


class BackingOffFilter(admin.SimpleListFilter):
    title = "backing off"
    parameter_name = "backing_off"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Failed or waiting to retry"), ("no", "Not backing off")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet | None:
        if self.value() == "yes":
            return queryset.filter(_backing_off(timezone.now()))
        if self.value() == "no":
            return queryset.exclude(_backing_off(timezone.now()))
        return None


class RunningFilter(admin.SimpleListFilter):
    title = "running"
    parameter_name = "running"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "A pass holds the lease")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet | None:
        if self.value() == "yes":
            return queryset.filter(lease_until__gt=timezone.now())
        return None


# Never "lines", nor anything else that could hold text.
MEMORY_FIELDS = (
    "id",
    "owner_id",
    "version",
    "tokens",
    "rules_version",
    "enabled",
    *COORDINATION_COLUMNS,
    "updated_at",
)


@admin.register(Memory)
class MemoryAdmin(ReadOnlyAdmin):
    """Pass scheduling per owner; no line is shown."""

    fields = MEMORY_FIELDS
    readonly_fields = MEMORY_FIELDS
    list_display = MEMORY_FIELDS
    list_filter = (OwedFilter, BackingOffFilter, RunningFilter, "enabled")
    ordering = ("-pass_requested", "pass_resend_at", "id")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # The text is never even read.
        return super().get_queryset(request).defer("lines")


# Numbers, times and codes only (MemoryEvent holds no text).
EVENT_FIELDS = (
    "id",
    "created_at",
    "owner_id",
    "kind",
    "outcome",
    "lines_before",
    "lines_after",
    "tokens_before",
    "tokens_after",
    "refused_lines",
    "model",
    "latency_ms",
    "model_tokens_in",
    "model_tokens_out",
)


@admin.register(MemoryEvent)
class MemoryEventAdmin(ReadOnlyAdmin):
    """The memory trace, in counts and codes."""

    fields = EVENT_FIELDS
    readonly_fields = EVENT_FIELDS
    list_display = EVENT_FIELDS
    list_filter = ("kind", "outcome", "created_at")
    date_hierarchy = "created_at"
