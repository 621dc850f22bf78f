"""The memory part of the mobile API (SPEC §10): see, add, edit, delete, clear, switch."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import throttling
from core.errors import Invalid, ServiceError
from core.fields import StrictBooleanField, StrictText
from core.idempotency import Replay, idempotent
from core.people import PersonRequest
from core.schema import errors
from memory import importing, screening, services, texts
from memory.filters.gate import MAX_CHARS, MIN_CHARS
from memory.rules import imports, portable, provenance
from memory.versions import (
    NO_VERSION,
    InvalidIfMatch,
    VersionRequired,
    etag_of,
    if_match_versions,
)


class LineItemSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The line, as in `lines`.")
    kind = serializers.ChoiceField(
        choices=provenance.KINDS,
        help_text=(
            "What produced the line: `learned` (a scheduled pass over your chats), `remembered`"
            " (a pass over a message that asked to remember), `voice` (a pass over a voice"
            " session), `added` / `edited` (written or rewritten by you), `merged` (brought"
            " over from a guest session at signup or login), `imported` (pasted from another"
            " assistant: `POST memory/import`). A line a pass merely kept keeps its kind; one it"
            " rewrote keeps its origin and gets a new `changed_at`."
        ),
    )
    conversation = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "The id of your conversation whose message produced the line (`GET"
            " conversations/{id}`); null for a line written by hand, a voice session, lines"
            " saved before sources were kept, or once that conversation is deleted."
        ),
    )
    title = serializers.CharField(
        allow_null=True,
        help_text="That conversation's title (may be empty); null whenever `conversation` is.",
    )
    learned_at = serializers.DateTimeField(help_text="When the line first entered the list.")
    changed_at = serializers.DateTimeField(
        help_text="When its text last changed (a rewrite by a pass, an edit); else `learned_at`."
    )
    pinned = serializers.BooleanField(
        help_text=(
            "A line you added, edited, imported or asked to remember: memory passes never remove,"
            " merge or reword it unless you correct it or ask to forget it in a chat."
        )
    )
    product = serializers.ChoiceField(
        choices=importing.PRODUCTS,
        allow_null=True,
        help_text="For an `imported` line, the assistant it came from; else null.",
    )


class MemorySerializer(serializers.Serializer):
    lines = serializers.ListField(child=serializers.CharField())
    items = LineItemSerializer(
        many=True, help_text="One per line, in the order of `lines`: where each came from."
    )
    count = serializers.IntegerField()
    tokens = serializers.IntegerField()
    token_limit = serializers.IntegerField()
    enabled = serializers.BooleanField()
    version = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    screened = serializers.ListField(
        child=serializers.ChoiceField(choices=sorted(texts.SCREENED)),
        help_text=(
            "When the safety check took saved lines out after its rules got stricter (shown for"
            " 30 days): why, one reason per line removed. The lines are never shown again."
        ),
    )
    screened_at = serializers.DateTimeField(
        allow_null=True, help_text="When the safety check last removed lines, or null."
    )


class SwitchSerializer(serializers.Serializer):
    enabled = StrictBooleanField()


def memory_response(view: services.MemoryView, http_status: int = status.HTTP_200_OK) -> Response:
    response = Response(MemorySerializer(view).data, status=http_status)
    response["ETag"] = etag_of(view.version)
    return response


def memory_now(request: PersonRequest, replay: Replay, **extra: object) -> Response:
    """A retried change answered with the list as it is now, at the first answer's status."""
    view = services.view_memory(owner_id=request.user.pk)
    response = Response({**MemorySerializer(view).data, **extra}, status=replay.status)
    response["ETag"] = etag_of(view.version)
    return response


# The app's alerts (SPEC §7): they name the memory service, and neither deletes anything.
UNAVAILABLE = ("memory_unavailable", texts.MEMORY_UNAVAILABLE)
CLEAR_FAILED = ("clear_failed", texts.CLEAR_FAILED)


IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    required=True,
    response=[200, 201],
    description="The list's version, quoted: send it back as `If-Match`.",
)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class MemoryView(APIView):
    # For any database error, also one met by token authentication (``core.api``).
    outage_codes = {"GET": UNAVAILABLE, "DELETE": CLEAR_FAILED}

    @extend_schema(
        parameters=[ETAG], responses={200: MemorySerializer, 503: errors(UNAVAILABLE[0])}
    )
    def get(self, request: PersonRequest) -> Response:
        screening.screen_before_showing(owner_id=request.user.pk)
        return memory_response(services.view_memory(owner_id=request.user.pk))

    # 404: a guest merged into an account meanwhile; nothing cleared.
    @extend_schema(responses={204: None, 404: errors("not_found"), 503: errors(CLEAR_FAILED[0])})
    def delete(self, request: PersonRequest) -> Response:
        services.clear_memory(owner_id=request.user.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=SwitchSerializer, parameters=[ETAG], responses=MemorySerializer)
    def patch(self, request: PersonRequest) -> Response:
        data = SwitchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        view = services.set_enabled(
            owner_id=request.user.pk, enabled=data.validated_data["enabled"]
        )
        return memory_response(view)


@extend_schema_field(
    {
        "type": "string",
        "minLength": MIN_CHARS,
        "maxLength": MAX_CHARS,
        "description": f"{MIN_CHARS}–{MAX_CHARS} characters once spaces are tidied; a line out "
        "of that range is 400 `line_refused` with `reason: length`.",
    }
)
class LineText(StrictText):
    """Up to 2,000 characters reach the rules, which say ``length`` past 160."""


class LineSerializer(serializers.Serializer):
    text = LineText(max_length=2_000, trim_whitespace=True)


Changed = TypeVar("Changed")


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
    view = change_at_one_of(change, header)
    return memory_response(view, status.HTTP_201_CREATED if request.method == "POST" else 200)


def change_at_one_of(change: Callable[[int | None], Changed], if_match: str | None) -> Changed:
    """``change`` at the first version ``If-Match`` names that the list is at (any for ``*``);
    a stale try writes nothing. A bad header still tries at no version, so a 404 comes first
    (RFC 9110 §13.2.1)."""
    refusal: ServiceError = services.StaleVersion()
    try:
        if if_match is None:
            raise VersionRequired
        versions = if_match_versions(if_match)
    except (VersionRequired, InvalidIfMatch) as error:
        versions, refusal = [], error
    if versions is None:
        return change(None)
    for version in versions or [NO_VERSION]:
        try:
            return change(version)
        except services.StaleVersion:
            continue
    raise refusal


@method_decorator(never_cache, name="dispatch")  # the person's own data
class MemoryLinesView(APIView):
    @extend_schema(
        request=LineSerializer,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER), ETAG],
        responses={
            201: MemorySerializer,
            200: MemorySerializer,
            400: errors("line_refused", "invalid_if_match"),
            409: errors("memory_full"),
            412: errors("stale_version"),
        },
        description="Add a fact of the person's own (201). A line memory already has (whatever "
        "the case, spacing or final punctuation) adds nothing and answers 200 with the list as "
        "it is: a retried add gets its line back, never a `duplicate` refusal.",
    )
    @idempotent(
        ref=lambda response: None, replay=lambda _view, request, got: memory_now(request, got)
    )
    def post(self, request: PersonRequest) -> Response:
        """Add a fact of the person's own, checked like the model's lines."""
        data = LineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"]
        try:
            return _changing(
                request,
                lambda version: services.add_line(
                    owner_id=request.user.pk, text=text, expected_version=version
                ),
                version_required=False,
            )
        except services.LineRefused as refused:
            if refused.reason != "duplicate":
                raise
        return memory_response(services.view_memory(owner_id=request.user.pk))


