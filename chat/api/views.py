"""The chat part of the mobile API (SPEC §10)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAcceptable
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import chats, receipts, services
from chat import relay as relays
from chat.access import conversation_for, project_for, voice_session_for
from chat.api import serializers as s
from chat.api.pagination import ConversationPages, MessagePages
from chat.models import Conversation, Message, Project
from chat.relay import Relay
from chat.streaming import resumed_reply, streaming_reply
from core import throttling
from core.errors import Conflict, Invalid, NotFound, Unavailable
from core.idempotency import InProgress, Replay, answered_before, idempotent
from core.people import PersonRequest
from core.schema import errors

STREAM = OpenApiResponse(OpenApiTypes.STR, description=s.SSE_EVENTS)
LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    str,
    OpenApiParameter.HEADER,
    description="The `id` of the last event read: only what came after it (with a stream).",
)

# Retries with an Idempotency-Key (core.idempotency): what a POST made, and its answer again.


def _made_id(response: HttpResponseBase) -> int:
    return int(cast(Response, response).data["id"])


def _question_made(response: HttpResponseBase) -> int:
    made = getattr(response, "question_id", None)
    return int(made if made is not None else cast(Response, response).data["user_message"]["id"])


def _conversation_again(request: PersonRequest, replay: Replay) -> Response:
    conversation = conversation_for(request.user, replay.ref)
    return Response(s.ConversationSerializer(conversation).data, status=replay.status)


def _answered_again(
    view: APIView, request: PersonRequest, replay: Replay, pk: int
) -> HttpResponseBase:
    """A retried send or regenerate: its reply as it is now (streamed: the rest of it)."""
    conversation = conversation_for(request.user, pk)
    if request.accepted_renderer.format == "sse":
        return _resume(request, conversation, replay.ref)
    question = conversation.messages.filter(pk=replay.ref, role=Message.Role.USER).first()
    if question is None:
        raise NotFound
    try:
        if relays.writing(conversation.pk, question.pk):  # the first was a stream, still going
            raise InProgress(headers={"Retry-After": "1"})
    except relays.RelayUnavailable:
        raise Unavailable from None
    reply = question.newest_reply()
    exchange = services.Exchange(
        user_message=question, assistant_message=reply, error=None if reply else "no_reply"
    )
    # As a JSON answer of this endpoint has it, whichever way the first was asked.
    return Response(_exchange_body(exchange), status=getattr(view, "json_status", 200))


def _project_again(request: PersonRequest, replay: Replay) -> Response:
    project = project_for(request.user, replay.ref)
    return Response(s.ProjectSerializer(project).data, status=replay.status)


def _voice_again(request: PersonRequest, replay: Replay) -> Response:
    session = voice_session_for(request.user, replay.ref)
    instructions = services.voice_instructions(owner_id=request.user.pk)
    return Response({"id": session.pk, "instructions": instructions}, status=replay.status)


class ModelsView(APIView):
    @extend_schema(responses=s.ModelOptionSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.ModelOptionSerializer(services.available_models(), many=True).data)


class ConversationListView(APIView):
    @extend_schema(
        operation_id="conversations_list",
        parameters=[s.ConversationQuerySerializer, s.PageQuerySerializer],
        responses={
            200: s.ConversationPageSerializer,
            400: errors("invalid", "invalid_cursor", "invalid_limit"),
        },
        description="The person's chats, a page at a time, newest first; never a temporary "
        "chat, nor one with no message yet (a new chat is listed from its first message). "
        "With `q`, those whose title or messages contain it.",
    )
    def get(self, request: PersonRequest) -> Response:
        query = s.ConversationQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = chats.listed(request.user, query=query.validated_data.get("q", "")).said()
        pages = ConversationPages()
        page = pages.paginate_queryset(found, request, view=self) or []
        return pages.get_paginated_response(s.ConversationSerializer(page, many=True).data)

    @extend_schema(
        request=s.ConversationCreateSerializer,
        responses={
            201: s.ConversationSerializer,
            400: errors("unknown_model"),
            404: errors("not_found"),
        },
    )
    @idempotent(ref=_made_id, replay=lambda _view, request, got: _conversation_again(request, got))
    def post(self, request: PersonRequest) -> Response:
        data = s.ConversationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project_id = data.validated_data.get("project")
        project = project_for(request.user, project_id) if project_id else None
        conversation = services.create_conversation(
            owner_id=request.user.pk,
            model=data.validated_data.get("model"),
            project=project,
            temporary=data.validated_data["temporary"],
        )
        return Response(s.ConversationSerializer(conversation).data, status=status.HTTP_201_CREATED)


class ConversationDetailView(APIView):
    @extend_schema(
        parameters=[s.PageQuerySerializer],
        responses={200: s.ConversationDetailSerializer, 400: errors("invalid_limit")},
        description="The chat with its newest messages; older ones come from `messages_previous`.",
    )
    def get(self, request: PersonRequest, pk: int) -> Response:
        conversation = conversation_for(request.user, pk)
        pages = MessagePages()
        conversation.newest_messages = pages.in_order(_messages_of(conversation), request)  # type: ignore[attr-defined]
        pages.base_url = request.build_absolute_uri(f"{request.path}/messages")
        if "limit" in request.query_params:  # the next page as long as this one
            pages.base_url += f"?limit={pages.get_page_size(request)}"
        conversation.older_messages = pages.links()["previous"]  # type: ignore[attr-defined]
        return Response(s.ConversationDetailSerializer(conversation).data)

    @extend_schema(
        request=s.ConversationUpdateSerializer,
        responses={
            200: s.ConversationSerializer,
            400: errors("unknown_model", "empty_title", "title_too_long", "invalid"),
        },
        description="Rename the chat (`title`), switch its model (`model`), or both: both are "
        "checked before either is written.",
    )
    def patch(self, request: PersonRequest, pk: int) -> Response:
        conversation = conversation_for(request.user, pk)
        data = s.ConversationUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        chats.update_conversation(conversation=conversation, **data.validated_data)
        return Response(s.ConversationSerializer(conversation).data)

    @extend_schema(responses={204: None})
    def delete(self, request: PersonRequest, pk: int) -> Response:
        services.delete_conversation(conversation=conversation_for(request.user, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventStreamRenderer(BaseRenderer):
    """Lets ``Accept: text/event-stream`` through content negotiation; the view streams."""

    media_type = "text/event-stream"
    format = "sse"

    def render(
        self,
        data: object,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return json.dumps(data).encode()


def _messages_of(conversation: Conversation) -> QuerySet[Message]:
    return receipts.with_receipts(conversation.messages.all())


class StreamingView(APIView):
    """Answers as server-sent events with ``Accept: text/event-stream``, errors as JSON."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
        # An error answers before any stream starts: JSON, whatever the client accepts.
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


