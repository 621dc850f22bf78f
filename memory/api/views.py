"""The memory part of the mobile API (SPEC §10): see it, delete a line, clear it, switch it."""

from __future__ import annotations

from django.db import DatabaseError
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import error
from memory import services, texts


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
    response["ETag"] = f'"{view.version}"'
    return response


# The app maps these codes to its alerts (SPEC §7): "Memory unavailable", "Couldn't clear memory".
# Both name the memory service, not the account, and neither deletes anything.
UNAVAILABLE = ("memory_unavailable", texts.MEMORY_UNAVAILABLE)
CLEAR_FAILED = ("clear_failed", texts.CLEAR_FAILED)


class MemoryView(APIView):
    @extend_schema(responses={200: MemorySerializer, 503: None})
    def get(self, request: Request) -> Response:
        try:
            view = services.view_memory(owner_id=request.user.pk)
        except DatabaseError:
            return error(*UNAVAILABLE, status.HTTP_503_SERVICE_UNAVAILABLE)
        return memory_response(view)

    @extend_schema(responses={204: None, 503: None})
    def delete(self, request: Request) -> Response:
        try:
            services.clear_memory(owner_id=request.user.pk)
        except DatabaseError:
            return error(*CLEAR_FAILED, status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=SwitchSerializer, responses=MemorySerializer)
    def patch(self, request: Request) -> Response:
        data = SwitchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        view = services.set_enabled(
            owner_id=request.user.pk, enabled=data.validated_data["enabled"]
        )
        return memory_response(view)


ANY_VERSION = -1


def parse_if_match(header: str | None) -> int | None:
    """``If-Match: "7"`` or ``7`` → 7; ``*`` → any version (RFC 9110); anything else → None."""
    value = (header or "").strip()
    if value == "*":
        return ANY_VERSION
    value = value.removeprefix("W/").strip('"')
    return int(value) if value.isdigit() else None


class MemoryLineView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)],
        responses={200: MemorySerializer, 412: None, 428: None},
    )
    def delete(self, request: Request, index: int) -> Response:
        header = request.headers.get("If-Match")
        if header is None:
            return error(
                "version_required",
                "Send If-Match with the version you are looking at.",
                status.HTTP_428_PRECONDITION_REQUIRED,
            )
        version = parse_if_match(header)
        try:
            if version is None:
                raise services.StaleVersion
            view = services.delete_line(
                owner_id=request.user.pk,
                index=index,
                expected_version=None if version == ANY_VERSION else version,
            )
        except services.StaleVersion:
            return error(
                "stale_version",
                "The memory changed since you loaded it. Reload and try again.",
                status.HTTP_412_PRECONDITION_FAILED,
            )
        except services.LineNotFound:
            return error("not_found", "Not found.", status.HTTP_404_NOT_FOUND)
        return memory_response(view)
