"""Chat pages: conversations with the model picker and streamed replies, new chats, projects.

Views stay thin: access helpers scope every lookup to the person (others' objects are a 404)
and ``chat.services`` does the work. Replies stream as server-sent events when the script asks;
a plain form post gets the whole reply, so the chat works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import chats, receipts, services
from chat.access import conversation_for, project_for
from chat.forms import NewConversationForm, ProjectForm, RenameForm
from chat.models import Conversation, Message, Project
from chat.streaming import streaming_reply, with_markdown
from core import throttling
from core.error_pages import shown_on_page
from core.people import acting_person, person_of, person_optional, person_required
from memory import facade


def _accepts(request: HttpRequest, media_type: str) -> bool:
    return media_type in request.headers.get("Accept", "")


def _message_data(message: Message) -> dict[str, object]:
    return {
        "id": message.pk,
        "role": message.role,
        "content": message.content,
        "created_at": message.created_at.isoformat(),
    }


def _unanswered_ids(history: list[Message]) -> set[int]:
    """The person's messages no reply follows, from the fetched history (no query each)."""
    following = [*history[1:], None]
    return {
        message.pk
        for message, after in zip(history, following, strict=False)
        if message.role == Message.Role.USER
        and (after is None or after.role != Message.Role.ASSISTANT)
    }


def _localized(events: Iterator[services.StreamEvent]) -> Iterator[services.StreamEvent]:
    """The reply's events with error text in the page's language, captured now (the stream
    is consumed after the view returns)."""
    language = translation.get_language()
    for event in events:
        if event.kind == "error":
            with translation.override(language):
                text = services.error_text(str(event.data.get("code", "")))
            event = services.StreamEvent("error", {**event.data, "detail": text})
        yield event


def _send_and_report(request: HttpRequest, conversation: Conversation, content: str) -> None:
    """The no-JavaScript path: the whole reply at once; a failure becomes a page message."""
    with shown_on_page(request):
        exchange = services.send_message(
            conversation=conversation, content=content, replaces=_replaces(request)
        )
        _report(request, exchange)


def _report(request: HttpRequest, exchange: services.Exchange) -> None:
    if exchange.error:
        messages.error(request, services.error_text(exchange.error))
    if exchange.replaced is not None and exchange.replaced.memory_kept:
        messages.warning(request, MEMORY_KEPT)


# An edit whose withdrawn message taught memory something that could not be taken back.
MEMORY_KEPT = _(
    "Some of what memory learned from the message you edited is still there: "
    "check Settings → Memory."
)


def _replaces(request: HttpRequest) -> int | None:
    """The message an edit replaces, or None; a non-id is no one's message (404)."""
    text = request.POST.get("replaces", "")
    if not text:
        return None
    found = _message_id(text)
    if not found:
        raise services.MessageNotFound
    return found


def _new_chat_page(
    request: HttpRequest, form: NewConversationForm, status: int = 200
) -> HttpResponse:
    return render(request, "chat/new.html", {"form": form}, status=status)


@require_GET
@person_optional
def home(request: HttpRequest) -> HttpResponse:
    person = person_of(request)
    latest = chats.listed(person).first()  # never a temporary chat
    if latest is not None:
        return redirect("chat:conversation", pk=latest.pk)
    return _new_chat_page(request, NewConversationForm(person))