@method_decorator(never_cache, name="dispatch")  # the person's own data
class MemoryLineView(APIView):
    @extend_schema(
        request=LineSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={
            200: MemorySerializer,
            400: errors("line_refused", "invalid_if_match"),
            404: errors("not_found"),
            409: errors("memory_full"),
            412: errors("stale_version"),
            428: errors("version_required"),
        },
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

    @extend_schema(
        parameters=[IF_MATCH, ETAG],
        responses={
            200: MemorySerializer,
            400: errors("invalid_if_match"),
            404: errors("not_found"),
            412: errors("stale_version"),
            428: errors("version_required"),
        },
    )
    def delete(self, request: PersonRequest, index: int) -> Response:
        return _changing(
            request,
            lambda version: services.delete_line(
                owner_id=request.user.pk, index=index, expected_version=version
            ),
        )


class ImportSerializer(serializers.Serializer):
    text = StrictText(trim_whitespace=False, allow_blank=True)
    product = serializers.ChoiceField(choices=importing.PRODUCTS, default="other")
    leave_out = serializers.ListField(
        child=serializers.IntegerField(min_value=0), required=False, default=list, max_length=2_000
    )


class ImportedSerializer(serializers.Serializer):
    added = serializers.ListField(
        child=serializers.CharField(),
        help_text="The lines added, or that would be with `dry_run`, in order, as stored.",
    )
    known = serializers.IntegerField(help_text="Lines memory already had, or pasted twice.")
    refused = serializers.DictField(
        child=serializers.IntegerField(),
        help_text=(
            "Lines refused, by reason: the gate's (`secret`, `instruction`, `link`, `markup`,"
            " `length`) and `forgotten` (you deleted it or asked to forget it). Never echoed."
        ),
    )
    left_out = serializers.ListField(
        child=serializers.CharField(),
        help_text="Lines that would pass the memory's cap: not added.",
    )
    dry_run = serializers.BooleanField()
    memory = MemorySerializer(help_text="The memory after the import (as it is, with `dry_run`).")


def _dry_run(request: Request) -> bool:
    """``?dry_run=true`` or ``false`` (or none): a typo must not import for real."""
    value = request.query_params.get("dry_run", "false").lower()
    if value not in {"true", "false"}:
        raise Invalid(fields={"dry_run": ["Must be true or false."]})
    return value == "true"


PASTE_TOO_LONG = Invalid(
    "paste_too_long",
    f"A paste may hold up to {imports.MAX_PASTE_CHARS:,} characters, an export of ours up to "
    f"{portable.MAX_DOCUMENT_CHARS:,}.",
)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class MemoryImportView(APIView):
    throttle_classes = [throttling.MemoryImportThrottle]

    @extend_schema(
        request=ImportSerializer,
        parameters=[
            IF_MATCH,
            ETAG,
            OpenApiParameter("dry_run", bool, description="Say what would change; store nothing."),
        ],
        responses={
            200: ImportedSerializer,
            201: ImportedSerializer,
            400: errors("invalid", "paste_too_long", "invalid_if_match"),
            412: errors("stale_version"),
            428: errors("version_required"),
            429: errors("rate_limited"),
        },
        description="Import a memory pasted from another assistant (ChatGPT, Claude, Gemini) or "
        "our own export. Code reads it, never a model: each line meets the same checks as any "
        "other, is never added twice, and never brings back what you deleted or asked to "
        "forget. `leave_out`: positions in a preview's `added` to skip. 201 when lines were "
        "added (one version: `POST memory/undo` takes it back), else 200.",
    )
    def post(self, request: PersonRequest) -> Response:
        data = ImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        text = data.validated_data["text"]
        if len(text) > imports.bound_of(text):
            raise PASTE_TOO_LONG
        dry_run = _dry_run(request)
        done = change_at_one_of(
            lambda version: importing.import_paste(
                owner_id=request.user.pk,
                text=text,
                product=data.validated_data["product"],
                expected_version=version,
                dry_run=dry_run,
                leave_out=data.validated_data["leave_out"],
            ),
            request.headers.get("If-Match"),
        )
        added = bool(done.added) and not dry_run
        response = Response(
            ImportedSerializer(done).data,
            status=status.HTTP_201_CREATED if added else status.HTTP_200_OK,
        )
        response["ETag"] = etag_of(done.memory.version)
        return response
