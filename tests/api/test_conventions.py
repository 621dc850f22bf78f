"""The conventions apps expect of an API (issue 27, point 6): a request id, rate-limit headers,
token expiry, gzip for JSON, CORS only by allow-list, strict booleans, memory receipts by
version, and errors that say whose fault it was."""

from __future__ import annotations

import gzip
import json
import logging
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from chat.models import Conversation
from core.middleware import RequestIdFilter
from memory.engine import passes
from memory.models import Memory
from tests import sse
from tests.memory.helpers import answer

pytestmark = pytest.mark.django_db


# --- X-Request-Id ---------------------------------------------------------------------------


def test_every_answer_has_a_request_id_and_an_apps_own_is_kept(api, client):
    for response in (api.get("/api/v1/memory"), api.get("/api/v1/nowhere"), client.get("/")):
        assert len(response["X-Request-Id"]) == 32
    mine = api.get("/api/v1/memory", HTTP_X_REQUEST_ID="app-7f3a.2:retry-1")
    assert mine["X-Request-Id"] == "app-7f3a.2:retry-1"


@pytest.mark.parametrize("sent", ["", "a b", "x" * 129, "id\r\nSet-Cookie: x=1", "é"])
def test_a_request_id_that_is_not_a_plain_token_is_replaced(api, sent):
    response = api.get("/api/v1/memory", HTTP_X_REQUEST_ID=sent)
    assert response["X-Request-Id"] != sent
    assert len(response["X-Request-Id"]) == 32


def test_the_request_id_is_on_every_log_record_of_the_request(api, scripted, caplog, settings):
    from litellm.exceptions import ServiceUnavailableError

    conversation = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    scripted.answer(ServiceUnavailableError(message="down", llm_provider="x", model="chat-a"))
    caplog.handler.addFilter(RequestIdFilter())  # as settings.LOGGING's handlers have it
    with caplog.at_level(logging.WARNING):
        api.post(
            f"/api/v1/conversations/{conversation.json()['id']}/messages",
            {"content": "the secret word is pumpernickel"},
            format="json",
            HTTP_X_REQUEST_ID="trace-42",
        )
    [failed] = [r for r in caplog.records if "chat.model_failed" in r.getMessage()]
    assert failed.request_id == "trace-42"
    assert all("pumpernickel" not in r.getMessage() for r in caplog.records)
    assert "request_id" in settings.LOGGING["handlers"]["console"]["filters"]


# --- Rate limits ------------------------------------------------------------------------------


def test_rate_limited_endpoints_say_their_limit_and_what_is_left(api, throttling, scripted):
    conversation = api.post("/api/v1/conversations", {}, format="json").json()["id"]
    url = f"/api/v1/conversations/{conversation}/messages"
    seen = [api.post(url, {"content": f"hi {i}"}, format="json") for i in range(4)]
    assert [r["RateLimit-Remaining"] for r in seen] == ["2", "1", "0", "0"]
    assert {r["RateLimit-Limit"] for r in seen} == {"3"}
    assert all(1 <= int(r["RateLimit-Reset"]) <= 60 for r in seen)
    assert seen[-1].status_code == 429
    assert "RateLimit-Limit" not in api.get("/api/v1/memory")


# --- Tokens -----------------------------------------------------------------------------------


def test_login_and_signup_say_when_the_token_ends(client, api):
    from rest_framework.test import APIClient

    fresh = APIClient()
    signed_up = fresh.post(
        "/api/v1/auth/signup",
        {"email": "zoe@example.com", "password": "a long enough passphrase 9"},
        format="json",
    )
    logged_in = fresh.post(
        "/api/v1/auth/login",
        {"email": "zoe@example.com", "password": "a long enough passphrase 9"},
        format="json",
    )
    for response in (signed_up, logged_in):
        ends = parse_datetime(response.json()["expires_at"])
        assert ends is not None
        assert abs(ends - (timezone.now() + timedelta(days=30))) < timedelta(minutes=5)
    guest = fresh.post("/api/v1/auth/guest")
    assert guest.json()["expires_at"] is None


# --- gzip ------------------------------------------------------------------------------------


def test_json_is_gzipped_for_clients_that_take_it_and_streams_never(api, scripted):
    for i in range(30):
        api.post("/api/v1/memory/lines", {"text": f"Has visited city number {i}"}, format="json")
    zipped = api.get("/api/v1/memory", HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.content))["count"] == 30

    conversation = api.post("/api/v1/conversations", {}, format="json").json()["id"]
    stream = sse.send(api, conversation, "hello", HTTP_ACCEPT_ENCODING="gzip")
    assert not stream.has_header("Content-Encoding")
    b"".join(stream.streaming_content)


def test_pages_are_never_gzipped(client):
    page = client.get("/", HTTP_ACCEPT_ENCODING="gzip", follow=True)
    assert page.status_code == 200
    assert not page.has_header("Content-Encoding")


# --- CORS ------------------------------------------------------------------------------------


def test_cors_is_off_by_default(api):
    response = api.get("/api/v1/memory", HTTP_ORIGIN="https://app.example.com")
    assert not response.has_header("Access-Control-Allow-Origin")


