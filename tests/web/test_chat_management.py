"""Managing chats and projects on the web pages (issue 17, point 3): rename, delete with a
confirmation, search over the sidebar, temporary chats kept out of it and of "/", and projects
edited and deleted. Each works without JavaScript; the page's script gets JSON."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation, Message, Project
from tests.web.conftest import text_of

JSON = {"HTTP_ACCEPT": "application/json"}


def chat(owner: User, first_message: str, **fields: Any) -> Conversation:
    conversation = chat_services.create_conversation(owner_id=owner.pk, **fields)
    chat_services.send_message(conversation=conversation, content=first_message)
    conversation.refresh_from_db()
    return conversation


def sidebar_of(page: str) -> str:
    return page.split('class="conversation-list"', 1)[1].split("</ul>", 1)[0]


# --- Temporary chats ----------------------------------------------------------------------------


def test_a_temporary_chat_is_not_in_the_sidebar(account_client: Client, account: User) -> None:
    kept = chat(account, "Kept chat")
    chat(account, "Secret chat", temporary=True)
    page = text_of(account_client.get(reverse("chat:conversation", args=[kept.pk])))
    assert "Kept chat" in sidebar_of(page)
    assert "Secret chat" not in sidebar_of(page)


def test_home_never_reopens_a_temporary_chat(account_client: Client, account: User) -> None:
    kept = chat(account, "Kept chat")
    chat(account, "Secret chat", temporary=True)
    response = account_client.get(reverse("chat:home"))
    assert response["Location"] == reverse("chat:conversation", args=[kept.pk])


def test_home_offers_a_new_chat_when_only_temporary_ones_exist(
    account_client: Client, account: User
) -> None:
    chat(account, "Secret chat", temporary=True)
    response = account_client.get(reverse("chat:home"))
    assert response.status_code == 200
    assert "What can Whizi help with?" in text_of(response)


# --- Rename -------------------------------------------------------------------------------------


def test_a_chat_is_renamed_without_javascript(account_client: Client, account: User) -> None:
    conversation = chat(account, "Trip ideas")
    url = reverse("chat:rename", args=[conversation.pk])
    form = text_of(account_client.get(url))
    assert 'value="Trip ideas"' in form
    response = account_client.post(url, {"title": "  Rome in May "})
    assert response["Location"] == reverse("chat:conversation", args=[conversation.pk])
    conversation.refresh_from_db()
    assert conversation.title == "Rome in May"


def test_a_chat_is_renamed_by_the_page_script(account_client: Client, account: User) -> None:
    conversation = chat(account, "Trip ideas")
    response = account_client.post(
        reverse("chat:rename", args=[conversation.pk]), {"title": "Rome"}, **JSON
    )
    assert response.status_code == 200
    assert response.json() == {"title": "Rome"}


def test_a_blank_title_is_refused_on_the_form_and_for_the_script(
    account_client: Client, account: User
) -> None:
    conversation = chat(account, "Trip ideas")
    url = reverse("chat:rename", args=[conversation.pk])
    page = account_client.post(url, {"title": "  "})
    assert page.status_code == 400
    assert "Give the chat a title." in text_of(page)
    script = account_client.post(url, {"title": ""}, **JSON)
    assert (script.status_code, script.json()["code"]) == (400, "empty_title")
    too_long = account_client.post(url, {"title": "x" * 500}, **JSON)
    assert (too_long.status_code, too_long.json()["code"]) == (400, "title_too_long")
    conversation.refresh_from_db()
    assert conversation.title == "Trip ideas"


def test_the_rename_error_is_translated(account_client: Client, account: User) -> None:
    conversation = chat(account, "Trip ideas")
    url = reverse("chat:rename", args=[conversation.pk])
    italian = account_client.post(url, {"title": ""}, HTTP_ACCEPT_LANGUAGE="it", **JSON)
    french = account_client.post(url, {"title": ""}, HTTP_ACCEPT_LANGUAGE="fr", **JSON)
    assert italian.json()["detail"] == "Dai un titolo alla chat."
    assert french.json()["detail"] == "Donnez un titre à la discussion."


# --- Delete -------------------------------------------------------------------------------------


def test_deleting_a_chat_asks_first_then_deletes_it(account_client: Client, account: User) -> None:
    conversation = chat(account, "Trip ideas")
    url = reverse("chat:delete", args=[conversation.pk])
    confirm = text_of(account_client.get(url))
    assert "Delete chat?" in confirm and "Trip ideas" in confirm
    assert Conversation.objects.filter(pk=conversation.pk).exists()

    response = account_client.post(url, follow=True)
    assert not Conversation.objects.filter(pk=conversation.pk).exists()
    assert not Message.objects.exists()
    assert "Chat deleted." in text_of(response)


def test_the_page_script_deletes_a_chat_and_gets_json(
    account_client: Client, account: User
) -> None:
    conversation = chat(account, "Trip ideas")
    response = account_client.post(reverse("chat:delete", args=[conversation.pk]), **JSON)
    assert response.status_code == 200
    assert response.json() == {"deleted": True}
    assert not Conversation.objects.exists()


def test_someone_elses_chat_is_404_for_rename_and_delete(
    account_client: Client, guest: User
) -> None:
    theirs = chat(guest, "Their chat")
    for name in ("chat:rename", "chat:delete"):
        url = reverse(name, args=[theirs.pk])
        assert account_client.get(url).status_code == 404
        assert account_client.post(url, {"title": "Mine"}).status_code == 404
        assert account_client.post(url, {"title": "Mine"}, **JSON).status_code == 404
    theirs.refresh_from_db()
    assert theirs.title == "Their chat"


# --- Search -------------------------------------------------------------------------------------


def test_the_sidebar_has_a_search_box(account_client: Client, account: User) -> None:
    conversation = chat(account, "Trip ideas")
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert 'role="search"' in page and 'name="q"' in page


def test_searching_without_javascript_lists_the_matching_chats(
    account_client: Client, account: User, guest: User
) -> None:
    chat(account, "Trip to Lisbon")
    chat(account, "Birthday ideas")
    chat(account, "Lisbon secret", temporary=True)
    chat(guest, "Their Lisbon chat")
    page = text_of(account_client.get(reverse("chat:search"), {"q": "lisbon"}))
    assert "Trip to Lisbon" in page
    assert "Birthday ideas" not in page
    assert "Lisbon secret" not in page
    assert "Their Lisbon chat" not in page


def test_the_page_script_gets_the_list_alone(account_client: Client, account: User) -> None:
    chat(account, "Trip to Lisbon")
    chat(account, "Birthday ideas")
    response = account_client.get(
        reverse("chat:search"), {"q": "BIRTHDAY"}, HTTP_X_WHIZI_FRAGMENT="1"
    )
    fragment = text_of(response)
    assert fragment.lstrip().startswith("<ul")
    assert "Birthday ideas" in fragment and "Trip to Lisbon" not in fragment
    nothing = text_of(
        account_client.get(reverse("chat:search"), {"q": "zzz"}, HTTP_X_WHIZI_FRAGMENT="1")
    )
    assert "No chats found." in nothing


def test_a_visitor_can_search_and_finds_nothing(client: Client, db: None) -> None:
    response = client.get(reverse("chat:search"), {"q": "x"})
    assert response.status_code == 200
    assert not User.objects.exists()  # looking creates no guest


# --- Projects -----------------------------------------------------------------------------------


def test_a_project_is_edited_on_its_page(account_client: Client, account: User) -> None:
    project = chat_services.create_project(owner_id=account.pk, name="Thesis", instructions="A")
    url = reverse("chat:project", args=[project.pk])
    form = text_of(account_client.get(url))
    assert 'value="Thesis"' in form and ">\nA</textarea>" in form
    response = account_client.post(url, {"name": " Thesis 2 ", "instructions": "In Italian."})
    assert response["Location"] == reverse("chat:projects")
    project.refresh_from_db()
    assert (project.name, project.instructions) == ("Thesis 2", "In Italian.")
    assert reverse("chat:project", args=[project.pk]) in text_of(
        account_client.get(reverse("chat:projects"))
    )


def test_a_project_needs_a_name_when_edited(account_client: Client, account: User) -> None:
    project = chat_services.create_project(owner_id=account.pk, name="Thesis")
    response = account_client.post(reverse("chat:project", args=[project.pk]), {"name": " "})
    assert response.status_code == 400
    project.refresh_from_db()
    assert project.name == "Thesis"


def test_deleting_a_project_asks_first_and_takes_its_chats(
    account_client: Client, account: User
) -> None:
    project = chat_services.create_project(owner_id=account.pk, name="Thesis")
    chat(account, "Chapter one", project=project)
    outside = chat(account, "Outside")
    url = reverse("chat:delete_project", args=[project.pk])
    confirm = text_of(account_client.get(url))
    assert "Delete “Thesis”?" in confirm and "1 chat" in confirm
    response = account_client.post(url, follow=True)
    assert "Project deleted." in text_of(response)
    assert not Project.objects.exists()
    assert list(Conversation.objects.all()) == [outside]


@pytest.mark.parametrize("name", ["chat:project", "chat:delete_project"])
def test_someone_elses_project_is_404_on_the_web(
    account_client: Client, guest: User, name: str
) -> None:
    theirs = chat_services.create_project(owner_id=guest.pk, name="Theirs")
    url = reverse(name, args=[theirs.pk])
    assert account_client.get(url).status_code == 404
    assert account_client.post(url, {"name": "Mine"}).status_code == 404
    assert Project.objects.get().name == "Theirs"
