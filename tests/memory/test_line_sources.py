"""Where every line came from (issue 15, point 2): ``items`` of ``GET /api/v1/memory``, kept by
every write path, in the export and through restore and undo."""

import pytest
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from accounts.models import User
from chat import services as chat
from chat.models import Conversation
from memory import rollback
from memory.models import Memory, MemoryVersion
from memory.services import sources_of, view_memory
from tests.conftest import make_account, owner_of_token
from tests.memory.helpers import answer, conversation_with, edits_answer, memory_with, run_pass

pytestmark = pytest.mark.django_db

ITEM_FIELDS = {
    "text",
    "kind",
    "conversation",
    "title",
    "learned_at",
    "changed_at",
    "pinned",
    "product",
}


def run(memory: Memory) -> None:
    run_pass(memory, expect="ok")
    memory.refresh_from_db()


def items(client: APIClient) -> list[dict]:
    response = client.get("/api/v1/memory")
    assert response.status_code == 200
    body = response.json()
    assert [item["text"] for item in body["items"]] == body["lines"]
    return body["items"]


def titled(owner: User, title: str, *turns: str) -> Conversation:
    conversation = conversation_with(owner, *turns)
    Conversation.objects.filter(pk=conversation.pk).update(title=title)
    return conversation


def owed(owner: User) -> Memory:
    """The owner's memory, as it is, owing a pass."""
    return memory_with(owner, *view_memory(owner_id=owner.pk).lines)


def learn(
    owner: User, memory_model, title: str, *lines: str, said: tuple[str, ...]
) -> Conversation:
    conversation = titled(owner, title, *said)
    memory_model.answer(answer(*lines))
    run(owed(owner))
    return conversation


def two_lines_from_home(owner: User, memory_model) -> Conversation:
    said = ("I live in Turin and like jazz", "ok")
    return learn(owner, memory_model, "Home", "Lives in Turin", "Likes jazz", said=said)


def test_items_follow_lines_in_order_and_name_the_conversation_of_each(api, account, memory_model):
    trip = titled(account, "Trip ideas", "I want to visit Japan next spring", "Nice!")
    work = titled(account, "Work", "I work as a nurse in Turin", "Got it")
    memory = memory_with(account)
    memory_model.answer(answer("Wants to visit Japan", "Works as a nurse"))
    run(memory)

    first, second = items(api)
    assert set(first) == ITEM_FIELDS
    assert (first["text"], first["kind"], first["conversation"], first["title"]) == (
        "Wants to visit Japan",
        "learned",
        trip.pk,
        "Trip ideas",
    )
    assert (second["conversation"], second["title"]) == (work.pk, "Work")
    assert first["learned_at"] == first["changed_at"]
    assert parse_datetime(first["learned_at"]) is not None


def test_a_line_from_a_message_that_asked_to_remember_is_remembered(api, account, memory_model):
    chat_ = titled(account, "Intro", "My name is Anna", "Hi Anna", "remember that", "Sure")
    memory_model.answer(answer("Name is Anna"))
    run(memory_with(account))
    [item] = items(api)
    assert (item["kind"], item["conversation"], item["title"]) == ("remembered", chat_.pk, "Intro")


def test_a_line_from_a_voice_session_is_voice_with_no_conversation(api, account, memory_model):
    session, _ = chat.start_voice_session(owner_id=account.pk, model="scripted/chat-a")
    chat.end_voice_session(
        session=session, transcript=[{"role": "user", "content": "I moved to Milan"}]
    )
    memory_model.answer(answer("Lives in Milan"))
    run(Memory.objects.get(owner=account))
    [item] = items(api)
    assert (item["kind"], item["conversation"], item["title"]) == ("voice", None, None)


def test_lines_written_by_hand_are_added_and_edited_by_the_person(api, account, memory_model):
    learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    [learned] = items(api)
    assert (
        api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json").status_code == 201
    )
    version = api.get("/api/v1/memory").json()["version"]
    response = api.patch(
        "/api/v1/memory/lines/0",
        {"text": "Lives in Turin, Italy"},
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
    )
    assert response.status_code == 200

    edited, added = items(api)
    assert (added["kind"], added["conversation"], added["title"]) == ("added", None, None)
    assert (edited["kind"], edited["conversation"]) == ("edited", None)
    assert edited["learned_at"] == learned["learned_at"]
    assert parse_datetime(edited["changed_at"]) > parse_datetime(learned["changed_at"])


def test_a_line_a_later_pass_kept_is_not_re_attributed(api, account, memory_model):
    home = learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    [before] = items(api)
    learn(
        account,
        memory_model,
        "Turin trip",
        "Lives in Turin",
        "Likes museums",
        said=("Turin has great museums, I like museums", "Indeed"),
    )
    kept, new = items(api)
    assert kept == before
    assert kept["conversation"] == home.pk
    assert new["title"] == "Turin trip"


