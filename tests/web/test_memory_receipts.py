"""The chat page's "Memory updated" (issue 15, point 1): under the turn whose pass changed the
list, with the change, a link to Settings and Undo; asked for by the page's script after a
reply, and shown again when the page loads."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from chat.models import Conversation, Message
from memory.engine import passes
from memory.models import Memory
from memory.services import get_memory
from tests.memory.helpers import answer
from tests.web.conftest import remember, text_of

JSON = {"HTTP_ACCEPT": "application/json"}


def say(client: Client, conversation: Conversation, text: str) -> Message:
    response = client.post(reverse("chat:send", args=[conversation.pk]), {"content": text})
    assert response.status_code == 302
    return conversation.messages.filter(role="user").latest("id")


def run_pass(owner: User) -> str:
    return passes.run_pass(memory_id=get_memory(owner_id=owner.pk).pk).outcome


def receipts(client: Client, conversation: Conversation, after: object) -> dict[str, Any]:
    url = reverse("chat:memory_receipts", args=[conversation.pk])
    response = client.get(url, {"after": after}, **JSON)
    assert response.status_code == 200
    return response.json()


def undo(client: Client, conversation: Conversation, version: object, **headers: Any):
    url = reverse("chat:undo_memory", args=[conversation.pk])
    return client.post(url, {"version": version}, **headers)


@pytest.fixture
def boulder(account: User, conversation: Conversation, account_client: Client, memory_model):
    """Anna corrected where she lives, and the pass that read it changed the list."""
    remember(account, "Name is Anna", "Lives in Denver")
    memory_model.answer("Hi.", "Noted.", answer("Name is Anna", "Lives in Boulder"))
    say(account_client, conversation, "Hi there")
    mine = say(account_client, conversation, "I moved to Boulder, remember that")
    assert run_pass(account) == "ok"
    return mine


def test_the_page_shows_the_change_under_the_newest_turn_its_pass_read(
    account_client: Client, conversation: Conversation, boulder: Message
) -> None:
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert page.count("Memory updated") == 1
    mine = page.split(f'data-message-id="{boulder.pk}"')[1]
    assert "Memory updated" in mine
    assert "Lives in Denver → Lives in Boulder" in mine
    assert 'href="/settings/?memory=open#memory"' in mine
    assert ">Undo</button>" in mine


def test_the_script_finds_the_receipt_and_stops_waiting(
    account_client: Client, conversation: Conversation, boulder: Message
) -> None:
    body = receipts(account_client, conversation, boulder.pk)
    assert body["waiting"] is False
    assert list(body["receipts"]) == [str(boulder.pk)]
    assert "Lives in Denver → Lives in Boulder" in body["receipts"][str(boulder.pk)]


def test_the_script_waits_while_a_pass_is_owed_for_the_turn(
    account: User, account_client: Client, conversation: Conversation, memory_model
) -> None:
    memory_model.answer("Noted.")
    mine = say(account_client, conversation, "I live in Boulder, remember that")
    assert receipts(account_client, conversation, mine.pk) == {"receipts": {}, "waiting": True}


def test_nothing_is_shown_and_nothing_awaited_when_a_pass_changed_nothing(
    account: User, account_client: Client, conversation: Conversation, memory_model
) -> None:
    remember(account, "Name is Anna")
    memory_model.answer("Noted.", answer("Name is Anna"))
    mine = say(account_client, conversation, "It's sunny, remember that")
    assert run_pass(account) == "unchanged"
    assert receipts(account_client, conversation, mine.pk) == {"receipts": {}, "waiting": False}
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "Memory updated" not in page


def test_a_turn_no_pass_is_owed_for_is_not_awaited(
    account_client: Client, conversation: Conversation, scripted
) -> None:
    scripted.answer("Hello!")
    mine = say(account_client, conversation, "Hello there")
    assert receipts(account_client, conversation, mine.pk)["waiting"] is False


def test_undo_from_the_receipt_reverts_the_change(
    account: User, account_client: Client, conversation: Conversation, boulder: Message
) -> None:
    version = Memory.objects.get(owner=account).version
    response = undo(account_client, conversation, version, **JSON)
    assert response.status_code == 200
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Lives in Denver"]
    assert response.json()["version"] == version + 1
    assert ">Undo</button>" not in response.json()["receipt"]  # drawn again, undone
    # The receipt stays, without an Undo that could no longer work.
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert "Lives in Denver → Lives in Boulder" in page
    assert ">Undo</button>" not in page


def test_undo_after_a_later_change_is_refused_and_says_so(
    account: User, account_client: Client, conversation: Conversation, boulder: Message
) -> None:
    version = Memory.objects.get(owner=account).version
    remember(account, "Name is Anna", "Lives in Boulder", "Likes jazz")
    response = undo(account_client, conversation, version, **JSON)
    assert response.status_code == 412
    assert response.json()["code"] == "stale_version"
    assert Memory.objects.get(owner=account).lines[-1] == "Likes jazz"


def test_undo_works_without_javascript_and_says_it_is_undone(
    account: User, account_client: Client, conversation: Conversation, boulder: Message
) -> None:
    version = Memory.objects.get(owner=account).version
    response = undo(account_client, conversation, version, follow=True)
    assert "Undone." in text_of(response)
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Lives in Denver"]

    again = undo(account_client, conversation, version, follow=True)
    assert "Your memory changed since, so this can't be undone here." in text_of(again)


def test_someone_elses_conversation_has_no_receipts_to_see_or_undo(
    guest_client: Client, conversation: Conversation, boulder: Message, account: User
) -> None:
    url = reverse("chat:memory_receipts", args=[conversation.pk])
    assert guest_client.get(url, {"after": 0}, **JSON).status_code == 404
    version = Memory.objects.get(owner=account).version
    assert undo(guest_client, conversation, version, **JSON).status_code == 404
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Lives in Boulder"]


@pytest.mark.parametrize("after", ["", "abc", "²", "9" * 40, "-1"])
def test_a_strange_after_is_read_as_from_the_start(
    account_client: Client, conversation: Conversation, boulder: Message, after: str
) -> None:
    assert list(receipts(account_client, conversation, after)["receipts"]) == [str(boulder.pk)]


@pytest.mark.parametrize(
    ("language", "updated", "undo_label"),
    [("it", "Memoria aggiornata", "Annulla"), ("fr", "Mémoire mise à jour", "Annuler")],
)
def test_the_receipt_speaks_italian_and_french(
    account_client: Client,
    conversation: Conversation,
    boulder: Message,
    language: str,
    updated: str,
    undo_label: str,
) -> None:
    url = reverse("chat:conversation", args=[conversation.pk])
    page = text_of(account_client.get(url, HTTP_ACCEPT_LANGUAGE=language))
    assert updated in page
    assert f">{undo_label}</button>" in page
    with translation.override(language):
        assert translation.gettext("Undone.") != "Undone."


# --- One line of a receipt (issue 28, point 5) -------------------------------------------------


@pytest.fixture
def two_lines(account: User, conversation: Conversation, account_client: Client, memory_model):
    """A pass that added two lines and changed one."""
    remember(account, "Name is Anna", "Lives in Denver")
    memory_model.answer(
        "Noted.", answer("Name is Anna", "Lives in Boulder", "Has a cat", "Plays the cello")
    )
    say(account_client, conversation, "I moved to Boulder, have a cat, play the cello: remember")
    assert run_pass(account) == "ok"
    return Memory.objects.get(owner=account).version


def undo_line(client: Client, conversation: Conversation, version: int, item: object):
    url = reverse("chat:undo_memory", args=[conversation.pk])
    return client.post(url, {"version": version, "item": item}, **JSON)


def test_one_line_of_a_change_is_undone_alone_on_the_list_as_it_is(
    account: User, account_client: Client, conversation: Conversation, two_lines: int
) -> None:
    # Items as the receipt shows them: + Has a cat, + Plays the cello, Denver → Boulder.
    assert undo_line(account_client, conversation, two_lines, 0).status_code == 200
    assert Memory.objects.get(owner=account).lines == [
        "Name is Anna",
        "Lives in Boulder",
        "Plays the cello",
    ]
    # The whole change is no longer newest, yet each line that stands can still go back.
    response = undo_line(account_client, conversation, two_lines, 2)
    assert response.status_code == 200
    assert Memory.objects.get(owner=account).lines == [
        "Name is Anna",
        "Lives in Denver",
        "Plays the cello",
    ]
    receipt = response.json()["receipt"]
    assert receipt.count('class="receipt-item receipt-added is-undone"') == 1
    assert receipt.count('name="item"') == 1  # only the cello keeps its own Undo
    assert ">Undo</button>" not in receipt


def test_a_line_whose_change_no_longer_stands_is_not_undone_again(
    account: User, account_client: Client, conversation: Conversation, two_lines: int
) -> None:
    assert undo_line(account_client, conversation, two_lines, 1).status_code == 200
    before = Memory.objects.get(owner=account).lines
    again = undo_line(account_client, conversation, two_lines, 1)
    assert (again.status_code, again.json()["code"]) == (409, "nothing_to_undo")
    assert undo_line(account_client, conversation, two_lines, 99).status_code == 409
    for wrong in ("x", "-1"):
        assert undo_line(account_client, conversation, two_lines, wrong).status_code == 404
    assert Memory.objects.get(owner=account).lines == before


def test_no_line_is_undone_alone_once_a_delete_rewrote_the_change(
    account: User, account_client: Client, conversation: Conversation, two_lines: int
) -> None:
    """The record of Denver → Boulder becomes "− Lives in Denver" once Boulder is deleted: an
    undo of that line would bring back the older wording of a fact the person deleted."""
    from memory import services as memory_services

    lines = Memory.objects.get(owner=account).lines
    memory_services.delete_line(
        owner_id=account.pk, index=lines.index("Lives in Boulder"), expected_version=None
    )
    for item in range(3):
        refused = undo_line(account_client, conversation, two_lines, item)
        assert (refused.status_code, refused.json()["code"]) == (412, "stale_version")
    assert "Lives in Denver" not in Memory.objects.get(owner=account).lines
    page = text_of(account_client.get(reverse("chat:conversation", args=[conversation.pk])))
    assert 'name="item"' not in page  # and no line offers its own Undo


def test_an_item_that_is_not_a_plain_number_is_a_404_not_a_500(
    account_client: Client, conversation: Conversation, two_lines: int
) -> None:
    for wrong in ("²", "9" * 5000, "1.0", ""):
        assert undo_line(account_client, conversation, two_lines, wrong).status_code == 404


def test_a_refused_line_undo_says_why_in_the_readers_language(
    account_client: Client, conversation: Conversation, two_lines: int
) -> None:
    assert undo_line(account_client, conversation, two_lines, 1).status_code == 200
    url = reverse("chat:undo_memory", args=[conversation.pk])
    again = account_client.post(
        url, {"version": two_lines, "item": 1}, HTTP_ACCEPT_LANGUAGE="fr", **JSON
    )
    assert again.status_code == 409
    assert again.json()["detail"] == "Cette version n'a rien changé qui puisse être annulé."
