"""Outages answer honestly (SPEC §10): with PostgreSQL unreachable the API answers 503 with a JSON
code (the memory codes where the README promises them), token authentication included; the web
shows a plain error page; nothing is half-written; /healthz says what is down.

The database is made unreachable for real: this process's connection is pointed at a closed
port, so every query meets the same connection error a dead server gives.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from chat import services as chat_services
from tests import sse
from tests.conftest import client_for, make_account
from tests.web.conftest import remember, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def database_unreachable() -> Iterator[None]:
    """Every query of this process fails to connect, as with PostgreSQL down."""
    settings_dict = connection.settings_dict
    saved = {key: settings_dict.get(key) for key in ("HOST", "PORT", "OPTIONS")}
    connection.close()
    settings_dict.update(
        HOST="127.0.0.1",
        PORT=str(closed_port()),
        OPTIONS={**(saved["OPTIONS"] or {}), "connect_timeout": 2},
    )
    try:
        yield
    finally:
        connection.close()
        settings_dict.update(saved)


def assert_unavailable(response, code: str = "unavailable") -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code
    assert body["detail"]


@pytest.fixture
def anna(db: None) -> User:
    account = make_account()
    remember(account, "Name is Anna")
    return account


def test_the_fixture_really_cuts_the_database_off(anna: User) -> None:
    with database_unreachable(), pytest.raises(OperationalError):
        User.objects.count()
    assert User.objects.count() == 1


def test_reading_memory_answers_memory_unavailable(anna: User) -> None:
    client = client_for(anna)
    with database_unreachable():
        assert_unavailable(client.get("/api/v1/memory"), "memory_unavailable")


def test_clearing_memory_answers_clear_failed_and_deletes_nothing(anna: User) -> None:
    client = client_for(anna)
    with database_unreachable():
        assert_unavailable(client.delete("/api/v1/memory"), "clear_failed")
    assert client.get("/api/v1/memory").json()["lines"] == ["Name is Anna"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/conversations", None),
        ("post", "/api/v1/conversations", {}),
        ("post", "/api/v1/conversations/1/messages", {"content": "hi"}),
        ("get", "/api/v1/models", None),
        ("post", "/api/v1/projects", {"name": "P"}),
        ("patch", "/api/v1/memory", {"enabled": False}),
        ("post", "/api/v1/voice/sessions", {}),
        ("get", "/api/v1/account/export", None),
        ("delete", "/api/v1/account", {"password": "a-long-passphrase-42"}),
        ("post", "/api/v1/auth/logout", None),
    ],
)
def test_every_authenticated_endpoint_answers_503_unavailable(
    anna: User, method: str, path: str, body: dict[str, Any] | None
) -> None:
    client = client_for(anna)
    with database_unreachable():
        response = getattr(client, method)(path, body, format="json")
    assert_unavailable(response)
    assert User.objects.filter(pk=anna.pk).exists()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/auth/guest", None),
        ("/api/v1/auth/login", {"email": "anna@example.com", "password": "a-long-passphrase-42"}),
        ("/api/v1/auth/signup", {"email": "bea@example.com", "password": "a-long-passphrase-42"}),
    ],
)
def test_the_unauthenticated_endpoints_answer_503_unavailable(
    anna: User, path: str, body: dict[str, str] | None
) -> None:
    with database_unreachable():
        assert_unavailable(APIClient().post(path, body, format="json"))
    assert User.objects.count() == 1


def test_a_streamed_message_answers_503_before_any_stream(anna: User) -> None:
    conversation = chat_services.create_conversation(owner_id=anna.pk)
    client = client_for(anna)
    with database_unreachable():
        response = client.post(
            f"/api/v1/conversations/{conversation.pk}/messages",
            {"content": "hi"},
            format="json",
            HTTP_ACCEPT="text/event-stream",
        )
    assert_unavailable(response)
    assert not conversation.messages.exists()


def test_a_streamed_reply_the_database_cannot_store_ends_with_an_error_event(
    anna: User, scripted, settings
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 30.0  # the scripted model answers at once, however loaded
    conversation = chat_services.create_conversation(owner_id=anna.pk, model="scripted/chat-a")
    scripted.answer("Noted, nice to meet you.")
    response = client_for(anna).post(
        f"/api/v1/conversations/{conversation.pk}/messages",
        {"content": "hi"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    events = iter(response.streaming_content)
    assert b"event: start\n" in next(events)
    assert b"event: delta\n" in next(events)  # the model is answering
    with database_unreachable():  # and the database goes before the reply is stored
        rest = b"".join(events).decode()

    assert response.status_code == 200
    assert rest.endswith("\n\n")
    last = list(sse.parse([rest]))[-1]
    assert last.kind == "error"
    assert last.data["code"] == "unavailable"
    assert list(conversation.messages.values_list("role", flat=True)) == ["user"]


def test_a_signup_cut_off_before_its_token_leaves_no_account(db: None) -> None:
    def no_tokens(execute, sql, params, many, context):
        if 'INSERT INTO "knox_authtoken"' in sql:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    credentials = {"email": "bea@example.com", "password": "a-long-passphrase-42"}
    with connection.execute_wrapper(no_tokens):
        assert_unavailable(APIClient().post("/api/v1/auth/signup", credentials, format="json"))
    assert not User.objects.filter(email="bea@example.com").exists()
    # Trying again works: the address was not left taken by half an account.
    response = APIClient().post("/api/v1/auth/signup", credentials, format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "url",
    [
        reverse("chat:home"),
        reverse("accounts:settings"),
        reverse("chat:projects"),
        reverse("memory:section"),
    ],
)
def test_the_web_shows_a_plain_error_page(anna: User, url: str) -> None:
    client = Client()
    client.force_login(anna)
    with database_unreachable():
        response = client.get(url)
    assert response.status_code == 503
    page = text_of(response)
    assert "Unavailable right now" in page
    assert "Traceback" not in page and "OperationalError" not in page


def test_a_visitor_sees_the_plain_error_page_too(db: None) -> None:
    with database_unreachable():
        response = Client().post(reverse("chat:projects"), {"name": "Thesis"})
    assert response.status_code == 503
    assert "Unavailable right now" in text_of(response)


def test_the_error_page_is_translated(anna: User) -> None:
    client = Client()
    client.force_login(anna)
    with database_unreachable():
        response = client.get(reverse("chat:home"), HTTP_ACCEPT_LANGUAGE="it")
    assert "Non disponibile al momento" in text_of(response)


def test_a_web_message_while_the_database_is_down_stores_nothing(anna: User, scripted) -> None:
    conversation = chat_services.create_conversation(owner_id=anna.pk, model="scripted/chat-a")
    client = Client()
    client.force_login(anna)
    with database_unreachable():
        response = client.post(reverse("chat:send", args=[conversation.pk]), {"content": "hi"})
    assert response.status_code == 503
    assert not conversation.messages.exists()
    assert scripted.calls == []


def test_healthz_says_the_database_is_down(db: None) -> None:
    with database_unreachable():
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "degraded"
    assert response.json()["database"] == "down"


def test_unexpected_errors_are_a_plain_500_page_or_json(db: None, settings) -> None:
    from core.error_pages import server_error

    request = Client().get("/").wsgi_request
    try:
        raise ValueError("boom")
    except ValueError:
        page = server_error(request)
    assert page.status_code == 500
    assert b"Something went wrong" in page.content
    api_request = APIClient().get("/api/v1/nothing").wsgi_request
    try:
        raise ValueError("boom")
    except ValueError:
        response = server_error(api_request)
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
