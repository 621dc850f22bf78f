"""The memory block rides along with every chat request (SPEC §6), and voice sessions."""

import pytest
from django.db import DatabaseError, connection

from chat.models import VoiceSession
from memory.models import Memory
from memory.rules.prompts import MEMORY_FOOTER, MEMORY_HEADER, MEMORY_OFF_NOTE, MEMORY_WRITING_NOTE
from tests.memory.helpers import answer, memory_with, payload, run_pass

pytestmark = pytest.mark.django_db


def system_messages(call) -> list[str]:
    return [m["content"] for m in call["messages"] if m["role"] == "system"]


def chat(api, scripted, text="hi", **conversation):
    conversation.setdefault("model", "scripted/chat-a")
    c = api.post("/api/v1/conversations", conversation, format="json").json()
    scripted.answer("ok")
    api.post(f"/api/v1/conversations/{c['id']}/messages", {"content": text}, format="json")
    return c, scripted.calls[-1]


def test_the_list_is_its_own_system_message_after_the_fixed_prompt(api, account, scripted):
    memory_with(account, "Name is Anna", "Lives in Turin", owed=False)
    _, call = chat(api, scripted)
    systems = system_messages(call)
    assert systems[0].startswith("You are Whizi")
    assert systems[1] == f"{MEMORY_HEADER}\n- Name is Anna\n- Lives in Turin\n\n{MEMORY_FOOTER}"
    assert call["messages"][2]["role"] == "user"


def test_every_model_gets_the_list_even_after_a_switch(api, account, scripted):
    memory_with(account, "Name is Anna", owed=False)
    c, _ = chat(api, scripted)
    api.patch(f"/api/v1/conversations/{c['id']}", {"model": "scripted/chat-b"}, format="json")
    scripted.answer("ok")
    api.post(f"/api/v1/conversations/{c['id']}/messages", {"content": "again"}, format="json")
    call = scripted.calls[-1]
    assert call["model"] == "chat-b"
    assert any(MEMORY_HEADER in s for s in system_messages(call))


def test_the_memory_block_sits_after_project_instructions_and_before_history(
    api, account, scripted
):
    memory_with(account, "Name is Anna", owed=False)
    project = api.post(
        "/api/v1/projects", {"name": "P", "instructions": "Be brief."}, format="json"
    ).json()
    _, call = chat(api, scripted, project=project["id"])
    roles = [(m["role"], m["content"][:20]) for m in call["messages"]]
    assert [r for r, _ in roles] == ["system", "system", "system", "user"]
    assert "Be brief." in call["messages"][1]["content"]
    assert MEMORY_HEADER in call["messages"][2]["content"]


def test_memory_off_reads_nothing(api, account, scripted):
    memory_with(account, "Name is Anna", owed=False)
    api.patch("/api/v1/memory", {"enabled": False}, format="json")
    _, call = chat(api, scripted)
    assert not any(MEMORY_HEADER in s for s in system_messages(call))


def test_a_temporary_conversation_reads_no_memory(api, account, scripted):
    memory_with(account, "Name is Anna", owed=False)
    _, call = chat(api, scripted, temporary=True)
    assert not any(MEMORY_HEADER in s for s in system_messages(call))


def test_a_failed_memory_read_fails_open(api, account, scripted):
    memory_with(account, "Name is Anna", owed=False)

    def refuse_memory_reads(execute, sql, params, many, context):
        if "memory_memory" in sql and sql.lstrip().upper().startswith("SELECT"):
            raise DatabaseError("canceling statement due to statement timeout")
        return execute(sql, params, many, context)

    c = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()
    scripted.answer("still here")
    with connection.execute_wrapper(refuse_memory_reads):
        response = api.post(
            f"/api/v1/conversations/{c['id']}/messages", {"content": "hi"}, format="json"
        )
    assert response.status_code == 201
    assert response.json()["assistant_message"]["content"] == "still here"
    assert not any(MEMORY_HEADER in s for s in system_messages(scripted.calls[-1]))