class RetriesAreFree(APIView):
    """Only a POST that makes something counts against its rate limit. A resume
    (``Last-Event-ID``) or a retry drawn again from an Idempotency-Key counts against the
    limit on reading replies again; a GET against none."""

    def get_throttles(self) -> list[Any]:
        request = self.request
        if request.method != "POST":
            return []
        if getattr(request, "accepted_renderer", None) is not None and (
            _resuming(request) or answered_before(request)
        ):
            return [throttling.ResumeThrottle()]
        return super().get_throttles()


class MessageCreateView(RetriesAreFree, StreamingView):
    throttle_classes = [throttling.MessageThrottle]
    json_status = status.HTTP_201_CREATED

    @extend_schema(
        parameters=[s.PageQuerySerializer],
        responses={
            200: s.MessagePageSerializer,
            400: errors("invalid_cursor", "invalid_limit"),
            404: errors("not_found"),
        },
        description="The chat's messages, a page at a time, in the order they were said: the "
        "first page holds the newest; `previous` goes back to older ones.",
    )
    def get(self, request: PersonRequest, pk: int) -> Response:
        pages = MessagePages()
        page = pages.in_order(_messages_of(conversation_for(request.user, pk)), request)
        return pages.get_paginated_response(s.MessageSerializer(page, many=True).data)

    @extend_schema(
        request=s.MessageCreateSerializer,
        parameters=[LAST_EVENT_ID],
        responses={
            (201, "application/json"): s.ExchangeSerializer,
            (200, "text/event-stream"): STREAM,
            400: errors("invalid_message", "empty_message", "message_too_long"),
            404: errors("not_found"),
            409: errors("not_last_message", "not_a_retry", "busy"),
        },
        description="Send a message; the reply comes in the body, or as server-sent events "
        "with `Accept: text/event-stream` (`start`, `delta`…, then `done` — with "
        "`stopped: true` for a reply stopped by `POST conversations/{id}/stop` — or `error`). "
        "With `replaces`, an edit of the person's last message.",
    )
    @idempotent(ref=_question_made, replay=_answered_again)
    def post(self, request: PersonRequest, pk: int) -> Response | StreamingHttpResponse:
        conversation = conversation_for(request.user, pk)
        data = s.MessageCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        content = data.validated_data["content"]
        if _resuming(request):  # a retry after a drop: never a second send
            return _resume(request, conversation, said=content)
        replaces = data.validated_data.get("replaces")
        if request.accepted_renderer.format == "sse":
            started, events = services.stream_message(
                conversation=conversation, content=content, replaces=replaces
            )
            first = {
                "user_message": s.MessageSerializer(started.user_message).data,
                "title": conversation.title,
                **_replaced(started),
            }
            response = streaming_reply(
                events, first, relay=Relay(conversation.pk, started.user_message.pk)
            )
            response.question_id = started.user_message.pk  # type: ignore[attr-defined]
            return response
        exchange = services.send_message(
            conversation=conversation, content=content, replaces=replaces
        )
        return Response(_exchange_body(exchange), status=status.HTTP_201_CREATED)


