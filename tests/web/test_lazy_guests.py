"""Guests are created when they act, not when they look: a crawler reading every page creates no
row; the first message, project or setting does, and the guest chats from the first page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat.models import Conversation, Project
from memory.models import Memory
from tests.conftest import make_account
from tests.web.conftest import person_of, text_of

pytestmark = pytest.mark.django_db

PAGES = [
    reverse("chat:home"),
    reverse("chat:new"),
    reverse("chat:projects"),
    reverse("accounts:settings"),
    reverse("accounts:settings") + "?memory=open",
    reverse("memory:section"),
    reverse("memory:clear"),
    reverse("accounts:login"),
    reverse("accounts:signup"),
    reverse("accounts:export"),
    reverse("accounts:delete"),
    "/c/1/",
    "/healthz",
]


def nothing_stored() -> bool:
    return not (
        User.objects.exists()
        or Memory.objects.exists()
        or Conversation.objects.exists()
        or Project.objects.exists()
    )


def test_a_hundred_page_views_create_no_row() -> None:
    for n in range(100):
        client = Client()  # a crawler keeps no cookie
        response = client.get(PAGES[n % len(PAGES)])
        assert response.status_code in (200, 302, 404, 503), PAGES[n % len(PAGES)]
    assert nothing_stored()


def test_a_visitor_browsing_with_a_cookie_creates_no_row_either() -> None:
    client = Client()
    for page in PAGES * 3:
        client.get(page)
    assert nothing_stored()
    assert "_auth_user_id" not in client.session


def test_head_requests_create_no_row() -> None:
    for page in PAGES:
        Client().head(page)
    assert nothing_stored()


def test_the_first_message_creates_one_guest(scripted: Any) -> None:
    client = Client()
    for _ in range(5):
        client.get(reverse("chat:home"))
    response = client.post(
        reverse("chat:new"), {"model": "scripted/chat-a", "content": "My name is Anna"}
    )
    assert response.status_code == 302
    assert User.objects.count() == 1
    guest = person_of(client)
    assert guest.is_guest
    # The guest keeps chatting in the same session: no second row.
    conversation = Conversation.objects.get(owner=guest)
    client.post(reverse("chat:send", args=[conversation.pk]), {"content": "I live in Turin"})
    assert User.objects.count() == 1
    assert conversation.messages.count() == 4


def test_the_first_project_creates_one_guest() -> None:
    client = Client()
    client.get(reverse("chat:projects"))
    response = client.post(reverse("chat:projects"), {"name": "Thesis"})
    assert response.status_code == 302
    assert User.objects.count() == 1
    assert Project.objects.get().owner == person_of(client)


@pytest.mark.parametrize(
    ("url", "data"),
    [
        (reverse("memory:switch"), {"enabled": "0"}),
        (reverse("memory:add_line"), {"text": "Prefers short answers"}),
    ],
    ids=["memory switch", "add a fact"],
)
def test_the_first_setting_creates_one_guest(url: str, data: dict[str, str]) -> None:
    client = Client()
    client.get(reverse("accounts:settings"))
    client.post(url, data)
    assert User.objects.count() == 1
    memory = Memory.objects.get(owner=person_of(client))
    assert memory.enabled is (data.get("enabled") != "0")


@pytest.mark.parametrize(
    ("url", "data"),
    [
        (reverse("memory:clear"), {}),
        (reverse("memory:delete_line", args=[0]), {"version": "1"}),
        (reverse("memory:edit_line", args=[0]), {"version": "1", "text": "Name is Bea"}),
        (reverse("accounts:delete"), {}),
        (reverse("accounts:logout"), {}),
        (reverse("chat:send", args=[1]), {"content": "hi"}),
        (reverse("chat:switch_model", args=[1]), {"model": "scripted/chat-a"}),
    ],
    ids=["clear", "delete a line", "edit a line", "delete data", "log out", "send", "switch"],
)
def test_actions_that_change_nothing_for_a_visitor_create_nobody(
    url: str, data: dict[str, str]
) -> None:
    response = Client().post(url, data)
    assert response.status_code in (200, 302, 404)
    assert nothing_stored()


def test_a_visitor_sees_the_guest_chat_page_and_settings() -> None:
    home = text_of(Client().get(reverse("chat:home")))
    assert "What can Whizi help with?" in home
    assert "Sign up" in home and "Log in" in home
    settings_page = text_of(Client().get(reverse("accounts:settings")))
    assert "Sign up to keep your chats" in settings_page
    assert "No memories yet. Facts you share in chats will appear here." in settings_page
    assert "Delete my data" not in settings_page  # nothing saved yet


def test_a_visitor_is_kept_out_of_someone_elses_conversation(scripted: Any) -> None:
    from chat import services as chat_services

    anna = make_account()
    conversation = chat_services.create_conversation(owner_id=anna.pk, model="scripted/chat-a")
    client = Client()
    assert client.get(reverse("chat:conversation", args=[conversation.pk])).status_code == 404
    response = client.post(reverse("chat:send", args=[conversation.pk]), {"content": "hi"})
    assert response.status_code == 404
    assert User.objects.count() == 1
    assert not conversation.messages.exists()


def test_a_visitor_who_signs_up_becomes_an_account_without_a_guest_in_between() -> None:
    client = Client()
    client.get(reverse("chat:home"))
    client.post(
        reverse("accounts:signup"), {"email": "anna@example.com", "password": "a-long-pass-42"}
    )
    assert list(User.objects.values_list("is_guest", flat=True)) == [False]
