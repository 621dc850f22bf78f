"""End to end through a real Celery worker consuming from Redis (not eager mode)."""

import pytest

from memory.models import Memory
from tests.memory.helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_remember_request_reaches_memory_through_the_worker(api, account, worker):
    c = api.post("/api/v1/conversations", {}, format="json").json()
    response = api.post(
        f"/api/v1/conversations/{c['id']}/messages",
        {"content": "My name is Anna and I live in Turin. Please remember that."},
        format="json",
    )
    assert response.status_code == 201
    assert wait_for(lambda: len(Memory.objects.get(owner=account).lines) >= 2)
    lines = Memory.objects.get(owner=account).lines
    assert "Name is Anna" in lines
    assert "Lives in Turin" in lines
    assert wait_for(lambda: not Memory.objects.get(owner=account).pass_requested)


def test_a_pass_task_delivered_twice_asks_the_model_once(account, memory_model, worker):
    from celery.signals import task_postrun

    from memory.engine.tasks import run_memory_pass
    from tests.memory.helpers import answer, conversation_with, memory_with

    finished = []

    def count(sender=None, **kwargs):
        if sender is not None and sender.name == "memory.run_pass":
            finished.append(kwargs.get("state"))

    task_postrun.connect(count, weak=False)
    try:
        conversation_with(account, "My name is Anna", "Hi Anna")
        memory = memory_with(account)
        memory_model.answer(answer("Name is Anna"))
        run_memory_pass.apply_async(args=[memory.pk])
        run_memory_pass.apply_async(args=[memory.pk])  # the same work, delivered again

        assert wait_for(lambda: len(finished) == 2)  # both deliveries ran to the end
    finally:
        task_postrun.disconnect(count)
    assert finished == ["SUCCESS", "SUCCESS"]
    assert len(memory_model.calls) == 1
    memory.refresh_from_db()
    assert (memory.lines, memory.version, memory.pass_requested) == (["Name is Anna"], 2, False)


def test_a_pass_task_outlasts_its_model_calls_however_slow_the_model_is_allowed_to_be():
    """The task's limits follow MEMORY_MODEL_TIMEOUT, read as a worker reads it at start: a
    slow local model's pass is not killed mid-call (the soft limit once stood at 270 s)."""
    import os
    import subprocess
    import sys

    show = (
        "import django; django.setup(); from memory.engine.tasks import run_memory_pass as t; "
        "print(t.soft_time_limit, t.time_limit)"
    )
    environment = {**os.environ, "MEMORY_MODEL_TIMEOUT": "600"}
    environment["DJANGO_SETTINGS_MODULE"] = "config.settings"  # the product's own
    shown = subprocess.run(
        [sys.executable, "-c", show], env=environment, capture_output=True, text=True, check=True
    )
    soft, hard = map(int, shown.stdout.split()[-2:])
    assert soft >= 4 * 600 and hard > soft
