"""Settings: the guest's sign-up prompt, the export download and deleting the account."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation
from memory.models import Memory
from tests.web.conftest import person_of, remember, text_of


def test_a_guest_is_asked_to_sign_up_to_keep_their_chats(guest_client: Client) -> None:
    page = text_of(guest_client.get(reverse("accounts:settings")))
    assert "Sign up to keep your chats" in page


def test_an_account_is_not_asked_to_sign_up(account_client: Client) -> None:
    page = text_of(account_client.get(reverse("accounts:settings")))
    assert "Sign up to keep your chats" not in page


def test_the_memory_section_comes_at_the_end_of_preferences(account_client: Client) -> None:
    page = text_of(account_client.get(reverse("accounts:settings")))
    preferences = page.index('id="preferences"')
    language = page.index('name="language"')
    memory = page.index('id="memory"')
    your_data = page.index('id="data"')
    assert preferences < language < memory < your_data


def test_the_export_downloads_everything_as_json(
    account_client: Client, account: User, scripted: Any
) -> None:
    conversation = chat_services.create_conversation(owner_id=account.pk, model="scripted/chat-a")
    chat_services.send_message(conversation=conversation, content="Hello")
    remember(account, "Name is Anna")
    response = account_client.get(reverse("accounts:export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="whizi-export.json"'
    data = json.loads(response.content)
    assert data["memory"]["lines"] == ["Name is Anna"]
    assert data["profile"]["email"] == "anna@example.com"
    assert data["conversations"][0]["messages"][0]["content"] == "Hello"


def test_deleting_with_a_wrong_password_deletes_nothing(
    account_client: Client, account: User
) -> None:
    remember(account, "Name is Anna")
    chat_services.create_conversation(owner_id=account.pk)
    response = account_client.post(reverse("accounts:delete"), {"password": "wrong"})
    assert response.status_code == 400
    assert "Wrong password. Nothing was deleted." in text_of(response)
    assert User.objects.filter(pk=account.pk).exists()
    assert Memory.objects.get(owner=account).lines == ["Name is Anna"]
    assert Conversation.objects.filter(owner=account).count() == 1
    assert person_of(account_client) == account


def test_deleting_with_the_password_deletes_everything_and_logs_out(
    account_client: Client, account: User
) -> None:
    remember(account, "Name is Anna")
    chat_services.create_conversation(owner_id=account.pk)
    response = account_client.post(reverse("accounts:delete"), {"password": "a-long-passphrase-42"})
    assert response["Location"] == reverse("chat:home")
    assert not User.objects.filter(pk=account.pk).exists()
    assert not Memory.objects.exists()
    assert not Conversation.objects.exists()
    assert "_auth_user_id" not in account_client.session


def test_a_guest_can_delete_their_data_without_a_password(
    guest_client: Client, guest: User
) -> None:
    remember(guest, "Lives in Turin")
    response = guest_client.post(reverse("accounts:delete"))
    assert response.status_code == 302
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Memory.objects.exists()


def test_a_guest_is_asked_to_confirm_in_a_dialog_not_for_a_password(guest_client: Client) -> None:
    page = text_of(guest_client.get(reverse("accounts:settings")))
    data = page[page.index('id="data"') :]
    assert 'name="password"' not in data
    # The button opens the dialog; without JavaScript its link leads to the confirmation page.
    assert f'href="{reverse("accounts:delete")}" data-open-dialog="delete-data-dialog"' in data
    dialog = data[data.index('<dialog class="dialog" id="delete-data-dialog"') :]
    assert "Delete your data?" in dialog
    assert (
        "This permanently deletes your chats, projects and everything Whizi remembers about you. "
        "This can't be undone."
    ) in dialog
    assert f'<form method="post" action="{reverse("accounts:delete")}"' in dialog


def test_without_javascript_a_guest_confirms_on_a_page_and_nothing_goes_before(
    guest_client: Client, guest: User
) -> None:
    remember(guest, "Lives in Turin")
    response = guest_client.get(reverse("accounts:delete"))
    page = text_of(response)
    assert response.status_code == 200
    assert "Delete your data?" in page
    assert 'name="password"' not in page
    assert f'<form method="post" action="{reverse("accounts:delete")}"' in page
    assert f'href="{reverse("accounts:settings")}#data"' in page  # Cancel
    assert User.objects.filter(pk=guest.pk).exists()
    assert Memory.objects.get(owner=guest).lines == ["Lives in Turin"]


def test_an_account_still_confirms_with_its_password(account_client: Client, account: User) -> None:
    settings_page = text_of(account_client.get(reverse("accounts:settings")))
    assert 'name="password"' in settings_page[settings_page.index('id="data"') :]
    assert "delete-data-dialog" not in settings_page
    response = account_client.get(reverse("accounts:delete"))
    assert response.status_code == 200
    page = text_of(response)
    assert "Delete your account?" in page and 'name="password"' in page
    assert User.objects.filter(pk=account.pk).exists()


def test_deleting_needs_a_post(account_client: Client, account: User) -> None:
    assert account_client.put(reverse("accounts:delete")).status_code == 405
    assert account_client.get(reverse("accounts:delete")).status_code == 200
    assert User.objects.filter(pk=account.pk).exists()
