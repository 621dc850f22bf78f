"""Stop, regenerate and edit through the mobile API (issue 17, point 2), and what memory makes of
them: a regenerated or stopped reply is the same turn, read once; an edited-away message is
never learned, and what a pass already learned from it alone is taken back."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from chat.models import Conversation, Message
from memory.engine import passes
from memory.models import Memory, MemoryVersion
from memory.turns import TurnState
from tests import sse
from tests.conftest import Streamed
from tests.memory.helpers import answer

pytestmark = pytest.mark.django_db


def new_conversation(api: Any, model: str = "scripted/chat-a") -> int:
    response = api.post("/api/v1/conversations", {"model": model}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def say(api: Any, conversation: int, text: str, **extra: Any) -> dict[str, Any]:
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": text, **extra},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def regenerate(api: Any, conversation: int, **body: Any) -> Any:
    return api.post(f"/api/v1/conversations/{conversation}/regenerate", body, format="json")


def rows(conversation: int) -> list[tuple[str, str]]:
    return list(
        Message.objects.filter(conversation_id=conversation)
        .order_by("id")
        .values_list("role", "content")
    )


def run_pass(account: Any) -> str:
    return passes.run_pass(memory_id=Memory.objects.get(owner=account).pk).outcome


def memory_lines(api: Any) -> list[str]:
    return api.get("/api/v1/memory").json()["lines"]


def events(chunks: Any) -> Any:
    """The server-sent events of a streamed response, one at a time, as they are produced."""
    for event in sse.parse(chunks):
        yield event.kind, event.data


def stream_message(api: Any, conversation: int, text: str) -> Any:
    return api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": text},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )


# --- Regenerate -------------------------------------------------------------------------------


def test_regenerate_replaces_the_last_reply(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("Red.", "Teal.")
    first = say(api, conversation, "Name a colour")

    response = regenerate(api, conversation)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["user_message"]["id"] == first["user_message"]["id"]
    assert body["assistant_message"]["content"] == "Teal."
    assert rows(conversation) == [("user", "Name a colour"), ("assistant", "Teal.")]
    reply = Message.objects.get(role="assistant")
    assert reply.reply_to_id == first["user_message"]["id"]
    assert Conversation.objects.get(pk=conversation).turns == 2  # one exchange, as before


def test_regenerate_answers_with_the_same_model_unless_one_is_given(api, scripted):
    conversation = new_conversation(api)
    say(api, conversation, "Hello")
    again = regenerate(api, conversation).json()["assistant_message"]
    assert again["model"] == "scripted/chat-a"

    other = regenerate(api, conversation, model="scripted/chat-b").json()["assistant_message"]

    assert other["model"] == "scripted/chat-b"
    assert scripted.calls[-1]["model"] == "chat-b"
    # The chat's own model is unchanged: the next message is answered by it.
    assert Conversation.objects.get(pk=conversation).model == "scripted/chat-a"


def test_regenerate_sends_the_history_up_to_the_question_not_the_old_reply(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("A first, wrong answer.")
    say(api, conversation, "What is two and two?")
    regenerate(api, conversation)
    sent = [m["content"] for m in scripted.calls[-1]["messages"] if m["role"] != "system"]
    assert sent == ["What is two and two?"]


def test_regenerate_retries_a_failed_reply(api, scripted):
    conversation = new_conversation(api)
    scripted.answer(RuntimeError("the provider fell over"), "Here I am.")
    assert say(api, conversation, "Are you there?")["assistant_message"] is None

    body = regenerate(api, conversation).json()

    assert body["assistant_message"]["content"] == "Here I am."
    assert rows(conversation) == [("user", "Are you there?"), ("assistant", "Here I am.")]


def test_a_failed_regenerate_keeps_the_reply_there_was(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("Kept.", RuntimeError("down"))
    say(api, conversation, "Hi")
    body = regenerate(api, conversation).json()
    assert body["assistant_message"] is None and body["error"]["code"]
    assert rows(conversation) == [("user", "Hi"), ("assistant", "Kept.")]


def test_regenerate_with_nothing_to_answer_is_409(api):
    conversation = new_conversation(api)
    response = regenerate(api, conversation)
    assert response.status_code == 409
    assert response.json()["code"] == "nothing_to_regenerate"


def test_regenerate_with_a_model_not_on_offer_is_400(api, scripted):
    conversation = new_conversation(api)
    say(api, conversation, "Hi")
    response = regenerate(api, conversation, model="openai/gpt-unknown")
    assert response.status_code == 400
    assert rows(conversation) == [("user", "Hi"), ("assistant", "echo: Hi")]


def test_someone_elses_chat_is_404_for_regenerate_stop_and_edit(api, other_api, scripted):
    conversation = new_conversation(api)
    mine = say(api, conversation, "Hi")["user_message"]["id"]
    assert regenerate(other_api, conversation).status_code == 404
    assert other_api.post(f"/api/v1/conversations/{conversation}/stop").status_code == 404
    theirs = new_conversation(other_api)
    response = other_api.post(
        f"/api/v1/conversations/{theirs}/messages",
        {"content": "Mine now", "replaces": mine},
        format="json",
    )
    assert response.status_code == 404
    assert rows(conversation) == [("user", "Hi"), ("assistant", "echo: Hi")]


def test_a_streamed_regenerate_replaces_the_reply(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("Old.", Streamed("New ", "reply."))
    say(api, conversation, "Hi")
    response = api.post(
        f"/api/v1/conversations/{conversation}/regenerate", HTTP_ACCEPT="text/event-stream"
    )
    assert response.status_code == 200
    seen = list(events(response.streaming_content))
    assert [kind for kind, _ in seen] == ["start", "delta", "delta", "done"]
    assert seen[-1][1]["assistant_message_id"] == Message.objects.get(role="assistant").pk
    assert rows(conversation) == [("user", "Hi"), ("assistant", "New reply.")]


# --- Stop -------------------------------------------------------------------------------------


def test_stop_keeps_what_arrived_marked_as_stopped(api, scripted, settings):
    settings.CHAT_STOP_CHECK_SECONDS = 0
    settings.CHAT_MODEL_TIMEOUT = 30
    held = threading.Event()
    scripted.answer(Streamed("Once upon", " a time", held, " there was", " more", " and more"))
    conversation = new_conversation(api)
    response = stream_message(api, conversation, "Tell me a story")
    stream = events(response.streaming_content)
    assert next(stream)[0] == "start"
    assert next(stream) == ("delta", {"content": "Once upon"})
    assert next(stream) == ("delta", {"content": " a time"})

    stopped = api.post(f"/api/v1/conversations/{conversation}/stop")
    assert stopped.status_code == 202
    held.set()
    rest = list(stream)

    # The stream ends as it resumes: no delta after the stop.
    assert [kind for kind, _ in rest] == ["done"]
    kind, done = rest[-1]
    reply = Message.objects.get(role="assistant")
    assert (kind, done["stopped"], done["assistant_message_id"]) == ("done", True, reply.pk)
    assert (reply.content, reply.stopped) == ("Once upon a time", True)
    shown = api.get(f"/api/v1/conversations/{conversation}").json()["messages"][1]
    assert (shown["content"], shown["stopped"]) == ("Once upon a time", True)


def test_a_stop_before_the_stream_started_does_not_stop_it(api, scripted, settings):
    settings.CHAT_STOP_CHECK_SECONDS = 0
    conversation = new_conversation(api)
    assert api.post(f"/api/v1/conversations/{conversation}/stop").status_code == 202
    scripted.answer(Streamed("All ", "of ", "it."))
    response = stream_message(api, conversation, "Hi")
    kind, done = list(events(response.streaming_content))[-1]
    assert kind == "done" and "stopped" not in done
    assert Message.objects.get(role="assistant").content == "All of it."


def test_a_regenerate_stops_the_reply_still_streaming_and_takes_its_place(api, scripted, settings):
    """Two answers to one question never both stay: the reply on its way when the person asks
    again is stopped, and the regenerate's reply replaces it."""
    settings.CHAT_STOP_CHECK_SECONDS = 0
    settings.CHAT_MODEL_TIMEOUT = 30
    held = threading.Event()
    scripted.answer(Streamed("First", held, " answer"), "Second answer.")
    conversation = new_conversation(api)
    response = stream_message(api, conversation, "Hi")
    stream = events(response.streaming_content)
    next(stream), next(stream)

    again = regenerate(api, conversation)
    assert again.json()["assistant_message"]["content"] == "Second answer."
    held.set()
    kind, data = list(stream)[-1]

    assert (kind, data["code"]) == ("error", "superseded")  # the stopped first reply: dropped
    assert rows(conversation) == [("user", "Hi"), ("assistant", "Second answer.")]


