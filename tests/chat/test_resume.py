"""A streamed reply survives the connection (issue 27, point 1): it is generated to its end
and stored whether or not the app still reads, and an app that comes back gets the rest."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest
import redis
from django.conf import settings
from httpx_sse import connect_sse

from chat.models import Message
from core.middleware import RequestIdFilter
from tests import sse
from tests.conftest import Streamed

# Committed for real: a drop ends the request, and its end-of-request cleanup closes a connection
# that sits inside a test's transaction.
pytestmark = pytest.mark.django_db(transaction=True)

STREAM = "text/event-stream"
PIECES = ("Light ", "a fire, ", "then add ", "wood ", "slowly.")
WHOLE = "".join(PIECES)


def forget_runs() -> None:
    """What ``relay.KEPT_FOR`` does a few minutes after a reply's last event."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("whizi:chat:reply:*"):
        client.delete(key)


@pytest.fixture(autouse=True)
def _no_kept_runs() -> None:
    forget_runs()


def new_chat(api: Any) -> int:
    made = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    return int(made.json()["id"])


def send(api: Any, chat: int, **headers: str) -> Any:
    return api.post(
        f"/api/v1/conversations/{chat}/messages",
        {"content": "How do I light a stove?"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
        **headers,
    )


def read_then_drop(response: Any, count: int) -> list[sse.Event]:
    """Read ``count`` events, then go away the way a phone does: the server is closed."""
    seen = []
    for event in sse.parse(response.streaming_content):
        seen.append(event)
        if len(seen) == count:
            break
    response.close()
    return seen


def reply_text(events: list[sse.Event]) -> str:
    return "".join(str(e.data["content"]) for e in events if e.kind == "delta")


def resume(api: Any, chat: int, question: int, last_event_id: str | None) -> Any:
    headers = {"HTTP_LAST_EVENT_ID": last_event_id} if last_event_id else {}
    return api.get(
        f"/api/v1/conversations/{chat}/messages/{question}/stream",
        HTTP_ACCEPT="text/event-stream",
        **headers,
    )


def test_a_reply_is_stored_when_the_app_drops_the_stream(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))

    seen = read_then_drop(send(api, chat), 2)  # "start" and the first piece

    assert [e.kind for e in seen] == ["start", "delta"]
    reply = Message.objects.get(role="assistant")
    assert reply.content == WHOLE
    assert not reply.stopped
    assert reply.reply_to_id == seen[0].data["user_message"]["id"]


