"""The sweeper (Celery beat, every half minute) sends only the owed passes no queued task will run,
and its query does not even read the passes that are backing off or waiting in the queue."""

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.models import User
from memory import scheduling
from memory.engine import passes
from memory.models import Memory
from memory.queueing import broker_breaker, passes_to_resend, sweep_owed_passes
from memory.services import get_memory
from tests.memory.engine.test_broker import broker_at, queued_passes, remember
from tests.memory.helpers import later

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def empty_queue():
    redis.Redis.from_url(settings.REDIS_URL).delete("memory")


def test_a_pass_waiting_in_the_queue_is_not_sent_again(api, account, scripted, empty_queue):
    remember(api)
    assert queued_passes() == 1
    memory = Memory.objects.get(owner=account)

    later(memory, seconds=300)  # five minutes in a backlog: still in the queue
    assert sweep_owed_passes() == 0
    assert queued_passes() == 1

    later(memory, seconds=settings.MEMORY_PASS_RESEND_AFTER_SECONDS)  # presumed lost
    assert sweep_owed_passes() == 1
    assert queued_passes() == 2
    assert sweep_owed_passes() == 0  # and counted as queued again


def test_a_pass_the_broker_refused_goes_out_at_the_next_sweep(api, account, scripted, empty_queue):
    with broker_at("redis://127.0.0.1:1/0"):
        remember(api)
    assert queued_passes() == 0
    broker_breaker.reset()  # the breaker's pause is over

    assert sweep_owed_passes() == 1  # no need to wait: nothing is queued for it
    assert queued_passes() == 1
    assert sweep_owed_passes() == 0


def test_new_triggers_for_an_owed_pass_send_nothing_more(api, account, scripted, empty_queue):
    for _ in range(3):
        remember(api)
    assert queued_passes() == 1
    assert sweep_owed_passes() == 0


def test_a_dropped_pass_goes_out_once_its_pause_is_over(account, empty_queue):
    memory = get_memory(owner_id=account.pk)
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    passes.drop_pass(memory_id=memory.pk)  # after its retries; nothing is queued for it
    assert sweep_owed_passes() == 0

    later(memory, seconds=settings.MEMORY_DROPPED_PASS_RETRY_SECONDS)
    assert sweep_owed_passes() == 1


def test_a_pass_whose_worker_died_goes_out_once_its_lease_runs_out(account, empty_queue):
    memory = get_memory(owner_id=account.pk)
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    assert scheduling.claim(memory.pk) is not None  # the worker took it, then died
    assert sweep_owed_passes() == 0

    later(memory, seconds=settings.MEMORY_PASS_LEASE_SECONDS + 1)
    assert sweep_owed_passes() == 1


def plan_nodes(plan: dict) -> list[dict]:
    nodes = [plan]
    for child in plan.get("Plans", []):
        nodes.extend(plan_nodes(child))
    return nodes


@pytest.mark.skipif(connection.vendor != "postgresql", reason="reads PostgreSQL's plan")
def test_the_sweepers_query_reads_no_row_of_a_pass_backing_off(empty_queue):
    import json

    people = User.objects.bulk_create(
        User(username=f"person{i}", email=f"person{i}@example.com") for i in range(1_200)
    )
    backing_off = Memory.objects.bulk_create(
        Memory(owner=person, pass_requested=True) for person in people[:1_197]
    )
    for memory in backing_off:  # every one of them dropped after its retries: an outage
        passes.drop_pass(memory_id=memory.pk)
    Memory.objects.bulk_create(
        Memory(owner=person, pass_requested=True) for person in people[1_197:]
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_memory")

    query = passes_to_resend(timezone.now())
    plan = json.loads(query.explain(analyze=True, format="json"))[0]["Plan"]

    scans = [node for node in plan_nodes(plan) if node.get("Relation Name") == "memory_memory"]
    assert [node["Node Type"] for node in scans] == ["Index Scan"]
    assert scans[0]["Index Name"] == "memory_pass_to_resend"
    assert scans[0]["Actual Rows"] == 3  # the three due: the rest were never read
    assert scans[0].get("Rows Removed by Filter", 0) == 0
    assert sweep_owed_passes() == 3
