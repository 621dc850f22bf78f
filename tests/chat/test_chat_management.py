"""Managing chats through the mobile API (issue 17, point 3): renaming, searching, and temporary
chats kept out of the list and deleted once they expire."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from chat import chats
from chat import services as chat_services
from chat import tasks as chat_tasks
from chat.models import Conversation, Message
from memory.models import Memory
from tests import sse
from tests.conftest import make_account

pytestmark = pytest.mark.django_db

API = "/api/v1/conversations"


def conversation_with(api, *contents: str, **fields) -> dict:
    """A conversation of ``api``'s person with these messages sent (each gets a reply)."""
    conversation = api.post(API, fields, format="json").json()
    for content in contents:
        response = api.post(
            f"{API}/{conversation['id']}/messages", {"content": content}, format="json"
        )
        assert response.status_code == 201, response.content
    return api.get(f"{API}/{conversation['id']}").json()


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [c["title"] for c in response.json()["results"]]


# --- Titles -------------------------------------------------------------------------------------


def test_the_first_message_names_the_chat_with_a_short_title(api):
    conversation = conversation_with(
        api, "Hi there! Can you help me plan a weekend in Lisbon with the kids and a tight budget?"
    )
    assert conversation["title"] == "Can you help me plan a weekend in…"


def test_a_bare_greeting_leaves_the_chat_to_be_named_by_the_next_message(api):
    conversation = conversation_with(api, "Ciao!", "Ricetta del tiramisù, per favore")
    assert conversation["title"] == "Ricetta del tiramisù, per favore"


def test_a_streamed_reply_starts_with_the_title_the_chat_now_has(api):
    conversation = api.post(API, {}, format="json").json()
    response = sse.send(api, conversation["id"], "Hey! Ideas for a rainy Sunday?")
    first = next(sse.parse(response.streaming_content))
    assert first.kind == "start"
    assert first.data["title"] == "Ideas for a rainy Sunday"


# --- Rename -------------------------------------------------------------------------------------


