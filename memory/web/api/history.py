"""Memory versions in the mobile API (SPEC §7, §10): list, look, restore, undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.idempotency import Replay, idempotent
from core.people import PersonRequest
from core.schema import errors
from memory import history, rollback, screening
from memory.models import MemoryVersion
from memory.versions import MAX_VERSION, etag_of
from memory.web.api.serializers import ChangedLineSerializer
from memory.web.api.views import ETAG, IF_MATCH, MemorySerializer, change_at_one_of, memory_now

# As many as the list endpoints answer.
HISTORY_LIMIT = 200


class VersionSummarySerializer(serializers.Serializer):
    version = serializers.IntegerField()
    at = serializers.DateTimeField(source="created_at")
    kind = serializers.ChoiceField(choices=MemoryVersion.Kind.choices)
    added = serializers.SerializerMethodField()
    changed = serializers.SerializerMethodField()
    removed = serializers.SerializerMethodField()
    later_deleted = serializers.SerializerMethodField(
        help_text="Lines of this change you deleted since: counted in `added`, `changed` and"
        " `removed` as the change was made, no longer named anywhere."
    )
    screened = serializers.ListField(
        child=serializers.CharField(), help_text="Why the safety check removed lines, if it did."
    )

    def get_added(self, version: MemoryVersion) -> int:
        return history.counted(version)["added"]

    def get_changed(self, version: MemoryVersion) -> int:
        return history.counted(version)["changed"]

    def get_removed(self, version: MemoryVersion) -> int:
        return history.counted(version)["removed"]

    def get_later_deleted(self, version: MemoryVersion) -> int:
        return history.later_deleted(version)


class VersionDetailSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    at = serializers.DateTimeField(source="created_at")
    kind = serializers.ChoiceField(choices=MemoryVersion.Kind.choices)
    lines = serializers.ListField(child=serializers.CharField())
    added = serializers.ListField(child=serializers.CharField())
    changed = serializers.SerializerMethodField()
    removed = serializers.ListField(child=serializers.CharField())
    screened = serializers.ListField(
        child=serializers.CharField(), help_text="Why the safety check removed lines, if it did."
    )

    @extend_schema_field(ChangedLineSerializer(many=True))
    def get_changed(self, version: MemoryVersion) -> list[dict[str, str]]:
        return [{"from": old, "to": new} for old, new in version.changed]


class VersionRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=MAX_VERSION)


class RolledBackSerializer(MemorySerializer):
    skipped = serializers.IntegerField(
        help_text="Lines of that version not brought back: refused by today's rules, "
        "duplicates, or over the cap."
    )


@method_decorator(never_cache, name="dispatch")  # the person's own data
class HistoryView(APIView):
    @extend_schema(responses=VersionSummarySerializer(many=True))
    def get(self, request: PersonRequest) -> Response:
        """The list's versions, newest first, with counts of lines added, changed, removed
        (at most 200)."""
        screening.screen_before_showing(owner_id=request.user.pk)
        versions = rollback.history_of(owner_id=request.user.pk, limit=HISTORY_LIMIT)
        return Response(VersionSummarySerializer(versions, many=True).data)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class HistoryVersionView(APIView):
    @extend_schema(responses={200: VersionDetailSerializer, 404: errors("not_found")})
    def get(self, request: PersonRequest, version: int) -> Response:
        """One version: its lines and the texts of the change that made it."""
        screening.screen_before_showing(owner_id=request.user.pk)
        row = rollback.version_for(owner_id=request.user.pk, version=version)
        return Response(VersionDetailSerializer(row).data)


ROLLBACK_ERRORS: dict[int, Any] = {
    400: errors("invalid", "invalid_if_match"),
    404: errors("not_found"),
    412: errors("stale_version"),
    428: errors("version_required"),
}


def _rolling_back(request: Request, roll: Callable[..., rollback.RolledBack]) -> Response:
    """Run a restore or an undo guarded by ``If-Match`` (required) and answer the memory."""
    data = VersionRequestSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    version = data.validated_data["version"]
    result = change_at_one_of(
        lambda expected: roll(owner_id=request.user.pk, version=version, expected_version=expected),
        request.headers.get("If-Match"),
    )
    body = {**MemorySerializer(result.memory).data, "skipped": result.skipped}
    response = Response(body)
    response["ETag"] = etag_of(result.memory.version)
    return response


def _skipped(response: Any) -> int:
    return int(response.data["skipped"])


def _replayed(view: APIView, request: PersonRequest, replay: Replay) -> Response:
    return memory_now(request, replay, skipped=replay.ref)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class RestoreView(APIView):
    @extend_schema(
        request=VersionRequestSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={200: RolledBackSerializer, **ROLLBACK_ERRORS},
    )
    @idempotent(ref=_skipped, replay=_replayed)
    def post(self, request: PersonRequest) -> Response:
        """A new version with the lines of ``version``, checked like hand-written ones (those
        failing are skipped and counted); nothing written if unchanged."""
        return _rolling_back(request, rollback.restore_version)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class UndoView(APIView):
    @extend_schema(
        request=VersionRequestSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={
            200: RolledBackSerializer,
            409: errors("nothing_to_undo"),
            **ROLLBACK_ERRORS,
        },
    )
    @idempotent(ref=_skipped, replay=_replayed)
    def post(self, request: PersonRequest) -> Response:
        """Revert the change that made ``version`` while it is the newest: 412 after a later
        change, 409 ``nothing_to_undo`` when nothing is undoable."""
        return _rolling_back(request, rollback.undo_version)
