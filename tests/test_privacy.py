"""Message text and memory lines never reach logs, stdout/stderr, task messages or events."""

import json
import logging

import pytest
import redis
from django.conf import settings
from litellm.exceptions import APIConnectionError, BadRequestError

from memory.models import Memory, MemoryEvent
from tests.memory.helpers import answer, run_pass

pytestmark = pytest.mark.django_db(transaction=True)

CANARY = "Quokkazanzibar"


@pytest.fixture
def everything_logged(caplog):
    caplog.set_level(logging.DEBUG)
    for name in ("LiteLLM", "celery", "kombu", "django"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    return caplog


def test_a_whole_day_of_memory_leaves_no_text_behind(
    api, account, memory_model, everything_logged, capfd
):
    redis.Redis.from_url(settings.REDIS_URL).delete("memory")
    conversation = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a"}, format="json"
    ).json()
    url = f"/api/v1/conversations/{conversation['id']}/messages"

    memory_model.answer("Sure")
    api.post(url, {"content": f"My name is {CANARY}, remember that"}, format="json")
    memory_model.answer(
        APIConnectionError(message=f"failed on {CANARY}", llm_provider="scripted", model="chat-a")
    )
    api.post(url, {"content": f"Still {CANARY}"}, format="json")
    memory_model.answer(
        BadRequestError(message=f"bad {CANARY}", llm_provider="scripted", model="chat-a")
    )
    streamed = api.post(
        url, {"content": f"Again {CANARY}"}, format="json", HTTP_ACCEPT="text/event-stream"
    )
    assert b"event: error" in b"".join(streamed.streaming_content)
    memory = Memory.objects.get(owner=account)
    memory_model.answer(
        answer(f"Name is {CANARY}", f"Key sk-proj-{CANARY}abcdefghijklmnopqrstuvwxyz")
    )
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    assert memory.lines == [f"Name is {CANARY}"]  # the pass ran, kept the fact, refused the key
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    conversation_2 = api.post(
        "/api/v1/conversations", {"model": "scripted/chat-a"}, format="json"
    ).json()
    memory_model.answer("ok")
    api.post(
        f"/api/v1/conversations/{conversation_2['id']}/messages",
        {"content": f"{CANARY} again"},
        format="json",
    )
    # Every answer of the pass fails, down to the model's answer to the list alone.
    memory_model.answer(*["{not json " + CANARY] * 4)
    assert run_pass(memory, expect="malformed_not_json").retry
    api.delete("/api/v1/memory")

    out, err = capfd.readouterr()
    assert CANARY not in everything_logged.text
    assert CANARY not in out
    assert CANARY not in err
    assert CANARY not in json.dumps(list(MemoryEvent.objects.values()), default=str)
    queued = redis.Redis.from_url(settings.REDIS_URL).lrange("memory", 0, -1)
    assert queued  # the remember request did enqueue a pass
    assert not any(CANARY.encode() in message for message in queued)