@override_settings(CORS_ALLOWED_ORIGINS=["https://app.example.com"])
def test_cors_answers_only_the_listed_origins_and_only_on_the_api(api, client):
    listed = api.get("/api/v1/memory", HTTP_ORIGIN="https://app.example.com")
    assert listed["Access-Control-Allow-Origin"] == "https://app.example.com"
    assert "X-Request-Id" in listed["Access-Control-Expose-Headers"]
    other = api.get("/api/v1/memory", HTTP_ORIGIN="https://evil.example.net")
    assert not other.has_header("Access-Control-Allow-Origin")
    page = client.get("/", HTTP_ORIGIN="https://app.example.com")
    assert not page.has_header("Access-Control-Allow-Origin")
    preflight = client.options(
        "/api/v1/memory/lines",
        HTTP_ORIGIN="https://app.example.com",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="idempotency-key, if-match",
    )
    assert preflight.status_code == 200
    assert "idempotency-key" in preflight["Access-Control-Allow-Headers"]


# --- Strict booleans -------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["no", "off", "f", "false", 0, 1, "true", None, "yes"])
def test_a_switch_takes_json_true_or_false_only(api, account, value):
    response = api.patch("/api/v1/memory", {"enabled": value}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert api.get("/api/v1/memory").json()["enabled"] is True
    made = api.post("/api/v1/conversations", {"temporary": value}, format="json")
    assert made.status_code == 400
    assert not Conversation.objects.exists()


def test_a_switch_takes_false_and_true(api, account):
    assert api.patch("/api/v1/memory", {"enabled": False}, format="json").json()["enabled"] is False
    assert api.patch("/api/v1/memory", {"enabled": True}, format="json").json()["enabled"] is True


# --- Memory receipts by version ----------------------------------------------------------------


def test_memory_changes_since_a_version_with_their_message_and_undo_state(
    api, account, memory_model
):
    conversation = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    chat = conversation.json()["id"]
    memory_model.answer("Noted.", answer("Lives in Boulder"))
    said = api.post(
        f"/api/v1/conversations/{chat}/messages",
        {"content": "I live in Boulder, remember that"},
        format="json",
    ).json()["user_message"]["id"]
    start = 0
    assert passes.run_pass(memory_id=Memory.objects.get(owner=account).pk).outcome == "ok"
    version = Memory.objects.get(owner=account).version

    [learned] = api.get("/api/v1/memory/changes", {"since": start}).json()["changes"]
    assert (learned["message"], learned["conversation"]) == (said, chat)
    assert (learned["added"], learned["undoable"], learned["undone"]) == (
        ["Lives in Boulder"],
        True,
        False,
    )
    receipt = api.get(f"/api/v1/conversations/{chat}").json()["messages"][0]["memory_change"]
    assert receipt["undoable"] is True

    api.post("/api/v1/memory/undo", {"version": version}, format="json", HTTP_IF_MATCH=str(version))

    body = api.get("/api/v1/memory/changes", {"since": start}).json()
    learned, undo = body["changes"]
    assert (learned["undone"], learned["undoable"]) == (True, False)
    assert undo["kind"] == "undo" and undo["message"] is None
    assert body["version"] == Memory.objects.get(owner=account).version
    assert api.get("/api/v1/memory/changes", {"since": body["version"]}).json()["changes"] == []
    receipt = api.get(f"/api/v1/conversations/{chat}").json()["messages"][0]["memory_change"]
    assert (receipt["undoable"], receipt["undone"]) == (False, True)  # no Undo offered again


@pytest.mark.parametrize("since", ["", "-1", "abc", "1.5", "1.0", " 1", "٣", "true"])
def test_changes_need_a_version_to_start_from(api, since):
    response = api.get("/api/v1/memory/changes", {"since": since})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_someone_elses_changes_are_never_shown(api, other_api, account):
    api.post("/api/v1/memory/lines", {"text": "Lives in Turin"}, format="json")
    assert other_api.get("/api/v1/memory/changes", {"since": 0}).json()["changes"] == []


def test_a_gzipped_memory_keeps_its_strong_etag_for_if_match(api, account):
    for i in range(30):
        api.post("/api/v1/memory/lines", {"text": f"Has visited city number {i}"}, format="json")
    zipped = api.get("/api/v1/memory", HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert not zipped["ETag"].startswith("W/")
    edited = api.patch(
        "/api/v1/memory/lines/0",
        {"text": "Has visited Lyon"},
        format="json",
        HTTP_IF_MATCH=zipped["ETag"],
    )
    assert edited.status_code == 200


def test_changes_page_on_from_the_last_one_given(api, account):
    from chat import receipts

    for text in ("Lives in Turin", "Has a cat", "Plays chess"):
        api.post("/api/v1/memory/lines", {"text": text}, format="json")
    first, since, more = receipts.changes_since(account.pk, 0, most=2)
    assert more and since == first[-1]["version"]
    rest, now, more = receipts.changes_since(account.pk, since, most=2)
    assert [c["added"] for c in first + rest] == [
        ["Lives in Turin"],
        ["Has a cat"],
        ["Plays chess"],
    ]
    assert not more and now == Memory.objects.get(owner=account).version