class MessageStreamView(StreamingView):
    # A stream first: EventSource and most SSE clients send only "*/*" or nothing.
    renderer_classes = [EventStreamRenderer, JSONRenderer]
    throttle_classes = [throttling.ResumeThrottle]

    @extend_schema(
        request=None,
        parameters=[LAST_EVENT_ID],
        responses={
            (200, "text/event-stream"): STREAM,
            400: errors("invalid_last_event_id"),
            404: errors("not_found"),
            503: errors("unavailable"),
        },
        description="The reply to the person's message `message_id`, streamed like `POST "
        "messages`: as it is being written, or stored. With `Last-Event-ID` (the `id` of the "
        "last event the app read), only what came after it; without, from a `start` event.",
    )
    def get(self, request: PersonRequest, pk: int, message_id: int) -> StreamingHttpResponse:
        if request.accepted_renderer.format != "sse":
            raise NotAcceptable  # only ever a stream
        return _resume(request, conversation_for(request.user, pk), message_id)


def _resuming(request: Request) -> bool:
    return request.accepted_renderer.format == "sse" and "Last-Event-ID" in request.headers


def _resume(
    request: PersonRequest,
    conversation: Conversation,
    message_id: int | None = None,
    *,
    said: str | None = None,
) -> StreamingHttpResponse:
    """The rest of a reply: the question named by the URL, else by ``Last-Event-ID``. A send
    retried with ``Last-Event-ID`` (``said``) must be that question's, or nothing is lost
    quietly: 409 ``not_a_retry``."""
    header = request.headers.get("Last-Event-ID")
    after = relays.Position.parse(header)
    if header is not None and after is None:
        raise Invalid("invalid_last_event_id", _("Last-Event-ID names no event of this API."))
    question_id = message_id if message_id is not None else getattr(after, "question", None)
    question = (
        conversation.messages.filter(pk=question_id, role=Message.Role.USER).first()
        if question_id is not None
        else None
    )
    if question is None:
        raise NotFound
    if said is not None and (
        services.clean_message(said) != question.content
        or conversation.messages.filter(role=Message.Role.USER, pk__gt=question.pk).exists()
    ):  # a retry resends the newest message; anything else is a new one
        raise Conflict(
            "not_a_retry",
            _("Last-Event-ID names the reply to another message. Send this one without it."),
        )
    try:
        response = resumed_reply(question, after, _first(question, conversation))
    except relays.RelayUnavailable:
        raise Unavailable from None
    response.question_id = question.pk  # type: ignore[attr-defined]
    return response


def _first(question: Message, conversation: Conversation) -> dict[str, object]:
    """The "start" event: the person's message and the chat's title now."""
    return {"user_message": s.MessageSerializer(question).data, "title": conversation.title}


def _replaced(exchange: services.Exchange) -> dict[str, object]:
    if exchange.replaced is None:
        return {}
    return {"replaced": s.WithdrawalSerializer(exchange.replaced).data}


def _exchange_body(exchange: services.Exchange) -> dict[str, object]:
    body: dict[str, object] = {
        "user_message": s.MessageSerializer(exchange.user_message).data,
        "assistant_message": s.MessageSerializer(exchange.assistant_message).data
        if exchange.assistant_message
        else None,
        **_replaced(exchange),
    }
    if exchange.error:
        # The person's message was stored (201); the missing reply is said in the body.
        body["error"] = {"code": exchange.error, "detail": services.error_text(exchange.error)}
    return body


