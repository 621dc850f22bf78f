"""The chat pages: starting conversations, streamed replies, the no-JavaScript path, models."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation, Message, Project
from tests.web.conftest import events_of, person_of, stream_headers, text_of


def send_url(conversation: Conversation) -> str:
    return reverse("chat:send", args=[conversation.pk])


def test_home_offers_a_new_chat_when_there_is_none(guest_client: Client) -> None:
    response = guest_client.get(reverse("chat:home"))
    page = text_of(response)
    assert response.status_code == 200
    assert "What can Whizi help with?" in page
    assert 'name="temporary"' in page
    for option in chat_services.available_models():
        assert f'value="{option.id}"' in page


def test_home_opens_the_latest_conversation(account_client: Client, account: User) -> None:
    chat_services.create_conversation(owner_id=account.pk)
    latest = chat_services.create_conversation(owner_id=account.pk)
    response = account_client.get(reverse("chat:home"))
    assert response["Location"] == reverse("chat:conversation", args=[latest.pk])


def test_starting_a_chat_creates_it_with_the_chosen_model(
    account_client: Client, account: User
) -> None:
    response = account_client.post(reverse("chat:new"), {"model": "scripted/chat-b"})
    conversation = Conversation.objects.get(owner=account)
    assert response["Location"] == reverse("chat:conversation", args=[conversation.pk])
    assert conversation.model == "scripted/chat-b"
    assert not conversation.temporary


def test_a_first_message_posted_without_javascript_gets_its_reply(
    account_client: Client, account: User, scripted: Any
) -> None:
    scripted.answer("Hello Anna!")
    response = account_client.post(
        reverse("chat:new"), {"model": "scripted/chat-a", "content": "Hi, I'm Anna"}, follow=True
    )
    page = text_of(response)
    assert "Hi, I'm Anna" in page and "Hello Anna!" in page


def test_a_temporary_chat_shows_its_badge(account_client: Client, account: User) -> None:
    account_client.post(reverse("chat:new"), {"model": "scripted/chat-a", "temporary": "on"})
    conversation = Conversation.objects.get(owner=account)
    assert conversation.temporary
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "Temporary — not remembered" in page


def test_an_unknown_model_is_refused_on_the_new_chat_form(
    account_client: Client, account: User
) -> None:
    response = account_client.post(reverse("chat:new"), {"model": "openai/not-on-offer"})
    assert response.status_code == 400
    assert not Conversation.objects.exists()


def test_the_conversation_page_shows_history_picker_and_composer(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer("Nice to meet you.")
    chat_services.send_message(conversation=conversation, content="I'm Anna")
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "I'm Anna" in page and "Nice to meet you." in page
    assert '<option value="scripted/chat-a" selected>' in page
    assert 'name="content"' in page
    assert "Temporary — not remembered" not in page


def test_a_reply_streams_as_server_sent_events_and_is_stored(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer("Hello Anna, nice to meet you.")
    response = account_client.post(
        send_url(conversation), {"content": "Hi, I'm Anna"}, **stream_headers()
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    events = events_of(response)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "start" and kinds[-1] == "done" and "delta" in kinds
    assert events[0][1]["user_message"]["content"] == "Hi, I'm Anna"
    streamed = "".join(data["content"] for kind, data in events if kind == "delta")
    assert streamed == "Hello Anna, nice to meet you."
    reply = Message.objects.get(conversation=conversation, role=Message.Role.ASSISTANT)
    assert reply.content == "Hello Anna, nice to meet you."
    assert events[-1][1]["assistant_message_id"] == reply.pk


def test_an_empty_message_is_a_400_with_a_code_and_nothing_is_stored(
    account_client: Client, conversation: Conversation
) -> None:
    response = account_client.post(send_url(conversation), {"content": "  "}, **stream_headers())
    assert response.status_code == 400
    assert response.json() == {"code": "empty_message", "detail": "Write a message first."}
    assert not Message.objects.exists()


def test_a_model_timeout_is_an_error_event_and_the_next_message_works(
    account_client: Client, conversation: Conversation, scripted: Any, settings: Any
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 0.5
    scripted.answer(("sleep", 5, "late"))
    events = events_of(
        account_client.post(send_url(conversation), {"content": "First"}, **stream_headers())
    )
    kind, data = events[-1]
    assert kind == "error"
    assert data["code"] == "model_timeout"
    assert data["detail"] == chat_services.error_text("model_timeout")
    assert list(conversation.messages.values_list("role", "content")) == [("user", "First")]

    scripted.answer("Back again.")
    events = events_of(
        account_client.post(send_url(conversation), {"content": "Second"}, **stream_headers())
    )
    assert events[-1][0] == "done"
    assert conversation.messages.filter(role="assistant").get().content == "Back again."


def test_a_model_error_without_javascript_is_shown_as_a_page_message(
    account_client: Client, conversation: Conversation, scripted: Any, settings: Any
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 0.5
    scripted.answer(("sleep", 5, "late"))
    response = account_client.post(send_url(conversation), {"content": "Hello"}, follow=True)
    page = text_of(response)
    assert chat_services.error_text("model_timeout") in page
    assert "Hello" in page
    assert conversation.messages.count() == 1


def test_an_empty_message_without_javascript_is_shown_as_a_page_message(
    account_client: Client, conversation: Conversation
) -> None:
    response = account_client.post(send_url(conversation), {"content": ""}, follow=True)
    assert "Write a message first." in text_of(response)
    assert not Message.objects.exists()


NO_REPLY = "No reply — the model couldn't answer. Send your message again to retry."
NO_REPLY_LAST = "No reply — the model couldn't answer."


def test_a_message_whose_reply_failed_says_so_after_a_reload(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer(RuntimeError("the provider fell over"), "Here I am.")
    chat_services.send_message(conversation=conversation, content="Are you there?")
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "Are you there?" in page
    # The last message: said without "send again", with a Retry that answers it again.
    assert page.count(NO_REPLY_LAST) == 1 and NO_REPLY not in page
    assert reverse("chat:regenerate", args=[conversation.pk]) in page

    chat_services.send_message(conversation=conversation, content="Hello?")
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    # Only the first message went unanswered; it stays marked, after it the turn worked.
    assert page.count(NO_REPLY) == 1
    assert page.index("Are you there?") < page.index(NO_REPLY) < page.index("Hello?")


def test_answered_messages_carry_no_failure_note(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    chat_services.send_message(conversation=conversation, content="Hi")
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "echo: Hi" in page
    assert NO_REPLY not in page


def test_the_failure_notes_cost_no_query_per_message(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    url = reverse("chat:conversation", args=[conversation.pk])

    def queries_for_page() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert account_client.get(url).status_code == 200
        return len(queries)

    scripted.answer(RuntimeError("down"))
    chat_services.send_message(conversation=conversation, content="One")
    few = queries_for_page()
    scripted.answer(RuntimeError("down"), "fine", RuntimeError("down"))
    for text in ("Two", "Three", "Four"):
        chat_services.send_message(conversation=conversation, content=text)
    assert queries_for_page() == few
    assert text_of(account_client.get(url)).count(NO_REPLY_LAST) == 3


def test_the_failure_note_is_translated(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer(RuntimeError("down"), RuntimeError("down"))
    chat_services.send_message(conversation=conversation, content="Ciao")
    url = reverse("chat:conversation", args=[conversation.pk])
    italian = text_of(account_client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Nessuna risposta: il modello non è riuscito a rispondere." in italian
    french = text_of(account_client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Pas de réponse : le modèle n'a pas pu répondre." in french.replace("\u00a0", " ")


def test_in_a_temporary_chat_the_offline_model_says_it_wont_remember(
    account_client: Client, account: User
) -> None:
    conversation = chat_services.create_conversation(
        owner_id=account.pk, model="offline/whizi-chat", temporary=True
    )
    exchange = chat_services.send_message(
        conversation=conversation, content="Please remember I prefer short answers."
    )
    assert exchange.assistant_message is not None
    assert exchange.assistant_message.content == (
        "Memory is off here, so I won't remember this after our conversation."
    )


def test_switching_the_model_mid_conversation_keeps_the_history(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    chat_services.send_message(conversation=conversation, content="Remember the milk")
    response = account_client.post(
        reverse("chat:switch_model", args=[conversation.pk]), {"model": "scripted/chat-b"}
    )
    assert response["Location"] == reverse("chat:conversation", args=[conversation.pk])
    conversation.refresh_from_db()
    assert conversation.model == "scripted/chat-b"
    events = events_of(
        account_client.post(send_url(conversation), {"content": "And?"}, **stream_headers())
    )
    assert events[-1][0] == "done"
    assert events[-1][1]["model"] == "scripted/chat-b"
    asked = scripted.calls[-1]
    assert asked["model"].endswith("chat-b")
    assert any(m["content"] == "Remember the milk" for m in asked["messages"])


def test_switching_the_model_from_the_page_script_answers_json(
    account_client: Client, conversation: Conversation
) -> None:
    url = reverse("chat:switch_model", args=[conversation.pk])
    response = account_client.post(
        url, {"model": "scripted/chat-b"}, HTTP_ACCEPT="application/json"
    )
    assert response.json() == {"model": "scripted/chat-b"}
    response = account_client.post(url, {"model": "nope/nope"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_model"
    conversation.refresh_from_db()
    assert conversation.model == "scripted/chat-b"


def test_projects_are_listed_and_created(account_client: Client, account: User) -> None:
    response = account_client.post(
        reverse("chat:projects"), {"name": "Thesis", "instructions": "Answer in Italian."}
    )
    assert response.status_code == 302
    project = Project.objects.get(owner=account)
    assert (project.name, project.instructions) == ("Thesis", "Answer in Italian.")
    page = text_of(account_client.get(reverse("chat:projects")))
    assert "Thesis" in page and "Answer in Italian." in page


def test_a_project_needs_a_name(account_client: Client) -> None:
    response = account_client.post(reverse("chat:projects"), {"name": ""})
    assert response.status_code == 400
    assert not Project.objects.exists()


def test_a_chat_can_start_in_a_project(account_client: Client, account: User) -> None:
    project = chat_services.create_project(owner_id=account.pk, name="Thesis")
    page = text_of(account_client.get(reverse("chat:new") + f"?project={project.pk}"))
    assert f'<option value="{project.pk}" selected>Thesis</option>' in page
    account_client.post(reverse("chat:new"), {"model": "scripted/chat-a", "project": project.pk})
    assert Conversation.objects.get(owner=account).project == project


def test_a_guest_can_chat_without_an_account(guest_client: Client, scripted: Any) -> None:
    guest_client.post(reverse("chat:new"), {"model": "scripted/chat-a"})
    conversation = Conversation.objects.get(owner=person_of(guest_client))
    events = events_of(
        guest_client.post(send_url(conversation), {"content": "Hi"}, **stream_headers())
    )
    assert events[-1][0] == "done"


def test_the_sidebar_lists_only_my_conversations(
    account_client: Client, account: User, scripted: Any
) -> None:
    mine = chat_services.create_conversation(owner_id=account.pk)
    chat_services.send_message(conversation=mine, content="My own chat")
    other = User.objects.create_guest()
    theirs = chat_services.create_conversation(owner_id=other.pk)
    chat_services.send_message(conversation=theirs, content="Somebody else's chat")
    page = text_of(account_client.get(reverse("chat:conversation", args=[mine.pk])))
    assert "My own chat" in page
    assert "Somebody else's chat" not in page


def test_a_refused_first_message_leaves_no_empty_chat_in_the_sidebar(
    account_client: Client, settings: Any
) -> None:
    """Issue 28: a too-long first message left an empty "New chat" in the sidebar. The page's
    script makes the chat first, then sends the message from its page."""
    settings.MESSAGE_MAX_CHARS = 50
    made = account_client.post(reverse("chat:new"), {"model": settings.DEFAULT_CHAT_MODEL})
    assert made.status_code == 302
    pk = int(made["Location"].strip("/").split("/")[-1])
    refused = account_client.post(reverse("chat:send", args=[pk]), {"content": "x" * 51})
    assert refused.status_code in (302, 400)
    page = text_of(account_client.get(reverse("accounts:settings")))
    sidebar = page.split("data-conversation-list")[1].split("</ul>")[0]
    assert "New chat" not in sidebar and "No chats yet" in sidebar