# --- Edit -------------------------------------------------------------------------------------


def test_an_edit_replaces_the_last_exchange(api, scripted):
    conversation = new_conversation(api)
    scripted.answer("Hi Bob.", "Hi Rob.")
    first = say(api, conversation, "My name is Bob")["user_message"]["id"]

    body = say(api, conversation, "My name is Rob", replaces=first)

    assert body["replaced"] == {"message_id": first, "memory_kept": False}
    assert body["assistant_message"]["content"] == "Hi Rob."
    assert rows(conversation) == [("user", "My name is Rob"), ("assistant", "Hi Rob.")]
    assert Conversation.objects.get(pk=conversation).turns == 2
    sent = [m["content"] for m in scripted.calls[-1]["messages"] if m["role"] != "system"]
    assert sent == ["My name is Rob"]  # the withdrawn exchange is not in the history


def test_only_the_last_message_can_be_edited(api, scripted):
    conversation = new_conversation(api)
    first = say(api, conversation, "One")["user_message"]["id"]
    say(api, conversation, "Two")
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": "Uno", "replaces": first},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "not_last_message"
    assert [content for _, content in rows(conversation)] == [
        "One",
        "echo: One",
        "Two",
        "echo: Two",
    ]


@pytest.mark.parametrize("which", ["missing", "reply", "other_chat"])
def test_an_edit_of_a_message_not_the_persons_here_is_404(api, scripted, which):
    conversation = new_conversation(api)
    exchange = say(api, conversation, "Hi")
    elsewhere = new_conversation(api)
    there = say(api, elsewhere, "Elsewhere")["user_message"]["id"]
    target = {
        "missing": 999_999,
        "reply": exchange["assistant_message"]["id"],
        "other_chat": there,
    }[which]
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": "Edited", "replaces": target},
        format="json",
    )
    assert response.status_code == 404
    assert rows(conversation) == [("user", "Hi"), ("assistant", "echo: Hi")]