def test_every_event_has_an_id_and_the_ids_grow(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    events = list(sse.parse(send(api, chat).streaming_content))
    ids = [event.id for event in events]
    assert all(ids)
    order = [tuple(int(part) for part in str(i).split(".")) for i in ids]
    assert order == sorted(order) and len(set(order)) == len(order)


def test_a_reconnect_with_last_event_id_gets_exactly_the_rest(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    start, first = read_then_drop(send(api, chat), 2)
    question = start.data["user_message"]["id"]

    rest = list(sse.parse(resume(api, chat, question, first.id).streaming_content))

    assert reply_text([first, *rest]) == WHOLE
    assert rest[0].kind == "delta"  # no second "start": the app has it
    assert rest[-1].kind == "done"
    assert rest[-1].data["assistant_message_id"] == Message.objects.get(role="assistant").pk


def test_a_new_message_sent_with_an_old_last_event_id_is_409_not_lost_quietly(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    _, first = read_then_drop(send(api, chat), 2)
    other = api.post(
        f"/api/v1/conversations/{chat}/messages",
        {"content": "Something else entirely"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
        HTTP_LAST_EVENT_ID=str(first.id),
    )
    assert other.status_code == 409
    assert other.json()["code"] == "not_a_retry"
    assert Message.objects.filter(role="user").count() == 1


def test_the_stream_is_only_ever_a_stream(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    start, _ = read_then_drop(send(api, chat), 2)
    url = f"/api/v1/conversations/{chat}/messages/{start.data['user_message']['id']}/stream"
    assert api.get(url, HTTP_ACCEPT="application/json").status_code == 406
    assert api.get(url, HTTP_ACCEPT="*/*")["Content-Type"].startswith("text/event-stream")


def test_a_post_retried_with_last_event_id_neither_sends_nor_asks_again(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    _, first = read_then_drop(send(api, chat), 2)

    rest = list(sse.parse(send(api, chat, HTTP_LAST_EVENT_ID=str(first.id)).streaming_content))

    assert reply_text([first, *rest]) == WHOLE
    assert len(scripted.calls) == 1
    assert list(Message.objects.values_list("role", flat=True)) == ["user", "assistant"]


def test_without_last_event_id_the_whole_reply_comes_from_a_start(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    start, _ = read_then_drop(send(api, chat), 2)
    question = start.data["user_message"]["id"]

    events = list(sse.parse(resume(api, chat, question, None).streaming_content))

    assert events[0].kind == "start"
    assert events[0].data["user_message"]["id"] == question
    assert reply_text(events) == WHOLE


def test_once_the_relay_expired_the_stored_reply_comes_whole_after_a_start(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    start, first = read_then_drop(send(api, chat), 2)
    forget_runs()

    question = start.data["user_message"]["id"]
    for last_read in (first.id, None):
        again = list(sse.parse(resume(api, chat, question, last_read).streaming_content))
        # "start": show the reply afresh, never spliced onto what the app had.
        assert [e.kind for e in again] == ["start", "delta", "done"]
        assert reply_text(again) == WHOLE
        assert again[-1].data["assistant_message_id"] == Message.objects.get(role="assistant").pk


def test_a_regenerated_reply_is_never_spliced_onto_the_one_the_app_was_reading(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed("First ", "answer ", "here."))
    start, first = read_then_drop(send(api, chat), 2)
    scripted.answer(Streamed("Second ", "answer."))
    regenerated = api.post(
        f"/api/v1/conversations/{chat}/regenerate", {}, format="json", HTTP_ACCEPT=STREAM
    )
    b"".join(regenerated.streaming_content)
    forget_runs()

    question = start.data["user_message"]["id"]
    again = list(sse.parse(resume(api, chat, question, first.id).streaming_content))

    assert again[0].kind == "start"
    assert reply_text(again) == "Second answer."


def test_a_failed_reply_resumes_as_its_error(api, scripted):
    from litellm.exceptions import ServiceUnavailableError

    chat = new_chat(api)
    scripted.answer(ServiceUnavailableError(message="down", llm_provider="x", model="chat-a"))
    start, *_ = list(sse.parse(send(api, chat).streaming_content))
    question = start.data["user_message"]["id"]

    kept = list(sse.parse(resume(api, chat, question, start.id).streaming_content))
    forget_runs()
    stored = list(sse.parse(resume(api, chat, question, start.id).streaming_content))

    assert [e.kind for e in kept] == ["error"]
    assert kept[0].data["code"] == "model_unavailable"
    assert [e.kind for e in stored] == ["start", "error"]
    assert stored[1].data["code"] == "no_reply"  # why, only the relay knew


@pytest.mark.parametrize("value", ["abc", "1.2", "1.2.x", "1.2.3.4", "9" * 40, ""])
def test_a_last_event_id_that_is_none_of_ours_is_400(api, scripted, value):
    chat = new_chat(api)
    response = send(api, chat, HTTP_LAST_EVENT_ID=value)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_last_event_id"
    assert not Message.objects.exists()


def test_someone_elses_reply_is_404_however_it_is_named(api, other_api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    start, first = read_then_drop(send(api, chat), 2)
    question = start.data["user_message"]["id"]
    reply = Message.objects.get(role="assistant").pk
    theirs = new_chat(other_api)

    assert resume(other_api, chat, question, None).status_code == 404
    assert resume(other_api, theirs, question, first.id).status_code == 404
    assert send(other_api, theirs, HTTP_LAST_EVENT_ID=str(first.id)).status_code == 404
    assert resume(api, chat, reply, None).status_code == 404  # a reply is no question
    assert resume(api, chat, question + 1000, None).status_code == 404


def test_a_silent_model_gets_keep_alive_comments(api, scripted, settings):
    settings.CHAT_KEEP_ALIVE_SECONDS = 0.05
    hold = threading.Event()
    chat = new_chat(api)
    scripted.answer(Streamed("Thinking", hold, " done."))
    chunks = iter(send(api, chat).streaming_content)
    seen = b""
    while b": keep-alive" not in seen:
        seen += next(chunks)
    hold.set()
    rest = b"".join(chunks)
    assert reply_text(list(sse.parse([seen + rest]))) == "Thinking done."


def test_a_resume_before_the_first_word_waits_for_it_never_says_it_failed(api, scripted, settings):
    settings.CHAT_KEEP_ALIVE_SECONDS = 0.05
    hold = threading.Event()
    chat = new_chat(api)
    scripted.answer(Streamed(hold, "Hello ", "world."))
    original = iter(send(api, chat).streaming_content)
    start = next(sse.parse([next(original)]))  # only "start": the model is thinking
    question = start.data["user_message"]["id"]

    resumed = resume(api, chat, question, None)
    chunks = iter(resumed.streaming_content)
    first, waiting = next(chunks), next(chunks)
    resumed.close()

    assert b"event: start" in first
    assert waiting == b": keep-alive\n\n"  # not an error: the reply is on its way
    hold.set()
    rest = list(sse.parse(original))
    assert rest[-1].kind == "done"
    assert Message.objects.get(role="assistant").content == "Hello world."


def test_a_resume_from_the_last_event_ends_at_once(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed(*PIECES))
    events = list(sse.parse(send(api, chat).streaming_content))
    question = events[0].data["user_message"]["id"]
    assert list(sse.parse(resume(api, chat, question, events[-1].id).streaming_content)) == []


def test_a_resend_of_an_earlier_message_with_its_old_id_is_409(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed("Yes ", "indeed."))
    said_yes = list(
        sse.parse(
            api.post(
                f"/api/v1/conversations/{chat}/messages",
                {"content": "yes"},
                format="json",
                HTTP_ACCEPT=STREAM,
            ).streaming_content
        )
    )
    api.post(f"/api/v1/conversations/{chat}/messages", {"content": "no"}, format="json")
    again = api.post(
        f"/api/v1/conversations/{chat}/messages",
        {"content": "yes"},
        format="json",
        HTTP_ACCEPT=STREAM,
        HTTP_LAST_EVENT_ID=str(said_yes[1].id),
    )
    assert again.status_code == 409
    assert again.json()["code"] == "not_a_retry"


def test_an_id_naming_another_questions_run_finds_nothing_of_it(api, scripted):
    chat = new_chat(api)
    scripted.answer(Streamed("First ", "reply."))
    first = list(sse.parse(send(api, chat).streaming_content))
    scripted.answer(Streamed("Second ", "reply."))
    second = list(sse.parse(send(api, chat).streaming_content))
    question = second[0].data["user_message"]["id"]
    forged = f"{question}.{first[1].id.split('.')[1]}.1"  # the first question's run

    again = list(sse.parse(resume(api, chat, question, forged).streaming_content))

    assert again[0].kind == "start"
    assert reply_text(again) == "Second reply."


def test_a_streamed_reply_logs_with_its_request_id(api, scripted, caplog):
    from litellm.exceptions import ServiceUnavailableError

    chat = new_chat(api)
    scripted.answer(ServiceUnavailableError(message="down", llm_provider="x", model="chat-a"))
    caplog.handler.addFilter(RequestIdFilter())  # as settings.LOGGING's handlers have it
    with caplog.at_level("WARNING"):
        list(send(api, chat, HTTP_X_REQUEST_ID="trace-7").streaming_content)
    [failed] = [r for r in caplog.records if "chat.model_failed" in r.getMessage()]
    assert failed.request_id == "trace-7"


# --- Through the running stack, with an app's SSE client -----------------------------------


def _wait_for(condition: Any, what: str, bound: float = 30) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)


def hang_up_and_resume(http: httpx.Client, model: str, hold: threading.Event) -> Any:
    """An app's SSE client reads "start" and one piece, hangs up while the model holds the
    rest, and comes back with Last-Event-ID. The pieces read, the question, and the rest."""
    token = http.post("/auth/guest").json()["token"]
    http.headers["Authorization"] = f"Bearer {token}"
    chat = http.post("/conversations", json={"model": model}).json()["id"]
    url = f"/conversations/{chat}/messages"
    with connect_sse(http, "POST", url, json={"content": "Count to four"}) as source:
        events = source.iter_sse()
        start, first = next(events), next(events)
    # The connection is closed here, with the model still holding its third piece.
    assert (start.event, first.event) == ("start", "delta")
    question = start.json()["user_message"]["id"]
    stream = f"/conversations/{chat}/messages/{question}/stream"
    with connect_sse(http, "GET", stream, headers={"Last-Event-ID": first.id}) as source:
        rest = source.iter_sse()
        second = next(rest)  # relayed while the model waits
        hold.set()
        tail = [second, *rest]
    return [first.json()["content"]], stream, question, tail


def test_drop_and_resume_through_a_real_sse_client(live_server, scripted):
    hold = threading.Event()
    scripted.answer(Streamed("one ", "two ", hold, "three ", "four."))
    with httpx.Client(base_url=f"{live_server.url}/api/v1", timeout=30) as http:
        read, stream, question, tail = hang_up_and_resume(http, "scripted/chat-a", hold)
        assert read == ["one "]

        # An id of a run never kept: the newest run, from a "start" (the app starts afresh).
        forged = f"{question}.1.5"
        with connect_sse(http, "GET", stream, headers={"Last-Event-ID": forged}) as source:
            again = [(e.event, e.data) for e in source.iter_sse()]
        assert again[0][0] == "start" and again[-1][0] == "done"
        assert "".join(json.loads(data).get("content", "") for _, data in again[1:-1]) == (
            "one two three four."
        )

    assert [e.event for e in tail] == ["delta", "delta", "delta", "done"]
    assert "".join(e.json()["content"] for e in tail[:3]) == "two three four."
    _wait_for(lambda: Message.objects.filter(role="assistant").exists(), "the stored reply")
    assert Message.objects.get(role="assistant").content == "one two three four."
    assert len(scripted.calls) == 1