def test_a_voice_session_starts_with_the_memory_in_its_instructions(api, account):
    memory_with(account, "Name is Anna", owed=False)
    response = api.post("/api/v1/voice/sessions", {}, format="json")
    assert response.status_code == 201
    assert "- Name is Anna" in response.json()["instructions"]


def test_ending_a_voice_session_runs_one_voice_pass_and_a_second_end_is_409(
    api, account, memory_model, django_capture_on_commit_callbacks
):

    memory = memory_with(account, "Name is Anna", owed=False)
    session = api.post("/api/v1/voice/sessions", {}, format="json").json()
    url = f"/api/v1/voice/sessions/{session['id']}/end"
    transcript = [
        {"role": "user", "content": "I moved to Milan"},
        {"role": "assistant", "content": "Nice"},
    ]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert api.post(url, {"transcript": transcript}, format="json").status_code == 202
    assert len(callbacks) == 1
    memory_model.answer(answer("Name is Anna", "Lives in Milan"))

    run_pass(memory, expect="ok")
    run_pass(memory, expect="not_owed")

    assert len(memory_model.calls) == 1
    sent = payload(memory_model.calls[0]["messages"])
    assert sent["task"] == "voice"
    assert sent["transcript"] == [{"turn": i, **turn} for i, turn in enumerate(transcript, 1)]
    assert "VOICE session" in memory_model.calls[0]["messages"][0]["content"]
    assert Memory.objects.get().lines == ["Name is Anna", "Lives in Milan"]
    assert VoiceSession.objects.get().memory_pass_done_at is not None
    second = api.post(url, {"transcript": transcript}, format="json")
    assert second.status_code == 409
    assert second.json()["code"] == "already_ended"


def test_someone_elses_voice_session_is_404(api, other_api):
    session = api.post("/api/v1/voice/sessions", {}, format="json").json()
    response = other_api.post(
        f"/api/v1/voice/sessions/{session['id']}/end", {"transcript": []}, format="json"
    )
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_memory_read_stuck_behind_a_lock_gives_up_within_its_bound(api, account, scripted):
    """A real stuck read: another connection holds the memory table; the reply still comes, with
    no memory block, once the read's statement timeout fires (no timing is asserted)."""
    import threading

    import psycopg

    memory_with(account, "Name is Anna", owed=False)
    conversation = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a"}, format="json"
    ).json()
    db = connection.settings_dict
    other = psycopg.connect(
        dbname=db["NAME"], user=db["USER"], host=db["HOST"] or None, port=db["PORT"] or None
    )
    other.execute("LOCK TABLE memory_memory IN ACCESS EXCLUSIVE MODE")
    # Should the bound ever break, the lock goes after 20 s and the test fails instead of hanging.
    safety = threading.Timer(20, other.rollback)
    safety.start()
    try:
        scripted.answer("hello")
        response = api.post(
            f"/api/v1/conversations/{conversation['id']}/messages", {"content": "hi"}, format="json"
        )
    finally:
        safety.cancel()
        other.rollback()
        other.close()
    assert response.status_code == 201
    assert response.json()["assistant_message"]["content"] == "hello"
    assert not any(MEMORY_HEADER in s for s in system_messages(scripted.calls[-1]))
    # Whether memory was on is unknown: the turn is pending, settled later as memory was when
    # it was said (tests/test_bounded_waits.py), so it is neither lost nor read with memory off.
    from chat.models import Message

    said = Message.objects.get(role="user", content="hi")
    assert said.memory_state == Message.MemoryState.PENDING


def test_a_voice_pass_that_changes_nothing_still_consumes_its_session(api, account, memory_model):
    from memory.engine import passes

    memory = memory_with(account, "Name is Anna", owed=False)
    conversation = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a"}, format="json"
    ).json()
    session = api.post("/api/v1/voice/sessions", {}, format="json").json()
    transcript = [{"role": "user", "content": "How is the weather?"}]
    api.post(
        f"/api/v1/voice/sessions/{session['id']}/end", {"transcript": transcript}, format="json"
    )
    memory_model.answer(answer("Name is Anna"))

    assert passes.run_pass(memory_id=memory.pk).outcome == "unchanged"

    assert VoiceSession.objects.get().memory_pass_done_at is not None
    # The next chat turns are read again: nothing is stuck behind the session.
    memory_model.answer("ok")
    api.post(
        f"/api/v1/conversations/{conversation['id']}/messages",
        {"content": "I live in Turin"},
        format="json",
    )
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    memory_model.answer(answer("Name is Anna", "Lives in Turin"))
    assert passes.run_pass(memory_id=memory.pk).outcome == "ok"
    assert payload(memory_model.calls[-1]["messages"])["task"] == "rewrite"