@pytest.mark.parametrize("replaces", ["abc", 0, -3, True])
def test_an_edit_with_a_bad_id_is_400_and_loses_nothing(api, scripted, replaces):
    conversation = new_conversation(api)
    say(api, conversation, "Hi")
    response = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": "Edited", "replaces": replaces},
        format="json",
    )
    assert response.status_code == 400
    assert "code" in response.json()
    assert rows(conversation) == [("user", "Hi"), ("assistant", "echo: Hi")]


def test_a_reply_still_streaming_for_an_edited_message_is_dropped(api, scripted, settings):
    settings.CHAT_STOP_CHECK_SECONDS = 0
    settings.CHAT_MODEL_TIMEOUT = 30
    held = threading.Event()
    scripted.answer(Streamed("Hi", held, " Bob"), "Hi Rob.")
    conversation = new_conversation(api)
    response = stream_message(api, conversation, "My name is Bob")
    stream = events(response.streaming_content)
    first = next(stream)[1]["user_message"]["id"]
    next(stream)

    say(api, conversation, "My name is Rob", replaces=first)
    held.set()
    kind, data = list(stream)[-1]

    assert (kind, data["code"]) == ("error", "withdrawn")
    assert data["detail"] == "Your message was edited meanwhile, so this reply was dropped."
    assert rows(conversation) == [("user", "My name is Rob"), ("assistant", "Hi Rob.")]


# --- What memory makes of it --------------------------------------------------------------------


