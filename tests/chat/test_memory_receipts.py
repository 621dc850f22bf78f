"""Each of the person's messages says what the memory pass that read it did (issue 15, point 1):
``memory_updated`` and ``memory_change`` in ``GET /api/v1/conversations/{id}``."""

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory.engine import passes
from memory.models import ForgottenLine, Memory, MemoryVersion
from memory.rules.prompts import read_data
from tests.memory.helpers import answer, memory_with

pytestmark = pytest.mark.django_db


def new_conversation(api, **fields) -> int:
    response = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a", **fields}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def say(api, conversation: int, text: str) -> None:
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages", {"content": text}, format="json"
    )
    assert response.status_code == 201, response.content


def run_pass(account) -> str:
    memory = Memory.objects.get(owner=account)
    return passes.run_pass(memory_id=memory.pk).outcome


def messages_of(api, conversation: int) -> list[dict]:
    response = api.get(f"/api/v1/conversations/{conversation}")
    assert response.status_code == 200
    return response.json()["messages"]


def add(api, *texts: str) -> None:
    for text in texts:
        assert api.post("/api/v1/memory/lines", {"text": text}, format="json").status_code == 201


def test_a_turn_whose_pass_changed_the_list_says_what_changed(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Lives in Boulder"))
    say(api, conversation, "I live in Boulder, remember that")

    assert run_pass(account) == "ok"

    mine, reply = messages_of(api, conversation)
    version = api.get("/api/v1/memory").json()["version"]
    assert mine["memory_updated"] is True
    assert mine["memory_change"] == {
        "version": version,
        "added": ["Lives in Boulder"],
        "changed": [],
        "removed": [],
        "forgotten": [],
        "undoable": True,
        "undone": False,
    }
    # The assistant's words are never a source: nothing is said of them.
    assert (reply["memory_updated"], reply["memory_change"]) == (None, None)


def test_a_correction_shows_the_line_it_changed_from_and_to(api, account, memory_model):
    add(api, "Name is Anna", "Lives in Denver")
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Name is Anna", "Lives in Boulder"))
    say(api, conversation, "I moved to Boulder, remember that")

    assert run_pass(account) == "ok"

    change = messages_of(api, conversation)[0]["memory_change"]
    assert change["changed"] == [{"from": "Lives in Denver", "to": "Lives in Boulder"}]
    assert (change["added"], change["removed"]) == ([], [])


def test_a_turn_whose_pass_changed_nothing_says_false(api, account, memory_model):
    add(api, "Name is Anna")
    conversation = new_conversation(api)
    memory_model.answer("Nice weather.", answer("Name is Anna"))
    say(api, conversation, "It's sunny today, remember that")

    assert run_pass(account) == "unchanged"

    mine = messages_of(api, conversation)[0]
    assert (mine["memory_updated"], mine["memory_change"]) == (False, None)


def test_a_turn_no_pass_has_read_yet_says_null(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("Hello!")
    say(api, conversation, "Hello there")

    mine = messages_of(api, conversation)[0]
    assert (mine["memory_updated"], mine["memory_change"]) == (None, None)


def test_a_turn_said_with_memory_off_stays_null_after_a_pass(api, account, memory_model):
    assert api.patch("/api/v1/memory", {"enabled": False}, format="json").status_code == 200
    conversation = new_conversation(api)
    memory_model.answer("Noted.")
    say(api, conversation, "I live in Boulder, remember that")
    assert api.patch("/api/v1/memory", {"enabled": True}, format="json").status_code == 200
    memory_model.answer("Noted.", answer("Likes jazz"))
    say(api, conversation, "I like jazz, remember that")

    assert run_pass(account) == "ok"

    off, _, on, _ = messages_of(api, conversation)
    assert (off["memory_updated"], off["memory_change"]) == (None, None)
    assert on["memory_updated"] is True


def test_a_turn_of_a_temporary_chat_stays_null_after_a_pass(api, account, memory_model):
    said = new_conversation(api)
    temporary = new_conversation(api, temporary=True)
    memory_model.answer("Noted.", "Noted.", answer("Lives in Boulder"))
    say(api, temporary, "I live in Boulder, remember that")
    say(api, said, "I live in Boulder, remember that")

    assert run_pass(account) == "ok"

    assert messages_of(api, temporary)[0]["memory_updated"] is None
    assert messages_of(api, said)[0]["memory_updated"] is True


def test_every_turn_a_changing_pass_read_carries_its_change(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Hi.", "Noted.", answer("Name is Anna"))
    say(api, conversation, "My name is Anna")
    say(api, conversation, "Please remember that")

    assert run_pass(account) == "ok"

    first, _, second, _ = messages_of(api, conversation)
    assert first["memory_change"] == second["memory_change"]
    assert second["memory_change"]["added"] == ["Name is Anna"]


def test_after_a_clear_the_turn_still_says_it_changed_but_not_what(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Lives in Boulder"))
    say(api, conversation, "I live in Boulder, remember that")
    assert run_pass(account) == "ok"

    assert api.delete("/api/v1/memory").status_code == 204

    mine = messages_of(api, conversation)[0]
    assert (mine["memory_updated"], mine["memory_change"]) == (True, None)


def test_a_line_deleted_since_leaves_the_change_it_was_in(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Name is Anna", "Lives in Boulder"))
    say(api, conversation, "I'm Anna and I live in Boulder, remember that")
    assert run_pass(account) == "ok"

    etag = api.get("/api/v1/memory")["ETag"]
    assert api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag).status_code == 200

    change = messages_of(api, conversation)[0]["memory_change"]
    assert change["added"] == ["Name is Anna"]


def test_the_receipts_cost_no_query_per_message(api, account, memory_model):
    def queries_for(turns: int) -> int:
        assert api.delete("/api/v1/memory").status_code == 204  # each count from an empty list
        conversation = new_conversation(api)
        for i in range(turns):
            memory_model.answer(
                f"Reply {i}.", answer(*[f"Fact number {n} here" for n in range(i + 1)])
            )
            say(api, conversation, f"Fact number {i} here, remember that")
            assert run_pass(account) == "ok"
        with CaptureQueriesContext(connection) as queries:
            assert len(messages_of(api, conversation)) == 2 * turns
        return len(queries)

    assert queries_for(10) == queries_for(1)


def test_someone_elses_conversation_shows_no_receipt(api, other_api, scripted):
    conversation = new_conversation(api)
    assert other_api.get(f"/api/v1/conversations/{conversation}").status_code == 404


def owe_pass(account) -> None:
    Memory.objects.filter(owner=account).update(
        pass_requested=True, pass_requested_at=timezone.now()
    )


def cite_forget(line: str):
    """A careful model: removes ``line``, citing the person's turn that asked."""

    def respond(messages):
        data = read_data(messages[-1]["content"])
        (turn,) = [t["turn"] for t in data["transcript"] if t["role"] == "user"]
        (number,) = [item["line"] for item in data["memory"] if item["text"] == line]
        return json.dumps(
            {
                "edits": [{"op": "remove", "line": number, "was": line, "text": None}],
                "forget": [{"turn": turn, "what": [number]}],
            }
        )

    return respond


def test_a_forget_says_forgot_and_one_undo_brings_the_line_back(api, account, memory_model):
    memory_with(account, "Works at Acme", "Likes jazz", owed=False)
    conversation = new_conversation(api)
    # Words the phrase table does not know: the model's citation is the evidence.
    memory_model.answer("Sure.", cite_forget("Works at Acme"))
    say(api, conversation, "please don't keep where I work")
    owe_pass(account)  # the phrase table, a hint for when a pass runs, misses these words

    assert run_pass(account) == "ok"

    assert Memory.objects.get(owner=account).lines == ["Likes jazz"]
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 1
    mine, _ = messages_of(api, conversation)
    change = mine["memory_change"]
    assert (change["forgotten"], change["removed"]) == (["Works at Acme"], [])
    page = Client()
    page.force_login(account)
    html = page.get(f"/c/{conversation}/").content.decode()
    assert "Forgot: Works at Acme" in html

    etag = api.get("/api/v1/memory")["ETag"]
    undone = api.post(
        "/api/v1/memory/undo", {"version": change["version"]}, format="json", HTTP_IF_MATCH=etag
    )
    assert undone.status_code == 200, undone.content
    assert sorted(undone.json()["lines"]) == ["Likes jazz", "Works at Acme"]
    assert not ForgottenLine.objects.filter(memory__owner=account).exists()


def test_a_forget_is_undoable_only_until_the_next_change_then_gone_everywhere(
    api, account, memory_model
):
    memory_with(account, "Works at Acme", "Likes jazz", owed=False)
    conversation = new_conversation(api)
    memory_model.answer("Sure.", cite_forget("Works at Acme"))
    say(api, conversation, "scrap the bit about where I work")
    owe_pass(account)
    assert run_pass(account) == "ok"

    add(api, "Has a cat")  # the next change

    assert not any(
        "Works at Acme" in json.dumps([v.lines, v.added, v.changed, v.removed, v.forgotten])
        for v in MemoryVersion.objects.filter(memory__owner=account)
    )
    mine, _ = messages_of(api, conversation)
    assert mine["memory_change"] is None or mine["memory_change"]["forgotten"] == []


def test_a_forget_the_pass_could_not_carry_out_is_told_in_the_chat(api, account, memory_model):
    memory_with(account, "Works at Acme", "Likes jazz", owed=False)
    conversation = new_conversation(api)
    memory_model.answer("Sure.", json.dumps({"edits": [], "forget": []}))  # careless
    say(api, conversation, "Please forget where I work")

    assert run_pass(account) == "unchanged"

    assert Memory.objects.get(owner=account).lines == ["Works at Acme", "Likes jazz"]
    mine, reply = messages_of(api, conversation)
    assert (mine["memory_updated"], mine["memory_forget_missed"]) == (False, True)
    assert reply["memory_forget_missed"] is None
    page = Client()
    page.force_login(account)
    html = page.get(f"/c/{conversation}/").content.decode()
    assert "Nothing was forgotten" in html
    assert "Memory updated" not in html


def test_an_ordinary_turn_never_says_nothing_was_forgotten(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Lives in Boulder"))
    say(api, conversation, "I live in Boulder, remember that")
    assert run_pass(account) == "ok"

    mine, _ = messages_of(api, conversation)
    assert mine["memory_forget_missed"] is False


def test_the_undo_of_a_forget_brings_the_line_back_as_it_was(api, account, memory_model):
    add(api, "Works at Acme", "Likes jazz")  # the person's own: pinned
    before = {i["text"]: i for i in api.get("/api/v1/memory").json()["items"]}
    conversation = new_conversation(api)
    memory_model.answer("Sure.", cite_forget("Works at Acme"))
    say(api, conversation, "please forget where I work")
    owe_pass(account)
    assert run_pass(account) == "ok"
    mine, _ = messages_of(api, conversation)

    etag = api.get("/api/v1/memory")["ETag"]
    version = mine["memory_change"]["version"]
    response = api.post(
        "/api/v1/memory/undo", {"version": version}, format="json", HTTP_IF_MATCH=etag
    )
    assert response.status_code == 200

    after = {i["text"]: i for i in api.get("/api/v1/memory").json()["items"]}
    back, was = after["Works at Acme"], before["Works at Acme"]
    assert (back["kind"], back["pinned"], back["learned_at"]) == ("added", True, was["learned_at"])
