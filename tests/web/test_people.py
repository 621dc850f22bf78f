"""Guests, signing up, logging in and out on the web pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation
from memory.models import Memory
from tests.conftest import make_account
from tests.web.conftest import person_of, remember, text_of

PASSWORD = "a-long-passphrase-42"


def test_a_first_visit_shows_the_chat_and_creates_nobody(db: None) -> None:
    client = Client()
    response = client.get(reverse("chat:home"))
    assert response.status_code == 200
    assert "What can Whizi help with?" in text_of(response)
    assert "_auth_user_id" not in client.session
    assert User.objects.count() == 0


def test_a_guest_is_created_by_the_first_message(db: None, scripted) -> None:
    client = Client()
    client.get(reverse("chat:home"))
    response = client.post(
        reverse("chat:new"), {"model": "scripted/chat-a", "content": "My name is Anna"}
    )
    assert response.status_code == 302
    guest = person_of(client)
    assert guest.is_guest
    assert User.objects.count() == 1
    assert Conversation.objects.get(owner=guest).messages.count() == 2


def test_the_guest_stays_the_same_across_visits(guest_client: Client) -> None:
    first = person_of(guest_client)
    guest_client.get(reverse("accounts:settings"))
    guest_client.get(reverse("chat:projects"))
    assert person_of(guest_client) == first
    assert User.objects.count() == 1


def test_the_sign_up_and_log_in_pages_create_no_guest(db: None) -> None:
    client = Client()
    assert client.get(reverse("accounts:signup")).status_code == 200
    assert client.get(reverse("accounts:login")).status_code == 200
    assert User.objects.count() == 0


def test_signing_up_creates_an_account_and_logs_it_in(db: None) -> None:
    client = Client()
    response = client.post(
        reverse("accounts:signup"), {"email": "Anna@Example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    account = person_of(client)
    assert account.email == "anna@example.com"
    assert not account.is_guest


def test_a_guest_who_signs_up_keeps_their_conversations_and_memory(
    guest_client: Client, guest: User
) -> None:
    kept = chat_services.create_conversation(owner_id=guest.pk)
    remember(guest, "Name is Anna", "Lives in Turin")
    response = guest_client.post(
        reverse("accounts:signup"), {"email": "anna@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    account = person_of(guest_client)
    assert account.pk != guest.pk
    assert list(Conversation.objects.for_owner(account)) == [kept]
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Lives in Turin"]
    assert not User.objects.filter(pk=guest.pk).exists()


def test_a_guest_who_logs_in_is_merged_into_the_account(guest_client: Client, guest: User) -> None:
    account = make_account()
    remember(account, "Name is Anna")
    remember(guest, "Lives in Turin", "Name is Anna")
    chat_services.create_conversation(owner_id=guest.pk)
    response = guest_client.post(
        reverse("accounts:login"), {"email": "anna@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert person_of(guest_client) == account
    assert Conversation.objects.for_owner(account).count() == 1
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Lives in Turin"]
    assert not User.objects.filter(pk=guest.pk).exists()


def test_logging_in_with_a_wrong_password_shows_an_error(guest_client: Client) -> None:
    make_account()
    response = guest_client.post(
        reverse("accounts:login"), {"email": "anna@example.com", "password": "nope"}
    )
    assert response.status_code == 400
    assert "Wrong email or password." in text_of(response)
    assert person_of(guest_client).is_guest


def test_signing_up_with_a_taken_email_shows_an_error(db: None) -> None:
    make_account()
    response = Client().post(
        reverse("accounts:signup"), {"email": "anna@example.com", "password": PASSWORD}
    )
    assert response.status_code == 400
    assert "An account with this email already exists." in text_of(response)


def test_signing_up_with_a_weak_password_shows_why(db: None) -> None:
    response = Client().post(
        reverse("accounts:signup"), {"email": "anna@example.com", "password": "123"}
    )
    assert response.status_code == 400
    assert "too short" in text_of(response)
    assert not User.objects.filter(email="anna@example.com").exists()


def test_logging_in_goes_back_to_a_local_next_page_only(db: None) -> None:
    make_account()
    credentials = {"email": "anna@example.com", "password": PASSWORD}
    response = Client().post(reverse("accounts:login"), {**credentials, "next": "/settings/"})
    assert response["Location"] == "/settings/"
    response = Client().post(
        reverse("accounts:login"), {**credentials, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_logging_out_ends_the_session(account_client: Client, account: User) -> None:
    response = account_client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in account_client.session
    page = text_of(account_client.get(reverse("chat:home")))
    assert "_auth_user_id" not in account_client.session
    assert "Log in" in page and "anna@example.com" not in page


def test_logging_out_says_so_after_the_redirect(account_client: Client) -> None:
    response = account_client.post(reverse("accounts:logout"), follow=True)
    page = text_of(response)
    assert response.redirect_chain == [(reverse("chat:home"), 302)]
    assert "You're logged out." in page
    # Shown once: the next page no longer carries it.
    assert "You're logged out." not in text_of(account_client.get(reverse("chat:home")))


def test_the_log_out_message_is_translated(account_client: Client) -> None:
    response = account_client.post(
        reverse("accounts:logout"), follow=True, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "Logout effettuato." in text_of(response)


@pytest.mark.parametrize("method", ["get", "put"])
def test_logging_out_needs_a_post(account_client: Client, method: str) -> None:
    response = getattr(account_client, method)(reverse("accounts:logout"))
    assert response.status_code == 405


def test_the_sidebar_offers_sign_up_to_guests_and_log_out_to_accounts(
    guest_client: Client, account_client: Client
) -> None:
    guest_page = text_of(guest_client.get(reverse("accounts:settings")))
    assert "Sign up" in guest_page and "Log out" not in guest_page
    account_page = text_of(account_client.get(reverse("accounts:settings")))
    assert "Log out" in account_page and "anna@example.com" in account_page
