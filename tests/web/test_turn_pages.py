"""Stop, regenerate and edit on the web pages, with and without JavaScript: only the last
exchange offers Edit and Regenerate, both work as plain forms, stop answers JSON, someone
else's chat is a 404, and the words are in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from chat import services as chat_services
from chat.models import Conversation, Message
from memory.engine import passes
from memory.models import Memory, MemoryVersion
from tests.conftest import make_account
from tests.memory.helpers import answer
from tests.web.conftest import events_of, stream_headers, text_of

pytestmark = pytest.mark.django_db


def page_of(client: Client, conversation: Conversation, **headers: Any) -> str:
    return text_of(client.get(reverse("chat:conversation", args=[conversation.pk]), **headers))


def test_only_the_last_exchange_offers_edit_and_regenerate(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    for text in ("One", "Two"):
        chat_services.send_message(conversation=conversation, content=text)
    page = page_of(account_client, conversation)
    last = conversation.messages.filter(role="user").last()
    assert last is not None
    assert page.count("data-edit>") == 1
    assert reverse("chat:edit", args=[conversation.pk, last.pk]) in page
    assert page.count("data-regenerate>") == 2  # the one under the last reply, the template
    assert page.index("echo: Two") < page.index(">Regenerate<")


def test_without_javascript_regenerate_is_a_form_that_replaces_the_reply(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    scripted.answer("First.", "Second.")
    chat_services.send_message(conversation=conversation, content="Hi")
    response = account_client.post(reverse("chat:regenerate", args=[conversation.pk]))
    assert response.status_code == 302
    assert list(conversation.messages.values_list("content", flat=True)) == ["Hi", "Second."]


def test_without_javascript_an_edit_is_a_page_whose_form_replaces_the_exchange(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    chat_services.send_message(conversation=conversation, content="My name is Bob")
    question = conversation.messages.get(role="user")
    page = text_of(account_client.get(reverse("chat:edit", args=[conversation.pk, question.pk])))
    assert "Edit your message" in page
    assert ">My name is Bob</textarea>" in page
    assert f'name="replaces" value="{question.pk}"' in page

    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": "My name is Rob", "replaces": question.pk},
    )
    assert response.status_code == 302
    assert list(conversation.messages.values_list("content", flat=True)) == [
        "My name is Rob",
        "echo: My name is Rob",
    ]


def test_an_edit_of_an_earlier_message_is_refused_and_said(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    for text in ("One", "Two"):
        chat_services.send_message(conversation=conversation, content=text)
    first = conversation.messages.filter(role="user").first()
    assert first is not None
    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": "Uno", "replaces": first.pk},
        HTTP_ACCEPT="text/event-stream",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "not_last_message"
    assert conversation.messages.count() == 4


def test_someone_elses_chat_is_404_for_stop_regenerate_and_edit(
    conversation: Conversation, scripted: Any
) -> None:
    chat_services.send_message(conversation=conversation, content="Private")
    question = conversation.messages.get(role="user")
    stranger = Client()
    stranger.force_login(make_account("stranger@example.com"))
    assert stranger.post(reverse("chat:stop", args=[conversation.pk])).status_code == 404
    assert stranger.post(reverse("chat:regenerate", args=[conversation.pk])).status_code == 404
    edit = reverse("chat:edit", args=[conversation.pk, question.pk])
    assert stranger.get(edit).status_code == 404
    assert conversation.messages.count() == 2


def test_stop_answers_202_json(account_client: Client, conversation: Conversation) -> None:
    response = account_client.post(reverse("chat:stop", args=[conversation.pk]))
    assert response.status_code == 202
    assert response.json() == {"status": "stopping"}


def test_a_streamed_edit_says_what_it_replaced_and_what_memory_kept(
    account_client: Client, account: Any, conversation: Conversation, memory_model: Any
) -> None:
    memory_model.answer("Noted.", answer("Favourite colour is teal"), "Ok.")
    chat_services.send_message(
        conversation=conversation, content="Remember that my favourite colour is teal"
    )
    memory = Memory.objects.get(owner=account)
    assert passes.run_pass(memory_id=memory.pk).outcome == "ok"
    MemoryVersion.objects.filter(memory=memory).delete()  # pruned: it cannot be taken back
    question = conversation.messages.get(role="user")

    response = account_client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": "Hello", "replaces": question.pk},
        **stream_headers(),
    )

    kind, start = events_of(response)[0]
    assert kind == "start" and start["replaced"] == question.pk
    assert "check Settings → Memory" in start["memory_kept"]
    assert not Message.objects.filter(pk=question.pk).exists()


def test_the_new_controls_are_in_the_readers_language(
    account_client: Client, conversation: Conversation, scripted: Any
) -> None:
    chat_services.send_message(conversation=conversation, content="Ciao")
    italian = page_of(account_client, conversation, HTTP_ACCEPT_LANGUAGE="it")
    for word in ("Rigenera", "Modifica", "Interrompi", "Stai modificando il tuo messaggio"):
        assert word in italian
    french = page_of(account_client, conversation, HTTP_ACCEPT_LANGUAGE="fr")
    for word in ("Régénérer", "Modifier", "Arrêter", "Modification de votre message"):
        assert word in french
