"""The memory part of the mobile API (SPEC §10): see it, delete a line, clear it, switch it."""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import error
from core.people import PersonRequest
from memory import services, texts
from memory.versions import InvalidIfMatch, etag_of, if_match_versions


class MemorySerializer(serializers.Serializer):
    lines = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()
    tokens = serializers.IntegerField()
    token_limit = serializers.IntegerField()
    enabled = serializers.BooleanField()
    version = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class SwitchSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()


def memory_response(view: services.MemoryView, http_status: int = status.HTTP_200_OK) -> Response:
    response = Response(MemorySerializer(view).data, status=http_status)
    response["ETag"] = etag_of(view.version)
    return response


# The app maps these codes to its alerts (SPEC §7): "Memory unavailable", "Couldn't clear memory".
# Both name the memory service, not the account, and neither deletes anything.
UNAVAILABLE = ("memory_unavailable", texts.MEMORY_UNAVAILABLE)
CLEAR_FAILED = ("clear_failed", texts.CLEAR_FAILED)


class MemoryView(APIView):
    # Also when the outage stops the request before the view (token authentication).
    outage_codes = {"GET": UNAVAILABLE, "DELETE": CLEAR_FAILED}

    @extend_schema(responses={200: MemorySerializer, 503: None})
    def get(self, request: PersonRequest) -> Response:
        try:
            view = services.view_memory(owner_id=request.user.pk)
        except DatabaseError:
            return error(*UNAVAILABLE, status.HTTP_503_SERVICE_UNAVAILABLE)
        return memory_response(view)

    @extend_schema(responses={204: None, 503: None})
    def delete(self, request: PersonRequest) -> Response:
        try:
            services.clear_memory(owner_id=request.user.pk)
        except DatabaseError:
            return error(*CLEAR_FAILED, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=SwitchSerializer, responses=MemorySerializer)
    def patch(self, request: PersonRequest) -> Response:
        data = SwitchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        view = services.set_enabled(
            owner_id=request.user.pk, enabled=data.validated_data["enabled"]
        )
        return memory_response(view)


class LineSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=2_000, trim_whitespace=True)


STALE = "The memory changed since you loaded it. Reload and try again."
INVALID_IF_MATCH = 'If-Match must be the ETag you were given, such as "7", or *.'
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)


def _changing(
    request: Request,
    change: Callable[[int | None], services.MemoryView],
    *,
    version_required: bool = True,
) -> Response:
    """Run a change of the list guarded by ``If-Match`` and answer it (SPEC §10)."""
    header = request.headers.get("If-Match")
    if header is None and not version_required:
        header = "*"  # adding at the end cannot undo anyone's change
    if header is None:
        return error(
            "version_required",
            "Send If-Match with the version you are looking at.",
            status.HTTP_428_PRECONDITION_REQUIRED,
        )
    try:
        versions = if_match_versions(header)
    except InvalidIfMatch:
        return error("invalid_if_match", INVALID_IF_MATCH, status.HTTP_400_BAD_REQUEST)
    try:
        view = _change_at_one_of(change, versions)
    except services.StaleVersion:
        return error("stale_version", STALE, status.HTTP_412_PRECONDITION_FAILED)
    except services.LineNotFound:
        return error("not_found", "Not found.", status.HTTP_404_NOT_FOUND)
    except services.LineRefused as refused:
        return error(
            "line_refused",
            texts.LINE_REFUSED[refused.reason],
            status.HTTP_400_BAD_REQUEST,
            reason=refused.reason,
        )
    except services.MemoryFull:
        return error("memory_full", texts.MEMORY_FULL, status.HTTP_409_CONFLICT)
    return memory_response(view, status.HTTP_201_CREATED if request.method == "POST" else 200)


def _change_at_one_of(
    change: Callable[[int | None], services.MemoryView], versions: list[int] | None
) -> services.MemoryView:
    """``change`` at the first of ``versions`` the list is at (None: at any version); a stale
    try writes nothing, so trying the next one is safe."""
    if versions is None:
        return change(None)
    for version in versions:
        try:
            return change(version)
        except services.StaleVersion:
            continue
    raise services.StaleVersion


class MemoryLinesView(APIView):
    @extend_schema(
        request=LineSerializer,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER)],
        responses={201: MemorySerializer, 400: None, 409: None, 412: None},
    )
    def post(self, request: PersonRequest) -> Response:
        """Add a fact of the person's own, checked like the model's lines."""
        data = LineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"]
        return _changing(
            request,
            lambda version: services.add_line(
                owner_id=request.user.pk, text=text, expected_version=version
            ),
            version_required=False,
        )


class MemoryLineView(APIView):
    @extend_schema(
        request=LineSerializer,
        parameters=[IF_MATCH],
        responses={200: MemorySerializer, 400: None, 404: None, 409: None, 412: None, 428: None},
    )
    def patch(self, request: PersonRequest, index: int) -> Response:
        """Rewrite one line in the person's own words, checked like the model's lines."""
        data = LineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"]
        return _changing(
            request,
            lambda version: services.edit_line(
                owner_id=request.user.pk, index=index, text=text, expected_version=version
            ),
        )

    @extend_schema(parameters=[IF_MATCH], responses={200: MemorySerializer, 412: None, 428: None})
    def delete(self, request: PersonRequest, index: int) -> Response:
        return _changing(
            request,
            lambda version: services.delete_line(
                owner_id=request.user.pk, index=index, expected_version=version
            ),
        )
