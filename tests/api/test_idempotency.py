"""Idempotency-Key on every POST that creates something (issue 27, point 2): a retry gets the
first answer and makes nothing twice; another body under the same key is 409."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from chat.models import Conversation, Message, Project, VoiceSession
from memory.models import Memory
from tests import sse
from tests.conftest import Streamed, client_for, make_account


@pytest.fixture(autouse=True)
def _fresh_keys() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("whizi:idempotency:*"):
        client.delete(key)


def twice(api: Any, url: str, body: dict[str, Any], key: str = "k-1", **extra: Any) -> list[Any]:
    return [api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key, **extra) for _ in range(2)]


def chat(api: Any) -> int:
    return int(
        api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()["id"]
    )


def test_a_retried_send_stores_one_message_and_asks_the_model_once(api, scripted):
    conversation = chat(api)
    scripted.answer("Pasta, then.")
    first, again = twice(
        api, f"/api/v1/conversations/{conversation}/messages", {"content": "Dinner?"}
    )

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert len(scripted.calls) == 1
    assert Message.objects.filter(role="user").count() == 1


def test_the_same_key_with_another_body_is_409_and_sends_nothing(api, scripted):
    conversation = chat(api)
    url = f"/api/v1/conversations/{conversation}/messages"
    api.post(url, {"content": "Dinner?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    other = api.post(url, {"content": "Lunch?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 409
    assert other.json()["code"] == "idempotency_key_reused"
    assert Message.objects.filter(role="user").count() == 1


def test_a_retried_streamed_send_streams_the_same_reply_without_a_second_call(api, scripted):
    conversation = chat(api)
    url = f"/api/v1/conversations/{conversation}/messages"
    scripted.answer(Streamed("Pasta ", "with ", "pesto."))
    headers = {"HTTP_ACCEPT": "text/event-stream", "HTTP_IDEMPOTENCY_KEY": "k-2"}
    first, again = (
        list(sse.parse(api.post(url, {"content": "Dinner?"}, format="json", **headers)))
        for _ in range(2)
    )

    def said(events: list[sse.Event]) -> str:
        return "".join(e.data["content"] for e in events if e.kind == "delta")

    assert said(first) == said(again) == "Pasta with pesto."
    assert again[0].data["user_message"]["id"] == first[0].data["user_message"]["id"]
    assert len(scripted.calls) == 1
    assert Message.objects.count() == 2


@pytest.mark.parametrize(
    ("url", "body", "model"),
    [
        ("/api/v1/conversations", {}, Conversation),
        ("/api/v1/projects", {"name": "Thesis", "instructions": ""}, Project),
        ("/api/v1/voice/sessions", {}, VoiceSession),
    ],
)
def test_a_retried_create_answers_the_first_thing_made(api, url, body, model):
    first, again = twice(api, url, body)
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert model.objects.count() == 1


def test_a_retried_line_add_answers_the_list_with_that_line_once(api, account):
    first, again = twice(api, "/api/v1/memory/lines", {"text": "Lives in Turin"})
    assert first.status_code == again.status_code == 201
    assert again.json()["lines"] == first.json()["lines"] == ["Lives in Turin"]
    assert again["ETag"] == first["ETag"]


def test_a_retried_undo_answers_the_memory_and_undoes_once(api, account):
    added = api.post("/api/v1/memory/lines", {"text": "Lives in Turin"}, format="json").json()
    api.post("/api/v1/memory/lines", {"text": "Has a cat"}, format="json")
    version = Memory.objects.get().version
    first, again = twice(
        api, "/api/v1/memory/undo", {"version": version}, HTTP_IF_MATCH=str(version)
    )
    assert first.status_code == again.status_code == 200
    assert again.json()["lines"] == first.json()["lines"] == added["lines"]
    assert again.json()["skipped"] == first.json()["skipped"]


def test_a_replay_shows_what_is_there_now_never_what_was_deleted(api, account):
    url = "/api/v1/memory/lines"
    twice(api, url, {"text": "Lives in Turin"})
    api.delete("/api/v1/memory")
    again = api.post(url, {"text": "Lives in Turin"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201
    assert "Turin" not in again.content.decode()


def test_keys_are_per_person(api, other_api):
    mine, _ = twice(api, "/api/v1/conversations", {})
    theirs = other_api.post("/api/v1/conversations", {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert theirs.status_code == 201
    assert theirs.json()["id"] != mine.json()["id"]


def test_keys_are_kept_a_day(api, account):
    api.post("/api/v1/conversations", {}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    client = redis.Redis.from_url(settings.REDIS_URL)
    [key] = list(client.scan_iter(f"whizi:idempotency:{account.pk}:*"))
    assert 24 * 3600 - 60 < client.ttl(key) <= 24 * 3600
    assert b"k-1" not in key  # the key is hashed


def test_a_failed_request_is_not_kept_so_its_retry_runs_again(api, account):
    refused, again = twice(api, "/api/v1/memory/lines", {"text": "My PIN is 4921"})
    assert refused.status_code == again.status_code == 400
    assert again.json()["code"] == "line_refused"


@pytest.mark.parametrize("key", ["", "x" * 256, "clé", "a b"])
def test_a_key_that_is_not_visible_ascii_up_to_255_is_400(api, key):
    response = api.post("/api/v1/conversations", {}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
    assert not Conversation.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_retry_while_the_first_runs_is_409_in_progress(scripted):
    api = client_for(make_account())
    conversation = chat(api)
    url = f"/api/v1/conversations/{conversation}/messages"
    retried: list[Any] = []

    def retry_meanwhile(messages: Any) -> str:
        try:  # in the model's thread, while the first request waits for it
            retried.append(
                api.post(url, {"content": "Dinner?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-3")
            )
        finally:
            connection.close()  # this thread's own
        return "Pasta."

    scripted.answer(retry_meanwhile)
    first = api.post(url, {"content": "Dinner?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-3")

    assert first.status_code == 201
    assert retried[0].status_code == 409
    assert retried[0].json()["code"] == "request_in_progress"
    assert retried[0]["Retry-After"] == "1"
    assert Message.objects.filter(role="user").count() == 1


def test_a_key_held_by_a_request_that_died_frees_itself_within_minutes(account, settings):
    """A process killed mid-request never finishes its claim: it must not block for a day."""
    from rest_framework.parsers import JSONParser
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from core import idempotency

    sent = APIRequestFactory().post(
        "/api/v1/conversations", {}, format="json", HTTP_IDEMPOTENCY_KEY="dies-1"
    )
    request = Request(sent, parsers=[JSONParser()])
    request.user = account
    claim = idempotency.claim(request)
    assert isinstance(claim, idempotency.Claim)  # ...and the process dies here
    ttl = redis.Redis.from_url(settings.REDIS_URL).ttl(claim.key)
    assert 0 < ttl <= max(120, 3 * settings.CHAT_MODEL_TIMEOUT)


def test_a_retry_drawn_again_counts_against_no_rate_limit(api, throttling, scripted):
    conversation = chat(api)
    url = f"/api/v1/conversations/{conversation}/messages"
    first = api.post(url, {"content": "One"}, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
    again = [
        api.post(url, {"content": "One"}, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
        for _ in range(5)
    ]
    assert [r.status_code for r in again] == [201] * 5  # the limit is 3 a minute
    assert first["RateLimit-Remaining"] == "2"
    fresh = api.post(url, {"content": "Two"}, format="json")
    assert fresh["RateLimit-Remaining"] == "1"


def test_a_json_retry_of_a_send_still_streaming_is_409_in_progress(api, scripted):
    hold = threading.Event()
    conversation = chat(api)
    url = f"/api/v1/conversations/{conversation}/messages"
    scripted.answer(Streamed(hold, "Pasta."))
    streaming = api.post(
        url,
        {"content": "Dinner?"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
        HTTP_IDEMPOTENCY_KEY="k-4",
    )
    chunks = iter(streaming.streaming_content)
    next(chunks)  # "start": the model is thinking
    retried = api.post(url, {"content": "Dinner?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-4")
    assert retried.status_code == 409
    assert retried.json()["code"] == "request_in_progress"
    hold.set()
    list(chunks)
    after = api.post(url, {"content": "Dinner?"}, format="json", HTTP_IDEMPOTENCY_KEY="k-4")
    assert after.status_code == 201  # as a JSON send answers, though the first was a stream
    assert after.json()["assistant_message"]["content"] == "Pasta."