def test_a_line_a_pass_rewrote_keeps_its_origin_and_gets_a_new_changed_at(
    api, account, memory_model
):
    home = learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    [before] = items(api)
    titled(account, "Moving", "I moved to Milan last week", "Congratulations")
    memory_model.answer(
        edits_answer(
            {
                "op": "replace",
                "line": 1,
                "was": "Lives in Turin",
                "text": "Lives in Milan",
                "turn": 1,
            }
        )
    )
    run(owed(account))

    [after] = items(api)
    assert after["text"] == "Lives in Milan"
    assert (after["kind"], after["conversation"], after["title"]) == ("learned", home.pk, "Home")
    assert after["learned_at"] == before["learned_at"]
    assert parse_datetime(after["changed_at"]) > parse_datetime(before["changed_at"])


def test_a_deleted_conversation_is_named_no_more(api, account, memory_model):
    home = learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    assert api.delete(f"/api/v1/conversations/{home.pk}").status_code == 204
    [item] = items(api)
    assert (item["kind"], item["conversation"], item["title"]) == ("learned", None, None)


def test_someone_elses_conversation_is_never_named(api, account):
    mallory = make_account("mallory@example.com")
    secret = titled(mallory, "Mallory's secret plans", "hello", "hi")
    memory = memory_with(account, "Name is Anna", owed=False)
    src = sources_of(memory)[0]
    Memory.objects.filter(pk=memory.pk).update(sources=[{**src, "conversation": secret.pk}])
    [item] = items(api)
    assert (item["conversation"], item["title"]) == (None, None)


def test_a_guests_lines_arrive_merged_with_their_conversation(memory_model):
    token = APIClient().post("/api/v1/auth/guest").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    guest = owner_of_token(token)
    trip = learn(
        guest,
        memory_model,
        "Trip ideas",
        "Wants to visit Japan",
        said=("I want to visit Japan", "ok"),
    )
    response = client.post(
        "/api/v1/auth/signup",
        {"email": "anna@example.com", "password": "a long passphrase 42"},
        format="json",
    )
    assert response.status_code == 201
    account = client_for_token(response.json()["token"])
    [item] = items(account)
    assert (item["kind"], item["conversation"], item["title"]) == ("merged", trip.pk, "Trip ideas")


def client_for_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_the_export_carries_where_every_line_came_from(api, account, memory_model):
    home = learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    exported = api.get("/api/v1/account/export").json()["memory"]
    assert exported["lines"] == ["Lives in Turin"]
    [item] = exported["items"]
    assert item == {**items(api)[0], "conversation": home.pk, "title": "Home"}


def test_a_restore_brings_a_line_back_with_where_it_came_from(api, account, memory_model):
    home = learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    [before] = items(api)
    kept = view_memory(owner_id=account.pk).version
    api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json")
    # A pass that removes the line, then a restore of the version that held it.
    titled(account, "Other", "nothing much", "ok")
    memory_model.answer(answer("Likes jazz"))
    run(owed(account))
    assert view_memory(owner_id=account.pk).lines == ["Likes jazz"]
    rollback.restore_version(owner_id=account.pk, version=kept, expected_version=None)
    [back] = items(api)
    assert back == before
    assert back["conversation"] == home.pk


def test_an_undo_brings_a_removed_line_back_with_its_source(api, account, memory_model):
    two_lines_from_home(account, memory_model)
    before = items(api)
    titled(account, "Other", "nothing much", "ok")
    memory_model.answer(answer("Likes jazz"))
    run(owed(account))
    version = view_memory(owner_id=account.pk).version
    rollback.undo_version(owner_id=account.pk, version=version, expected_version=version)
    after = {item["text"]: item for item in items(api)}
    assert after["Lives in Turin"] == before[0]


def test_versions_keep_sources_aligned_when_a_line_is_forgotten(api, account, memory_model):
    two_lines_from_home(account, memory_model)
    version = view_memory(owner_id=account.pk).version
    api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH=f'"{version}"')
    for row in MemoryVersion.objects.filter(memory__owner=account):
        assert len(row.sources) == len(row.lines)
        assert "Lives in Turin" not in row.lines
    [item] = items(api)
    assert (item["text"], item["title"]) == ("Likes jazz", "Home")


def test_a_clear_leaves_no_sources(api, account, memory_model):
    learn(account, memory_model, "Home", "Lives in Turin", said=("I live in Turin", "ok"))
    assert api.delete("/api/v1/memory").status_code == 204
    assert Memory.objects.get(owner=account).sources == []
    assert items(api) == []