@require_http_methods(["GET", "POST"])
@person_required
def new(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        initial = {"project": request.GET.get("project")}
        return _new_chat_page(request, NewConversationForm(person_of(request), initial=initial))
    person = acting_person(request)
    form = NewConversationForm(person, request.POST)
    if not form.is_valid():
        return _new_chat_page(request, form, status=400)
    data = form.cleaned_data
    # A first message sent with the form is a chat message like any other.
    if data["content"].strip() and (
        refused := throttling.refuse_page(request, throttling.MessageThrottle)
    ):
        return refused
    project = project_for(person, data["project"]) if data["project"] else None
    conversation = services.create_conversation(
        owner_id=person.pk, model=data["model"], project=project, temporary=data["temporary"]
    )
    if data["content"].strip():
        _send_and_report(request, conversation, data["content"])
    return redirect("chat:conversation", pk=conversation.pk)


@require_GET
@person_optional
def conversation(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = conversation_for(person_of(request), pk)
    history = list(receipts.with_receipts(conversation.messages.all()))
    shown = receipts.receipts_in(history, owner_id=conversation.owner_id)
    asked = [message for message in history if message.role == Message.Role.USER]
    context = {
        "conversation": conversation,
        "history": history,
        "entries": [(message, shown.get(message.pk)) for message in history],
        "unanswered_ids": _unanswered_ids(history),
        # Only the last exchange can be edited (its question) or regenerated (its reply).
        "last_question_id": asked[-1].pk if asked else None,
        "last_reply_id": history[-1].pk
        if history and history[-1].role == Message.Role.ASSISTANT
        else None,
        "models": services.available_models(),
    }
    return render(request, "chat/conversation.html", context)


@require_POST
@person_optional
def send(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    conversation = conversation_for(person_of(request), pk)
    if refused := throttling.refuse_page(request, throttling.MessageThrottle):
        return refused
    content = request.POST.get("content", "")
    if not _accepts(request, "text/event-stream"):
        _send_and_report(request, conversation, content)
        return redirect("chat:conversation", pk=conversation.pk)
    # Refused input is JSON for the page's script (core.error_pages), before any stream.
    started, events = services.stream_message(
        conversation=conversation, content=content, replaces=_replaces(request)
    )
    first: dict[str, object] = {}
    if started.replaced is not None:
        first["replaced"] = started.replaced.message_id
        if started.replaced.memory_kept:
            first["memory_kept"] = str(MEMORY_KEPT)
    first.update(user_message=_message_data(started.user_message), title=conversation.title)
    return streaming_reply(with_markdown(_localized(events)), first)


@require_POST
@person_optional
def regenerate(request: HttpRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    """Answer the last message again, replacing its reply: streamed, or whole without JS."""
    conversation = conversation_for(person_of(request), pk)
    if refused := throttling.refuse_page(request, throttling.MessageThrottle):
        return refused
    if not _accepts(request, "text/event-stream"):
        with shown_on_page(request):
            _report(request, services.regenerate(conversation=conversation))
        return redirect("chat:conversation", pk=conversation.pk)
    question, events = services.stream_regenerate(conversation=conversation)
    first = {"user_message": _message_data(question)}
    return streaming_reply(with_markdown(_localized(events)), first)


@require_POST
@person_optional
def stop(request: HttpRequest, pk: int) -> JsonResponse:
    """Stop the chat's streaming reply; it keeps what had arrived, marked stopped."""
    services.stop_replies(conversation=conversation_for(person_of(request), pk))
    return JsonResponse({"status": "stopping"}, status=202)


@require_GET
@person_optional
def edit(request: HttpRequest, pk: int, message_pk: int) -> HttpResponse:
    """The no-JavaScript edit page for the last message; it posts to send with ``replaces``."""
    conversation = conversation_for(person_of(request), pk)
    message = conversation.messages.filter(pk=message_pk, role=Message.Role.USER).first()
    if message is None:
        raise services.MessageNotFound
    if conversation.messages.filter(role=Message.Role.USER, pk__gt=message.pk).exists():
        raise services.NotLastMessage
    context = {"conversation": conversation, "message": message}
    return render(request, "chat/edit.html", context)


@require_POST
@person_optional
def switch_model(request: HttpRequest, pk: int) -> HttpResponse:
    conversation = conversation_for(person_of(request), pk)
    with shown_on_page(request):  # the picker's script gets the error as JSON
        services.switch_model(conversation=conversation, model=request.POST.get("model", ""))
    if _accepts(request, "application/json"):
        return JsonResponse({"model": conversation.model})
    return redirect("chat:conversation", pk=conversation.pk)


@require_http_methods(["GET", "POST"])
@person_required
def projects(request: HttpRequest) -> HttpResponse:
    form = ProjectForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.create_project(owner_id=acting_person(request).pk, **form.cleaned_data)
        messages.success(request, _("Project created."))
        return redirect("chat:projects")
    owned = Project.objects.for_owner(person_of(request)).annotate(chats=Count("conversations"))
    status = 400 if form.errors else 200
    return render(request, "chat/projects.html", {"form": form, "projects": owned}, status=status)


@require_http_methods(["GET", "POST"])
@person_optional
def project(request: HttpRequest, pk: int) -> HttpResponse:
    """A project's page: its name and instructions, edited; its deletion offered."""
    project = project_for(person_of(request), pk)
    initial = {"name": project.name, "instructions": project.instructions}
    form = ProjectForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.update_project(project=project, **form.cleaned_data)
        messages.success(request, _("Project saved."))
        return redirect("chat:projects")
    context = {"project": project, "form": form, "chats": project.conversations.count()}
    return render(request, "chat/project.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
@person_optional
def delete_project(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then delete the project and its chats (no-JavaScript path)."""
    project = project_for(person_of(request), pk)
    if request.method == "GET":
        context = {"project": project, "chats": project.conversations.count()}
        return render(request, "chat/project_delete_confirm.html", context)
    services.delete_project(project=project)
    messages.success(request, _("Project deleted."))
    return redirect("chat:projects")


# --- Managing chats from the sidebar: rename, delete, search --------------------------------------


@require_http_methods(["GET", "POST"])
@person_optional
def rename(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename a chat: from the sidebar dialog (JSON back) or this page's form."""
    conversation = conversation_for(person_of(request), pk)
    form = RenameForm(request.POST or None, initial={"title": conversation.title})
    if request.method == "POST":
        with shown_on_page(request, form=form):  # the dialog's script gets the error as JSON
            chats.update_conversation(
                conversation=conversation, title=request.POST.get("title", "")
            )
            if _accepts(request, "application/json"):
                return JsonResponse({"title": conversation.title})
            messages.success(request, _("Chat renamed."))
            return redirect("chat:conversation", pk=conversation.pk)
    context = {"conversation": conversation, "form": form}
    return render(request, "chat/rename.html", context, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
@person_optional
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then delete the chat (no-JavaScript path)."""
    conversation = conversation_for(person_of(request), pk)
    if request.method == "GET":
        return render(request, "chat/delete_confirm.html", {"conversation": conversation})
    services.delete_conversation(conversation=conversation)
    if _accepts(request, "application/json"):
        return JsonResponse({"deleted": True})
    messages.success(request, _("Chat deleted."))
    return redirect("chat:home")


@require_GET
@person_optional
def search(request: HttpRequest) -> HttpResponse:
    """Chats whose title or messages contain ``q``: the sidebar fragment, or a results page."""
    query = request.GET.get("q", "")[: chats.SEARCH_MAX_CHARS]
    found = chats.sidebar_list(person_of(request), query=query)
    context = {"sidebar_conversations": found, "query": query.strip()}
    if request.headers.get("X-Whizi-Fragment"):
        return render(request, "chat/_conversation_list.html", context)
    return render(request, "chat/search.html", context)


# --- Memory receipts: "Memory updated" under the turn whose pass changed the list ----------------

RECEIPT_STALE = _("Your memory changed since, so this can't be undone here.")


def _message_id(text: str) -> int:
    """A message id from the query string; anything else is 0 (matches every message)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else 0


@require_GET
@person_optional
def memory_receipts(request: HttpRequest, pk: int) -> JsonResponse:
    """Receipts of the person's turns from ``after`` on, and whether a pass is still owed."""
    conversation = conversation_for(person_of(request), pk)
    watch = receipts.receipts_after(
        conversation, after_id=_message_id(request.GET.get("after", ""))
    )
    shown = {
        str(message_id): render_to_string(
            "chat/_receipt.html", {"receipt": receipt, "conversation": conversation}, request
        )
        for message_id, receipt in watch.receipts.items()
    }
    return JsonResponse({"receipts": shown, "waiting": watch.waiting})


@require_POST
@person_optional
def undo_memory(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo the change a receipt shows while it is newest (``version`` acts as If-Match), or
    with ``item`` one line of it while that line's change stands. Scripts get the receipt
    drawn again."""
    conversation = conversation_for(person_of(request), pk)
    with shown_on_page(request, texts={"stale_version": RECEIPT_STALE}):
        version = facade.version_of(request.POST.get("version", ""))
        item = request.POST.get("item")
        line = None if item is None else facade.version_of(item)  # a small count, checked alike
        if version is None or (item is not None and line is None):
            raise facade.VersionNotFound
        if line is None:
            result = facade.undo_version(
                owner_id=conversation.owner_id, version=version, expected_version=version
            )
        else:
            result = facade.undo_line(owner_id=conversation.owner_id, version=version, item=line)
        if _accepts(request, "application/json"):
            receipt = receipts.receipt_of(conversation, version)
            shown = receipt and render_to_string(
                "chat/_receipt.html", {"receipt": receipt, "conversation": conversation}, request
            )
            return JsonResponse({"version": result.memory.version, "receipt": shown or ""})
        messages.success(request, _("Undone."))
    return redirect("chat:conversation", pk=conversation.pk)