def test_a_conversation_is_renamed_and_the_title_is_trimmed(api):
    conversation = conversation_with(api, "I need ideas for a trip")
    response = api.patch(
        f"{API}/{conversation['id']}", {"title": "  Rome in May \n"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["title"] == "Rome in May"
    assert Conversation.objects.get().title == "Rome in May"
    assert titles(api.get(API)) == ["Rome in May"]


def test_renaming_does_not_move_the_chat_up_the_list(api):
    first = conversation_with(api, "First chat")
    conversation_with(api, "Second chat")
    api.patch(f"{API}/{first['id']}", {"title": "Renamed"}, format="json")
    assert titles(api.get(API)) == ["Second chat", "Renamed"]


def test_a_renamed_chat_keeps_its_title_when_the_first_message_arrives(api):
    conversation = api.post(API, {}, format="json").json()
    api.patch(f"{API}/{conversation['id']}", {"title": "My own title"}, format="json")
    api.post(
        f"{API}/{conversation['id']}/messages", {"content": "Plan a trip to Lisbon"}, format="json"
    )
    assert Conversation.objects.get().title == "My own title"


@pytest.mark.parametrize("title", ["", "   ", "\u200b\x00\n"])
def test_a_blank_title_is_a_400_with_its_code(api, title):
    conversation = conversation_with(api, "Trip ideas")
    response = api.patch(f"{API}/{conversation['id']}", {"title": title}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "empty_title"
    assert Conversation.objects.get().title == "Trip ideas"


def test_a_title_too_long_is_a_400_with_its_code(api, settings):
    conversation = conversation_with(api, "Trip ideas")
    url = f"{API}/{conversation['id']}"
    assert api.patch(url, {"title": "a" * chats.TITLE_MAX_CHARS}, format="json").status_code == 200
    response = api.patch(url, {"title": "a" * (chats.TITLE_MAX_CHARS + 1)}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "title_too_long"
    assert Conversation.objects.get().title == "a" * chats.TITLE_MAX_CHARS


def test_a_title_is_measured_after_nfc(api):
    # U+FB2C grows to three characters under NFC: 50 of them are 150 stored characters.
    conversation = conversation_with(api, "Trip ideas")
    response = api.patch(f"{API}/{conversation['id']}", {"title": "\ufb2c" * 50}, format="json")
    assert response.json()["code"] == "title_too_long"


@pytest.mark.parametrize("title", [None, 12, ["a"], {"a": 1}])
def test_a_title_that_is_not_text_is_a_400(api, title):
    conversation = conversation_with(api, "Trip ideas")
    response = api.patch(f"{API}/{conversation['id']}", {"title": title}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "title" in response.json()["fields"]


def test_a_patch_may_rename_and_switch_model_at_once_or_change_nothing_when_one_is_bad(api):
    conversation = conversation_with(api, "Trip ideas", model="scripted/chat-a")
    url = f"{API}/{conversation['id']}"
    both = api.patch(url, {"title": "Rome", "model": "scripted/chat-b"}, format="json")
    assert (both.json()["title"], both.json()["model"]) == ("Rome", "scripted/chat-b")

    bad_model = api.patch(url, {"title": "Paris", "model": "nope/nope"}, format="json")
    assert bad_model.json()["code"] == "unknown_model"
    bad_title = api.patch(url, {"title": " ", "model": "scripted/chat-a"}, format="json")
    assert bad_title.json()["code"] == "empty_title"
    conversation_row = Conversation.objects.get()
    assert (conversation_row.title, conversation_row.model) == ("Rome", "scripted/chat-b")


def test_a_patch_with_neither_field_is_a_400(api):
    conversation = conversation_with(api, "Trip ideas")
    response = api.patch(f"{API}/{conversation['id']}", {}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_someone_elses_conversation_cannot_be_renamed(api, other_api):
    conversation = conversation_with(api, "Trip ideas")
    response = other_api.patch(f"{API}/{conversation['id']}", {"title": "Mine now"}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert Conversation.objects.get().title == "Trip ideas"


# --- Search -------------------------------------------------------------------------------------


def test_search_finds_chats_by_title_whatever_the_case(api):
    conversation_with(api, "Planning a trip to Lisbon")
    conversation_with(api, "Birthday ideas for Marco")
    assert titles(api.get(API, {"q": "LISBON"})) == ["Planning a trip to Lisbon"]


def test_search_finds_chats_by_what_was_said_in_them(api, scripted):
    conversation_with(api, "Dinner ideas", model="scripted/chat-a")
    scripted.answer("Try a saffron risotto with peas.")
    conversation_with(api, "Something else", "What should I cook tonight?", model="scripted/chat-a")
    # In the reply, and in the person's second message.
    assert titles(api.get(API, {"q": "risotto"})) == ["Something else"]
    assert titles(api.get(API, {"q": "Cook Tonight"})) == ["Something else"]


def test_search_finds_accented_text_whatever_the_case(api):
    conversation_with(api, "Ricette per l'ÉTÉ in città")
    conversation_with(api, "Ricette d'inverno")
    assert titles(api.get(API, {"q": "été"})) == ["Ricette per l'ÉTÉ in città"]


def test_search_never_finds_someone_elses_chats(api, other_api):
    conversation_with(api, "My trip to Lisbon")
    conversation_with(other_api, "Their trip to Lisbon", "Lisbon again")
    assert titles(api.get(API, {"q": "lisbon"})) == ["My trip to Lisbon"]
    assert titles(other_api.get(API, {"q": "my trip"})) == []


@pytest.mark.parametrize("query", ["%", "_", "\\", "a%b", "a_c"])
def test_like_wildcards_in_a_search_are_literal(api, query):
    conversation_with(api, "Sales up 50% this year")
    conversation_with(api, "abc and axb")
    conversation_with(api, "Plain words only")
    expected = {
        "%": ["Sales up 50% this year"],
        "_": [],
        "\\": [],
        "a%b": [],
        "a_c": [],
    }[query]
    assert titles(api.get(API, {"q": query})) == expected


def test_wildcards_match_themselves(api):
    conversation_with(api, "file_name.txt and 100% sure")
    conversation_with(api, "filexname")
    assert titles(api.get(API, {"q": "file_name"})) == ["File_name.txt and 100% sure"]
    assert titles(api.get(API, {"q": "100%"})) == ["File_name.txt and 100% sure"]


def test_a_blank_search_is_the_whole_list(api):
    conversation_with(api, "First chat")
    conversation_with(api, "Second chat")
    assert titles(api.get(API, {"q": "  "})) == ["Second chat", "First chat"]


def test_a_search_with_nul_bytes_or_control_characters_is_no_500(api):
    conversation_with(api, "Lisbon trip")
    conversation_with(api, "Porto trip")
    assert titles(api.get(API, {"q": "lis\x00bon"})) == ["Lisbon trip"]


def test_a_search_too_long_is_a_400(api):
    response = api.get(API, {"q": "x" * 201})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_search_results_come_newest_first_like_the_list(api, account):
    for title in ("note 0", "unrelated", "note 1", "note 2"):
        conversation = chat_services.create_conversation(owner_id=account.pk)
        Message.objects.create(conversation=conversation, role="user", content=title)
        Conversation.objects.filter(pk=conversation.pk).update(title=title)
    assert titles(api.get(API, {"q": "note"})) == ["note 2", "note 1", "note 0"]


# --- Temporary chats ----------------------------------------------------------------------------


def test_a_temporary_chat_is_not_listed_nor_found(api):
    conversation_with(api, "Kept chat about Lisbon")
    temporary = conversation_with(api, "Secret chat about Lisbon", temporary=True)
    assert titles(api.get(API)) == ["Kept chat about Lisbon"]
    assert titles(api.get(API, {"q": "lisbon"})) == ["Kept chat about Lisbon"]
    # Still there for the person who holds its id.
    assert api.get(f"{API}/{temporary['id']}").json()["temporary"] is True


def expire(conversation_id: int, *, hours: float) -> None:
    """Make a conversation look idle for ``hours`` (time moved, not waited)."""
    Conversation.objects.filter(pk=conversation_id).update(
        updated_at=timezone.now() - timedelta(hours=hours)
    )


def test_expired_temporary_chats_are_deleted_and_nothing_else(api, other_api, settings):
    settings.TEMPORARY_CHAT_TTL_HOURS = 24
    old_temporary = conversation_with(api, "Old secret", temporary=True)
    fresh_temporary = conversation_with(api, "Fresh secret", temporary=True)
    old_kept = conversation_with(api, "Old kept chat")
    theirs = conversation_with(other_api, "Their old secret", temporary=True)
    expire(old_temporary["id"], hours=24.1)
    expire(fresh_temporary["id"], hours=23.9)
    expire(old_kept["id"], hours=24 * 30)
    expire(theirs["id"], hours=25)

    chat_tasks.delete_expired_temporary_chats()

    left = set(Conversation.objects.values_list("pk", flat=True))
    assert left == {fresh_temporary["id"], old_kept["id"]}
    assert not Message.objects.filter(conversation_id=old_temporary["id"]).exists()
    assert api.get(f"{API}/{old_temporary['id']}").status_code == 404


def test_the_time_a_temporary_chat_lives_is_a_setting(api, settings):
    temporary = conversation_with(api, "Secret", temporary=True)
    expire(temporary["id"], hours=2)
    settings.TEMPORARY_CHAT_TTL_HOURS = 3
    chat_tasks.delete_expired_temporary_chats()
    assert Conversation.objects.filter(pk=temporary["id"]).exists()
    settings.TEMPORARY_CHAT_TTL_HOURS = 1
    chat_tasks.delete_expired_temporary_chats()
    assert not Conversation.objects.filter(pk=temporary["id"]).exists()


def test_the_default_lifetime_of_a_temporary_chat_is_24_hours():
    from django.conf import settings

    assert settings.TEMPORARY_CHAT_TTL_HOURS == 24


def test_a_message_just_sent_keeps_a_temporary_chat_alive(api, settings):
    settings.TEMPORARY_CHAT_TTL_HOURS = 24
    temporary = conversation_with(api, "Secret", temporary=True)
    expire(temporary["id"], hours=30)
    api.post(f"{API}/{temporary['id']}/messages", {"content": "Still here"}, format="json")
    chat_tasks.delete_expired_temporary_chats()
    assert Conversation.objects.filter(pk=temporary["id"]).exists()


def test_the_expiry_runs_on_celery_beat():
    from django.conf import settings

    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert chat_tasks.delete_expired_temporary_chats.name in schedule


def test_deleting_a_chat_leaves_no_turn_for_memory_to_read(api, account):
    # Said and never read by a pass yet: deleting the chat takes the turns with it, so no later
    # pass can learn from them (memory keeps only what it had already learned).
    conversation = conversation_with(api, "My name is Anna")
    assert Message.objects.filter(memory_state=Message.MemoryState.UNREAD).exists()
    assert api.delete(f"{API}/{conversation['id']}").status_code == 204
    assert not Message.objects.exists()
    assert not Memory.objects.filter(owner=account).exclude(lines=[]).exists()


def test_an_account_has_no_chats_of_another_in_its_search_even_with_a_shared_word(db):
    anna, bob = make_account("anna@example.com"), make_account("bob@example.com")
    mine = chat_services.create_conversation(owner_id=anna.pk)
    theirs = chat_services.create_conversation(owner_id=bob.pk)
    Message.objects.create(conversation=mine, role="user", content="shared word")
    Message.objects.create(conversation=theirs, role="user", content="shared word")
    found = Conversation.objects.for_owner(anna).listed().matching("shared")
    assert list(found) == [mine]


def test_the_schema_documents_the_search_and_the_rename(api):
    schema = api.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    listing = schema["paths"]["/api/v1/conversations"]["get"]
    (q,) = [p for p in listing["parameters"] if p["name"] == "q"]
    assert (q["in"], q["schema"]["maxLength"]) == ("query", chats.SEARCH_MAX_CHARS)
    patch = schema["paths"]["/api/v1/conversations/{id}"]["patch"]
    body = patch["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)
    fields = schema["components"]["schemas"][body[1]]["properties"]
    assert set(fields) == {"title", "model"}
    codes = patch["responses"]["400"]["description"]
    assert all(code in codes for code in ("empty_title", "title_too_long", "unknown_model"))
