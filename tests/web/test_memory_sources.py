"""Settings → Memory says under each line where it came from, linking to its chat (issue 15,
point 2), in English, Italian and French."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat.models import Conversation
from memory import services as memory_services
from memory.models import Memory
from memory.rules.provenance import Kind, source
from tests.web.conftest import remember, text_of

THIS_YEAR = datetime.now(UTC).year
NOV_3 = datetime(THIS_YEAR, 11, 3, 12, 0, tzinfo=UTC)


def with_sources(owner: User, *pairs: tuple[str, dict]) -> None:
    memory = remember(owner, *(line for line, _ in pairs))
    Memory.objects.filter(pk=memory.pk).update(sources=[src for _, src in pairs])


def section(client: Client, language: str = "en") -> str:
    return text_of(client.get(reverse("accounts:settings"), HTTP_ACCEPT_LANGUAGE=language))


@pytest.fixture
def trip(account: User) -> Conversation:
    return Conversation.objects.create(
        owner=account, model="offline/whizi-chat", title="Trip ideas"
    )


def test_each_line_says_where_it_came_from_and_links_to_its_chat(
    account_client: Client, account: User, trip: Conversation
) -> None:
    with_sources(
        account,
        ("Wants to visit Japan", source(Kind.REMEMBERED, NOV_3, conversation=trip.pk)),
        ("Likes jazz", source(Kind.ADDED, NOV_3)),
        ("Lives in Milan", source(Kind.VOICE, NOV_3)),
        ("Has a cat", source(Kind.MERGED, NOV_3)),
    )
    page = section(account_client)
    link = reverse("chat:conversation", args=[trip.pk])
    assert f'<a href="{link}">From your chat “Trip ideas”, November 3</a>' in page
    assert "Added by you, November 3" in page
    assert "From a voice session, November 3" in page
    assert "From your guest session, November 3" in page


def test_a_line_you_edited_says_so_with_the_day_of_the_edit(
    account_client: Client, account: User, trip: Conversation
) -> None:
    with_sources(account, ("Lives in Turin", source(Kind.LEARNED, NOV_3, conversation=trip.pk)))
    version = memory_services.view_memory(owner_id=account.pk).version
    memory_services.edit_line(
        owner_id=account.pk, index=0, text="Lives in Turin, Italy", expected_version=version
    )
    page = section(account_client)
    assert "Edited by you, " in page
    assert "From your chat" not in page


def test_a_deleted_chat_is_no_longer_linked(
    account_client: Client, account: User, trip: Conversation
) -> None:
    with_sources(account, ("Lives in Turin", source(Kind.LEARNED, NOV_3, conversation=trip.pk)))
    trip.delete()
    page = section(account_client)
    assert "From your chats, November 3" in page
    assert "/c/" not in page.split('id="memory"', 1)[1].split("</ul>", 1)[0]


@pytest.mark.parametrize(
    ("language", "note", "added"),
    [
        # Mid-sentence, as Italian writes it: Django's own names are capitalised ("Novembre").
        ("it", "Dalla tua chat “Trip ideas”, 3 novembre", "Aggiunto da te, 3 novembre"),
        ("fr", "De votre discussion « Trip ideas », 3 novembre", "Ajouté par vous, 3 novembre"),
    ],
)
def test_the_note_is_in_italian_and_french(
    account_client: Client, account: User, trip: Conversation, language, note, added
) -> None:
    with_sources(
        account,
        ("Wants to visit Japan", source(Kind.LEARNED, NOV_3, conversation=trip.pk)),
        ("Likes jazz", source(Kind.ADDED, NOV_3)),
    )
    page = section(account_client, language)
    assert note in page
    assert added in page


def test_a_line_of_another_year_gives_the_year(account_client: Client, account: User) -> None:
    with_sources(account, ("Likes jazz", source(Kind.ADDED, NOV_3.replace(year=THIS_YEAR - 1))))
    assert f"Added by you, Nov. 3, {THIS_YEAR - 1}" in section(account_client)


@pytest.mark.parametrize(
    ("language", "from_chatgpt", "unnamed"),
    [
        ("en", "Imported from ChatGPT, November 3", "Imported, November 3"),
        ("it", "Importato da ChatGPT, 3 novembre", "Importato, 3 novembre"),
        ("fr", "Importé de ChatGPT, 3 novembre", "Importé, 3 novembre"),
    ],
)
def test_an_imported_line_names_the_assistant_it_came_from(
    account_client: Client, account: User, language: str, from_chatgpt: str, unnamed: str
) -> None:
    with_sources(
        account,
        ("Plays chess", {**source(Kind.IMPORTED, NOV_3), "product": "chatgpt"}),
        ("Likes figs", {**source(Kind.IMPORTED, NOV_3), "product": "other"}),
    )
    page = section(account_client, language)
    assert from_chatgpt in page
    assert unnamed in page
