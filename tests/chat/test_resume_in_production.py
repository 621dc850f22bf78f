"""Drop and resume against the running stack (issue 27, point 1): gunicorn with the
repository's config, PostgreSQL, Redis, a streaming OpenAI-compatible model on the loopback
reached through litellm's HTTP path, and an app's SSE client that hangs up mid-reply."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connection

from chat.models import Message
from tests.chat.test_resume import hang_up_and_resume
from tests.hosted_model import HostedModel
from tests.test_make_run import eventually
from tests.test_startup import health_of, web_server

pytestmark = pytest.mark.django_db(transaction=True)  # the server's own connections see it


@pytest.fixture
def model() -> Iterator[HostedModel]:
    served = HostedModel().start()
    yield served
    served.stop()


@pytest.fixture
def server(model: HostedModel, tmp_path: Path) -> Iterator[str]:
    """gunicorn on a free port, on the test database, its chat model the one above."""
    db = connection.settings_dict
    with web_server(
        tmp_path,
        workers=1,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=settings.REDIS_URL,
        PRODUCTION="false",
        SECRET_KEY="resume-test-secret-key-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        THROTTLE_ENABLED="false",
        CHAT_MODELS="openai/slow",
        OPENAI_API_BASE=model.base_url,
        OPENAI_API_KEY="sk-local",
    ) as port:
        assert eventually(lambda: health_of(port)), (tmp_path / "web.log").read_text()
        yield f"http://127.0.0.1:{port}/api/v1"


def test_a_phone_that_hangs_up_mid_reply_gets_the_rest_and_the_reply_is_stored_once(
    server: str, model: HostedModel
) -> None:
    hold = threading.Event()
    model.answer(("stream", ["Light ", "the ", hold, "fire ", "slowly."]))
    with httpx.Client(base_url=server, timeout=60) as http:
        read, _, _, tail = hang_up_and_resume(http, "openai/slow", hold)

    assert read == ["Light "]
    assert [e.event for e in tail] == ["delta", "delta", "delta", "done"]
    assert "".join(e.json()["content"] for e in tail[:3]) == "the fire slowly."
    stored = eventually(lambda: list(Message.objects.filter(role="assistant")), 60)
    assert [m.content for m in stored or []] == ["Light the fire slowly."]
    asked = [r for r in model.requests if r.get("stream")]
    assert len(asked) == 1  # the model was asked once