def test_an_edited_message_no_pass_had_read_is_never_learned(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", "Noted again.", answer("Favourite colour is green"))
    first = say(api, conversation, "Remember that my favourite colour is teal")["user_message"]
    assert Message.objects.get(pk=first["id"]).memory_state != TurnState.READ

    say(api, conversation, "Remember that my favourite colour is green", replaces=first["id"])
    assert run_pass(account) == "ok"

    assert memory_lines(api) == ["Favourite colour is green"]
    # The pass read the edited message alone: the withdrawn one never reached the model.
    request = json.dumps(memory_model.calls[-1]["messages"])
    assert "teal" not in request and "green" in request


def test_an_edited_message_a_pass_had_read_alone_is_taken_back(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer(
        "Noted.", answer("Favourite colour is teal"), "Noted.", answer("Favourite colour is green")
    )
    first = say(api, conversation, "Remember that my favourite colour is teal")["user_message"]
    assert run_pass(account) == "ok"
    assert memory_lines(api) == ["Favourite colour is teal"]

    body = say(
        api, conversation, "Remember that my favourite colour is green", replaces=first["id"]
    )

    assert body["replaced"] == {"message_id": first["id"], "memory_kept": False}
    assert memory_lines(api) == []  # what the withdrawn message taught is gone at once
    assert run_pass(account) == "ok"
    assert memory_lines(api) == ["Favourite colour is green"]


def test_an_edit_takes_back_only_the_lines_of_the_withdrawn_message(api, account, memory_model):
    """A pass that read two turns at once: withdrawing the newer one keeps what the older
    taught."""
    conversation = new_conversation(api)
    memory_model.answer("Nice.", "Noted.", answer("Lives in Boulder", "Has a dog named Rex"))
    say(api, conversation, "I live in Boulder")
    last = say(api, conversation, "I have a dog named Rex, remember both")["user_message"]
    assert run_pass(account) == "ok"
    assert sorted(memory_lines(api)) == ["Has a dog named Rex", "Lives in Boulder"]

    body = say(api, conversation, "Never mind", replaces=last["id"])

    assert body["replaced"]["memory_kept"] is False
    assert memory_lines(api) == ["Lives in Boulder"]


def test_a_line_the_person_rewrote_since_stays_theirs(api, account, memory_model):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Favourite colour is teal"), "Ok.")
    first = say(api, conversation, "Remember that my favourite colour is teal")["user_message"]
    assert run_pass(account) == "ok"
    version = api.get("/api/v1/memory").json()["version"]
    edited = api.patch(
        "/api/v1/memory/lines/0",
        {"text": "Favourite colour is deep teal"},
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
    )
    assert edited.status_code == 200, edited.content

    body = say(api, conversation, "Hello", replaces=first["id"])

    # The person's own words are not the model's to take back.
    assert memory_lines(api) == ["Favourite colour is deep teal"]
    assert body["replaced"]["memory_kept"] is False


def test_a_change_no_longer_kept_is_said_and_not_guessed_at(api, account, memory_model, settings):
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Favourite colour is teal"), "Ok.")
    first = say(api, conversation, "Remember that my favourite colour is teal")["user_message"]
    assert run_pass(account) == "ok"
    memory = Memory.objects.get(owner=account)
    MemoryVersion.objects.filter(memory=memory).delete()  # pruned, as the oldest are

    body = say(api, conversation, "Hello", replaces=first["id"])

    assert body["replaced"] == {"message_id": first["id"], "memory_kept": True}
    assert memory_lines(api) == ["Favourite colour is teal"]  # left for the person to judge


# --- Found in review ----------------------------------------------------------------------------


def test_an_older_regenerate_never_overwrites_a_newer_ones_reply(api, scripted, settings):
    settings.CHAT_STOP_CHECK_SECONDS = 0
    settings.CHAT_MODEL_TIMEOUT = 30
    held = threading.Event()
    conversation = new_conversation(api)
    scripted.answer("First.", Streamed("Slow", held, " second"), "Third, and newest.")
    say(api, conversation, "Hi")
    slow = api.post(
        f"/api/v1/conversations/{conversation}/regenerate", HTTP_ACCEPT="text/event-stream"
    )
    stream = events(slow.streaming_content)
    next(stream), next(stream)

    newest = regenerate(api, conversation).json()["assistant_message"]
    held.set()
    kind, data = list(stream)[-1]

    assert (kind, data["code"]) == ("error", "superseded")
    assert rows(conversation) == [("user", "Hi"), ("assistant", "Third, and newest.")]
    assert Message.objects.get(role="assistant").pk == newest["id"]


def test_an_edit_of_a_message_withdrawn_already_is_404_and_adds_nothing(api, scripted):
    """Two tabs (or a double submit) editing the same message: one edit wins, the other is
    refused; never two exchanges where there was one."""
    conversation = new_conversation(api)
    first = say(api, conversation, "My name is Bob")["user_message"]["id"]
    say(api, conversation, "My name is Rob", replaces=first)
    again = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": "My name is Tom", "replaces": first},
        format="json",
    )
    assert again.status_code == 404
    assert rows(conversation) == [("user", "My name is Rob"), ("assistant", "echo: My name is Rob")]


def test_a_withdrawn_line_leaves_the_history_too(api, account, memory_model):
    """What an edit took back cannot come back by a restore."""
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Favourite colour is teal"), "Ok.")
    first = say(api, conversation, "Remember that my favourite colour is teal")["user_message"]
    assert run_pass(account) == "ok"
    say(api, conversation, "Hello", replaces=first["id"])
    memory = Memory.objects.get(owner=account)
    kept = [line for row in MemoryVersion.objects.filter(memory=memory) for line in row.lines]
    assert "Favourite colour is teal" not in kept


def test_an_edited_first_message_takes_its_title_with_it(api, scripted):
    conversation = new_conversation(api)
    first = say(api, conversation, "My card PIN is 4921, can you keep it?")["user_message"]["id"]
    assert "4921" in api.get(f"/api/v1/conversations/{conversation}").json()["title"]
    say(api, conversation, "Plan a weekend in Lisbon", replaces=first)
    title = api.get(f"/api/v1/conversations/{conversation}").json()["title"]
    assert "4921" not in title and "Lisbon" in title


def test_a_title_given_by_hand_stays_after_an_edit(api, scripted):
    conversation = new_conversation(api)
    first = say(api, conversation, "Hello there")["user_message"]["id"]
    api.patch(f"/api/v1/conversations/{conversation}", {"title": "My chat"}, format="json")
    say(api, conversation, "Hello again", replaces=first)
    assert api.get(f"/api/v1/conversations/{conversation}").json()["title"] == "My chat"


def test_an_edited_message_read_in_parts_says_memory_may_keep_some(api, account, memory_model):
    """A long message is read part by part; only its latest part's change is known, so the
    person is told to look rather than told all is gone."""
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Allergic to nuts"), "Ok.")
    first = say(api, conversation, "Remember that I am allergic to nuts")["user_message"]["id"]
    assert run_pass(account) == "ok"
    Message.objects.filter(pk=first).update(memory_read_to=12)  # as a part-by-part read leaves it

    body = say(api, conversation, "Hello", replaces=first)

    assert body["replaced"]["memory_kept"] is True


def test_a_refused_edit_stops_no_reply(api, scripted, settings):
    settings.CHAT_STOP_CHECK_SECONDS = 0
    settings.CHAT_MODEL_TIMEOUT = 30
    held = threading.Event()
    conversation = new_conversation(api)
    earlier = say(api, conversation, "One")["user_message"]["id"]
    scripted.answer(Streamed("All ", held, "of ", "it."))
    response = stream_message(api, conversation, "Two")
    stream = events(response.streaming_content)
    next(stream), next(stream)

    refused = api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": "Uno", "replaces": earlier},
        format="json",
    )
    held.set()
    kind, done = list(stream)[-1]

    assert refused.status_code == 409
    assert kind == "done" and "stopped" not in done  # the reply went on to its end
    assert Message.objects.filter(role="assistant").last().content == "All of it."


def test_a_reply_regenerated_after_its_turn_was_read_is_never_read_alone(
    api, account, memory_model
):
    """The exchange was read once: its new reply goes along as context, never as a transcript
    of its own (the assistant's words are no source)."""
    conversation = new_conversation(api)
    memory_model.answer("Noted.", answer("Favourite colour is teal"), "Noted, teal it is.")
    say(api, conversation, "Remember that my favourite colour is teal")
    assert run_pass(account) == "ok"
    calls = len(memory_model.calls)

    regenerate(api, conversation)

    reply = Message.objects.get(role="assistant")
    assert reply.memory_state == TurnState.READ
    assert run_pass(account) in ("no_work", "not_owed")  # nothing left to read
    assert len(memory_model.calls) == calls + 1  # the regenerate's own call; no memory call
    assert memory_lines(api) == ["Favourite colour is teal"]
