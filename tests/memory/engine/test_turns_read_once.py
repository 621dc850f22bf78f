"""Every turn the person says with memory on is read exactly once as a source (issue 7):
bursts, back-to-back remembers, a broker outage, deleted lines, and one queued pass per owner."""

import threading
from collections import Counter

import pytest
import redis
from django.conf import settings
from django.db import connection

from chat.models import Message
from memory.models import Memory
from memory.queueing import sweep_owed_passes
from tests.conftest import client_for
from tests.memory.engine.test_broker import broker_at
from tests.memory.helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

THINGS = [f"thing{i}" for i in range(18)]


def new_conversation(api) -> int:
    return api.post("/api/v1/conversations", {}, format="json").json()["id"]


def say(api, conversation_id: int, text: str) -> int:
    return api.post(
        f"/api/v1/conversations/{conversation_id}/messages", {"content": text}, format="json"
    ).status_code


def settled(owner) -> bool:
    """Nothing owed any more: every turn read and no pass requested."""
    memory = Memory.objects.filter(owner=owner).first()
    unread = Message.objects.filter(
        conversation__owner=owner, memory_state=Message.MemoryState.UNREAD
    )
    return memory is not None and not memory.pass_requested and not unread.exists()


def assert_each_read_once(keeper, texts):
    counts = Counter(keeper.sources)
    assert {text: counts[text] for text in texts} == dict.fromkeys(texts, 1)


def test_eighteen_concurrent_remembers_in_one_conversation_are_all_kept(account, keeper, worker):
    conversation_id = new_conversation(client_for(account))
    texts = [f"Remember that I like {thing}" for thing in THINGS]
    statuses = []

    def send(text):
        try:
            statuses.append(say(client_for(account), conversation_id, text))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert statuses == [201] * len(texts)
    assert wait_for(lambda: settled(account))
    assert sorted(Memory.objects.get(owner=account).lines) == sorted(
        f"Likes {thing}" for thing in THINGS
    )
    assert_each_read_once(keeper, texts)


def test_ten_back_to_back_remembers_are_all_kept(account, keeper, worker):
    api = client_for(account)
    conversation_id = new_conversation(api)
    texts = [f"Please remember that I like {thing}" for thing in THINGS[:10]]
    for text in texts:
        assert say(api, conversation_id, text) == 201

    assert wait_for(lambda: settled(account))
    assert Memory.objects.get(owner=account).lines == [f"Likes {t}" for t in THINGS[:10]]
    assert_each_read_once(keeper, texts)


def test_remembers_sent_while_the_broker_refuses_connections_are_kept_once_it_is_back(
    account, keeper, worker
):
    api = client_for(account)
    conversation_id = new_conversation(api)
    texts = [f"Remember that I like {thing}" for thing in THINGS[:8]]
    with broker_at("redis://127.0.0.1:1/0"):  # nothing listens there: connections refused
        for text in texts:
            assert say(api, conversation_id, text) == 201
    assert Memory.objects.get(owner=account).pass_requested  # owed, in the database
    assert Memory.objects.get(owner=account).lines == []

    from memory.queueing import broker_breaker

    broker_breaker.reset()  # the breaker's pause is over
    assert sweep_owed_passes() == 1  # what beat does every half minute

    assert wait_for(lambda: settled(account))
    assert Memory.objects.get(owner=account).lines == [f"Likes {t}" for t in THINGS[:8]]
    assert_each_read_once(keeper, texts)


def test_a_deleted_line_is_not_brought_back_by_the_next_pass(account, keeper, worker):
    api = client_for(account)
    conversation_id = new_conversation(api)
    assert say(api, conversation_id, "My name is Quentin, remember that") == 201
    assert wait_for(lambda: Memory.objects.get(owner=account).lines == ["Name is Quentin"])
    assert wait_for(lambda: settled(account))
    version = api.get("/api/v1/memory").json()["version"]
    deleted = api.delete("/api/v1/memory/rules/lines/0", HTTP_IF_MATCH=str(version))
    assert deleted.status_code == 200

    assert say(api, conversation_id, "remember that I like kites") == 201

    assert wait_for(lambda: Memory.objects.get(owner=account).lines == ["Likes kites"])
    assert wait_for(lambda: settled(account))
    assert Memory.objects.get(owner=account).lines == ["Likes kites"]
    # The first turn went along only as context, never as a source again.
    assert keeper.sources.count("My name is Quentin, remember that") == 1
    assert "My name is Quentin, remember that" in keeper.context


def test_a_cleared_fact_never_comes_back_even_as_context(account, keeper, worker):
    api = client_for(account)
    conversation_id = new_conversation(api)
    assert say(api, conversation_id, "My name is Zed, remember that") == 201
    assert wait_for(lambda: Memory.objects.get(owner=account).lines == ["Name is Zed"])
    assert api.delete("/api/v1/memory").status_code == 204

    assert say(api, conversation_id, "remember that I like tea") == 201

    assert wait_for(lambda: Memory.objects.get(owner=account).lines == ["Likes tea"])
    assert "My name is Zed, remember that" not in keeper.context


def test_a_hundred_triggers_from_one_owner_leave_at_most_a_few_queued_tasks(account, keeper):
    queue = redis.Redis.from_url(settings.REDIS_URL)
    queue.delete("memory")
    api = client_for(account)
    conversation_id = new_conversation(api)
    for i in range(100):
        assert say(api, conversation_id, f"Remember that I like number{i}") == 201

    assert queue.llen("memory") == 1  # no worker here: the one task stays queued
    assert Memory.objects.get(owner=account).pass_requested