def test_with_memory_off_the_model_is_told_nothing_will_be_remembered(api, account, scripted):
    from memory.rules.prompts import MEMORY_OFF_NOTE

    memory_with(account, "Name is Anna", owed=False)
    api.patch("/api/v1/memory", {"enabled": False}, format="json")
    _, call = chat(api, scripted)
    assert MEMORY_OFF_NOTE in system_messages(call)
    _, temporary_call = chat(api, scripted, temporary=True)
    assert MEMORY_OFF_NOTE in system_messages(temporary_call)


def test_with_memory_on_no_off_note_is_sent(api, account, scripted):
    from memory.rules.prompts import MEMORY_OFF_NOTE

    _, call = chat(api, scripted)
    assert MEMORY_OFF_NOTE not in system_messages(call)


@pytest.mark.django_db(transaction=True)
def test_a_chat_requests_memory_read_is_one_round_trip_and_still_bounded(account):
    from django.test.utils import CaptureQueriesContext

    from memory.services import read_for_request

    memory_with(account, "Name is Anna", owed=False)
    with CaptureQueriesContext(connection) as queries:
        read = read_for_request(owner_id=account.pk)
    assert "- Name is Anna" in read.block
    # No BEGIN and COMMIT of its own: the bound and the SELECT travel together.
    assert len(queries.captured_queries) == 1
    assert "statement_timeout" in queries.captured_queries[0]["sql"]


def test_the_memory_block_is_budgeted_at_what_it_really_costs(account):
    from memory.rules.budget import count_tokens, positional_cut
    from memory.services import read_for_request

    for lines in (
        ["Name is Anna"],
        positional_cut([f"Fact {i}: likes tea" for i in range(400)], 2_000),
    ):
        memory_with(account, *lines, owed=False)
        read = read_for_request(owner_id=account.pk)
        assert 0 <= read.tokens - count_tokens(read.block) <= 2


def test_a_temporary_conversation_does_not_even_read_the_memory(api, account, scripted):
    from django.test.utils import CaptureQueriesContext

    memory_with(account, "Name is Anna", owed=False)
    c = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a", "temporary": True}, format="json"
    ).json()
    scripted.answer("ok")
    with CaptureQueriesContext(connection) as queries:
        api.post(f"/api/v1/conversations/{c['id']}/messages", {"content": "hi"}, format="json")
    assert not [q for q in queries.captured_queries if "memory_memory" in q["sql"]]


# --- Said honestly (issue 15, point 5) ----------------------------------------------------------


def test_with_memory_on_the_chat_model_is_told_memory_is_written_in_the_background(
    api, account, scripted
):
    """It may not claim a fact "was saved": the pass that decides runs after its reply."""
    memory_with(account, "Name is Anna", owed=False)
    _, call = chat(api, scripted, text="Remember that I'm vegan")
    assert system_messages(call)[1].endswith(MEMORY_WRITING_NOTE)
    assert "never say that something has been saved" in MEMORY_WRITING_NOTE


def test_with_an_empty_memory_the_note_still_goes(api, account, scripted):
    _, call = chat(api, scripted, text="Remember that I'm vegan")
    assert MEMORY_WRITING_NOTE in system_messages(call)
    assert not any(MEMORY_HEADER in s for s in system_messages(call))


def test_with_memory_off_the_model_is_told_nothing_is_remembered_instead(api, account, scripted):
    api.patch("/api/v1/memory", {"enabled": False}, format="json")
    _, call = chat(api, scripted, text="Remember that I'm vegan")
    systems = system_messages(call)
    assert MEMORY_OFF_NOTE in systems
    assert not any(MEMORY_WRITING_NOTE in s for s in systems)
