"""Someone else's data is a 404 on every page and action; every POST needs its CSRF token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation, Message
from memory.models import Memory
from tests.conftest import make_account
from tests.web.conftest import guest_browser, person_of, remember, stream_headers


@pytest.fixture
def annas_conversation(db: None) -> Conversation:
    anna = make_account("anna@example.com")
    return chat_services.create_conversation(owner_id=anna.pk, model="scripted/chat-a")


@pytest.fixture
def mallory(db: None) -> Client:
    client = Client()
    client.force_login(make_account("mallory@example.com"))
    return client


def test_someone_elses_conversation_is_not_found(
    mallory: Client, annas_conversation: Conversation
) -> None:
    url = reverse("chat:conversation", args=[annas_conversation.pk])
    assert mallory.get(url).status_code == 404


@pytest.mark.parametrize(
    ("name", "data", "headers"),
    [
        ("chat:send", {"content": "hi"}, {}),
        ("chat:send", {"content": "hi"}, stream_headers()),
        ("chat:switch_model", {"model": "scripted/chat-b"}, {}),
        ("chat:switch_model", {"model": "scripted/chat-b"}, {"HTTP_ACCEPT": "application/json"}),
    ],
)
def test_posting_to_someone_elses_conversation_is_not_found_and_changes_nothing(
    mallory: Client,
    annas_conversation: Conversation,
    scripted: Any,
    name: str,
    data: dict[str, str],
    headers: dict[str, str],
) -> None:
    response = mallory.post(reverse(name, args=[annas_conversation.pk]), data, **headers)
    assert response.status_code == 404
    annas_conversation.refresh_from_db()
    assert annas_conversation.model == "scripted/chat-a"
    assert not Message.objects.exists()
    assert scripted.calls == []


def test_a_guest_is_also_kept_out_of_someone_elses_conversation(
    guest_client: Client, annas_conversation: Conversation
) -> None:
    url = reverse("chat:conversation", args=[annas_conversation.pk])
    assert guest_client.get(url).status_code == 404


def test_starting_a_chat_in_someone_elses_project_is_not_found(mallory: Client) -> None:
    anna = make_account("anna@example.com")
    project = chat_services.create_project(owner_id=anna.pk, name="Private")
    response = mallory.post(
        reverse("chat:new"), {"model": "scripted/chat-a", "project": project.pk}
    )
    assert response.status_code == 404
    assert not Conversation.objects.exists()


def test_memory_actions_only_ever_touch_my_own_memory(mallory: Client) -> None:
    anna = make_account("anna@example.com")
    memory = remember(anna, "Name is Anna", "Lives in Turin")
    mallory.post(reverse("memory:delete_line", args=[0]), {"version": memory.version}, follow=True)
    mallory.post(reverse("memory:clear"))
    mallory.post(reverse("memory:switch"), {"enabled": "0"})
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna", "Lives in Turin"]
    assert memory.enabled


# --- CSRF ---------------------------------------------------------------------------------------


def _own_conversation(client: Client) -> Conversation:
    return chat_services.create_conversation(owner_id=person_of(client).pk)


POSTS: list[tuple[str, Callable[[Client], str]]] = [
    ("new chat", lambda c: reverse("chat:new")),
    ("send", lambda c: reverse("chat:send", args=[_own_conversation(c).pk])),
    ("switch model", lambda c: reverse("chat:switch_model", args=[_own_conversation(c).pk])),
    ("projects", lambda c: reverse("chat:projects")),
    ("sign up", lambda c: reverse("accounts:signup")),
    ("log in", lambda c: reverse("accounts:login")),
    ("log out", lambda c: reverse("accounts:logout")),
    ("delete account", lambda c: reverse("accounts:delete")),
    ("language", lambda c: reverse("accounts:set_language")),
    ("clear memory", lambda c: reverse("memory:clear")),
    ("delete a line", lambda c: reverse("memory:delete_line", args=[0])),
    ("memory switch", lambda c: reverse("memory:switch")),
]


@pytest.mark.parametrize(("action", "url_for"), POSTS, ids=[name for name, _ in POSTS])
def test_a_post_without_its_csrf_token_is_refused(
    db: None, action: str, url_for: Callable[[Client], str]
) -> None:
    client = guest_browser(enforce_csrf_checks=True)
    remember(person_of(client), "Name is Anna")
    response = client.post(url_for(client), {"content": "hi", "enabled": "0", "version": "2"})
    assert response.status_code == 403
    memory = Memory.objects.get(owner=person_of(client))
    assert memory.lines == ["Name is Anna"] and memory.enabled
    assert not Message.objects.exists()


def test_a_post_with_its_csrf_token_is_accepted(db: None, scripted: Any) -> None:
    client = guest_browser(enforce_csrf_checks=True)
    conversation = _own_conversation(client)
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("chat:send", args=[conversation.pk]),
        {"content": "hi"},
        HTTP_X_CSRFTOKEN=token,
        **stream_headers(),
    )
    assert response.status_code == 200
    b"".join(response.streaming_content)
    assert User.objects.count() == 1
