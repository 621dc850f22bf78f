"""Drop and resume against the running stack (issue 27, point 1): gunicorn with the
repository's config, PostgreSQL, Redis, a streaming OpenAI-compatible model on the loopback
reached through litellm's HTTP path, and an app's SSE client that hangs up mid-reply."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.db import connection
from httpx_sse import connect_sse

from chat.models import Message
from tests.hosted_model import HostedModel
from tests.test_make_run import EMBEDDED_ENV_DROPS, eventually, free_port
from tests.test_startup import health_of

pytestmark = pytest.mark.django_db(transaction=True)  # the server's own connections see it


@pytest.fixture
def model() -> Iterator[HostedModel]:
    served = HostedModel().start()
    yield served
    served.stop()


@pytest.fixture
def server(model: HostedModel, tmp_path: Path) -> Iterator[str]:
    """gunicorn on a free port, on the test database, its chat model the one above."""
    port = free_port()
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in EMBEDDED_ENV_DROPS}
    env.update(
        DATA_DIR=str(tmp_path),
        HOME=str(tmp_path),
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=settings.REDIS_URL,
        PRODUCTION="false",
        SECRET_KEY="resume-test-secret-key-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        THROTTLE_ENABLED="false",
        CHAT_MODELS="openai/slow",
        OPENAI_API_BASE=model.base_url,
        OPENAI_API_KEY="sk-local",
    )
    log = (tmp_path / "web.log").open("w")
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1", "config.wsgi"),
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        assert eventually(lambda: health_of(port)), (tmp_path / "web.log").read_text()
        yield f"http://127.0.0.1:{port}/api/v1"
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=60)
        log.close()


def test_a_phone_that_hangs_up_mid_reply_gets_the_rest_and_the_reply_is_stored_once(
    server: str, model: HostedModel
) -> None:
    hold = threading.Event()
    model.answer(("stream", ["Light ", "the ", hold, "fire ", "slowly."]))
    with httpx.Client(base_url=server, timeout=60) as http:
        token = http.post("/auth/guest").json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        chat = http.post("/conversations", json={"model": "openai/slow"}).json()["id"]

        url = f"/conversations/{chat}/messages"
        with connect_sse(http, "POST", url, json={"content": "How do I light a stove?"}) as source:
            events = source.iter_sse()
            start, first = next(events), next(events)
        # Hung up, with the model holding its third piece.
        question = start.json()["user_message"]["id"]
        assert json.loads(first.data) == {"content": "Light "}

        stream = f"/conversations/{chat}/messages/{question}/stream"
        with connect_sse(http, "GET", stream, headers={"Last-Event-ID": first.id}) as source:
            rest = source.iter_sse()
            assert next(rest).json() == {"content": "the "}
            hold.set()
            tail: list[Any] = list(rest)

    assert [e.event for e in tail] == ["delta", "delta", "done"]
    assert "".join(e.json()["content"] for e in tail[:2]) == "fire slowly."
    stored = eventually(lambda: list(Message.objects.filter(role="assistant")), 60)
    assert [m.content for m in stored or []] == ["Light the fire slowly."]
    asked = [r for r in model.requests if r.get("stream")]
    assert len(asked) == 1  # the model was asked once