class RegenerateView(RetriesAreFree, StreamingView):
    throttle_classes = [throttling.MessageThrottle]

    @extend_schema(
        request=s.RegenerateSerializer,
        parameters=[LAST_EVENT_ID],
        responses={
            (200, "application/json"): s.ExchangeSerializer,
            (200, "text/event-stream"): STREAM,
            400: errors("unknown_model"),
            404: errors("not_found"),
            409: errors("nothing_to_regenerate", "busy"),
        },
        description="Answer the person's last message again: the new reply replaces the "
        "previous one (if any: a failed or stopped reply is retried the same way). Streams "
        "like `POST messages` with `Accept: text/event-stream`. Memory is not read again: the "
        "person's message is the same turn.",
    )
    @idempotent(ref=_question_made, replay=_answered_again)
    def post(self, request: PersonRequest, pk: int) -> Response | StreamingHttpResponse:
        conversation = conversation_for(request.user, pk)
        data = s.RegenerateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        model = data.validated_data.get("model")
        if _resuming(request):  # a retry after a drop: never a second answer
            return _resume(request, conversation)
        if request.accepted_renderer.format == "sse":
            question, events = services.stream_regenerate(conversation=conversation, model=model)
            first = {
                "user_message": s.MessageSerializer(question).data,
                "title": conversation.title,
            }
            response = streaming_reply(events, first, relay=Relay(conversation.pk, question.pk))
            response.question_id = question.pk  # type: ignore[attr-defined]
            return response
        exchange = services.regenerate(conversation=conversation, model=model)
        return Response(_exchange_body(exchange))


class StopView(APIView):
    @extend_schema(
        request=None,
        responses={202: s.StatusSerializer, 404: errors("not_found")},
        description="Stop the replies of this chat streaming now: each ends with a `done` "
        "event marked `stopped: true`, and what had arrived is kept as the reply.",
    )
    def post(self, request: PersonRequest, pk: int) -> Response:
        services.stop_replies(conversation=conversation_for(request.user, pk))
        return Response({"status": "stopping"}, status=status.HTTP_202_ACCEPTED)


@method_decorator(never_cache, name="dispatch")  # the person's own data
class MemoryChangesView(APIView):
    @extend_schema(
        parameters=[s.MemoryChangesQuerySerializer],
        responses={200: s.MemoryChangesSerializer, 400: errors("invalid")},
        description="The memory's changes after version `since`, oldest first (at most 200): "
        "what each changed, the person's message whose reading made it, whether an Undo "
        "reverted it, and whether Undo can still revert it. The receipts of every chat, "
        "without fetching the chats.",
    )
    def get(self, request: PersonRequest) -> Response:
        query = s.MemoryChangesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        changes, version, more = receipts.changes_since(
            request.user.pk, query.validated_data["since"]
        )
        return Response({"changes": changes, "version": version, "more": more})


class ProjectListView(APIView):
    @extend_schema(responses=s.ProjectSerializer(many=True))
    def get(self, request: PersonRequest) -> Response:
        return Response(
            s.ProjectSerializer(Project.objects.for_owner(request.user), many=True).data
        )

    @extend_schema(request=s.ProjectSerializer, responses={201: s.ProjectSerializer})
    @idempotent(ref=_made_id, replay=lambda _view, request, got: _project_again(request, got))
    def post(self, request: PersonRequest) -> Response:
        data = s.ProjectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = services.create_project(owner_id=request.user.pk, **data.validated_data)
        return Response(s.ProjectSerializer(project).data, status=status.HTTP_201_CREATED)


class ProjectDetailView(APIView):
    @extend_schema(responses=s.ProjectSerializer)
    def get(self, request: PersonRequest, pk: int) -> Response:
        return Response(s.ProjectSerializer(project_for(request.user, pk)).data)

    @extend_schema(request=s.ProjectSerializer, responses=s.ProjectSerializer)
    def patch(self, request: PersonRequest, pk: int) -> Response:
        project = project_for(request.user, pk)
        data = s.ProjectSerializer(project, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.update_project(project=project, **data.validated_data)
        return Response(s.ProjectSerializer(project).data)

    @extend_schema(responses={204: None})
    def delete(self, request: PersonRequest, pk: int) -> Response:
        services.delete_project(project=project_for(request.user, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class VoiceSessionCreateView(RetriesAreFree):
    throttle_classes = [throttling.VoiceThrottle]

    @extend_schema(
        request=s.VoiceStartSerializer,
        responses={201: s.VoiceSessionSerializer, 400: errors("unknown_model")},
    )
    @idempotent(ref=_made_id, replay=lambda _view, request, got: _voice_again(request, got))
    def post(self, request: PersonRequest) -> Response:
        data = s.VoiceStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session, instructions = services.start_voice_session(
            owner_id=request.user.pk, model=data.validated_data.get("model")
        )
        return Response(
            {"id": session.pk, "instructions": instructions}, status=status.HTTP_201_CREATED
        )


class VoiceSessionEndView(APIView):
    @extend_schema(
        request=s.VoiceEndSerializer,
        responses={202: s.StatusSerializer, 409: errors("already_ended")},
    )
    def post(self, request: PersonRequest, pk: int) -> Response:
        session = voice_session_for(request.user, pk)
        data = s.VoiceEndSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.end_voice_session(session=session, transcript=data.validated_data["transcript"])
        return Response({"status": "accepted"}, status=status.HTTP_202_ACCEPTED)
