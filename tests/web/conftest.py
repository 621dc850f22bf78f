"""Helpers for the web page tests: browser-like clients, memory set-up, SSE and HTML reading."""

from __future__ import annotations

import html
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts import services as accounts_services
from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation
from memory import services as memory_services
from memory.models import Memory
from tests import sse


def person_of(client: Client) -> User:
    """The person logged into ``client``'s session (a guest after the first visit)."""
    return User.objects.get(pk=client.session["_auth_user_id"])


def text_of(response: HttpResponse) -> str:
    """The page as text, entities decoded ("Clear Whizi&#x27;s memory?" → "Clear Whizi's …")."""
    return html.unescape(response.content.decode())


def events_of(response: Any) -> list[tuple[str, dict[str, Any]]]:
    """The server-sent events of a streamed reply, as (event, data) pairs."""
    return sse.pairs(response.streaming_content)


def remember(owner: User, *lines: str) -> Memory:
    """Give ``owner`` a saved memory list, the way a pass stores one."""
    memory = memory_services.get_memory(owner_id=owner.pk)
    assert memory_services.write_lines(memory=memory, lines=list(lines), kind="pass")
    memory.refresh_from_db()
    return memory


def stream_headers() -> dict[str, str]:
    return {"HTTP_ACCEPT": "text/event-stream"}


@contextmanager
def memory_table_locked(mode: str, timeout_ms: int = 300) -> Iterator[None]:
    """Hold a real PostgreSQL lock on the memory table from a second connection, and make this
    connection give up waiting after ``timeout_ms``: memory reads or writes then fail with a
    DatabaseError exactly as they would while the table is busy."""
    db = connection.settings_dict
    other = psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
    )
    try:
        other.execute(f"LOCK TABLE memory_memory IN {mode} MODE")
        with connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = '{int(timeout_ms)}ms'")
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
        other.rollback()
        other.close()


def guest_browser(**options: Any) -> Client:
    """A browser whose session holds a new guest, as after a visitor's first action (a page
    view alone creates no guest)."""
    client = Client(**options)
    client.force_login(accounts_services.create_guest())
    client.get(reverse("chat:home"))
    return client


@pytest.fixture
def guest_client(db: None) -> Client:
    """A browser that has acted once: its session holds a new guest."""
    return guest_browser()


@pytest.fixture
def guest(guest_client: Client) -> User:
    return person_of(guest_client)


@pytest.fixture
def account_client(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


@pytest.fixture
def conversation(account: User) -> Conversation:
    return chat_services.create_conversation(owner_id=account.pk, model="scripted/chat-a")
