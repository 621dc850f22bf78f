"""No remember is given up for the memory model's sake (issue 16, point 3): an authentication
or configuration error (401, 403, an unknown model, a 400 every request gets) and an outage of
any length leave every turn unread and the pass owed — backing off, re-driven by the sweeper —
while /healthz and an operator event say the memory model is failing; the work runs once it is
back. Only an answer that can never be produced for the work (a content error that persists
once the work is split down to one turn, while the model answers other work) gives up, and
only the turn it concerns.

The model is scripted at the litellm seam: the scripted provider raises litellm's own
exceptions, as a provider's 401 or 503 reaches litellm.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from django.test import Client
from django.utils import timezone
from litellm import exceptions as provider

from chat.models import Message
from memory.engine.tasks import run_memory_pass
from memory.models import Memory, MemoryEvent
from memory.queueing import passes_to_resend
from tests.memory.helpers import Keeper, conversation_with, later, memory_with, payload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

REMEMBERS = (
    "My name is Anna, remember that",
    "Remember that I like jazz",
    "Remember that I like tea",
)
KEPT = ["Name is Anna", "Likes jazz", "Likes tea"]


def _response(status: int) -> httpx.Response:
    return httpx.Response(status, request=httpx.Request("POST", "http://127.0.0.1/v1"))


PROVIDER_ERRORS: dict[str, Callable[[], Exception]] = {
    "rotated key (401)": lambda: provider.AuthenticationError("bad key", "scripted", "memory"),
    "forbidden (403)": lambda: provider.PermissionDeniedError(
        "no access", "scripted", "memory", response=_response(403)
    ),
    "unknown model (404)": lambda: provider.NotFoundError("no such model", "scripted", "memory"),
    "a 400 every request gets": lambda: provider.BadRequestError(
        "unsupported parameter", "memory", "scripted"
    ),
    "outage (503)": lambda: provider.ServiceUnavailableError("down", "scripted", "memory"),
    "unreachable": lambda: provider.APIConnectionError("refused", "scripted", "memory"),
}


class Failing:
    """A memory model that raises ``error`` while ``failing``, then answers like a Keeper."""

    def __init__(self, error: Callable[[], Exception]) -> None:
        self.error = error
        self.failing = True
        self.keeper = Keeper()

    def __call__(self, messages: list[dict[str, Any]]) -> Any:
        if self.failing:
            return self.error()
        return self.keeper(messages)


def owed_with_remembers(account) -> Memory:
    for text in REMEMBERS:
        conversation_with(account, text, "Noted.")
    return memory_with(account)


def run_task(memory: Memory, attempt: int = 0) -> None:
    """The pass task as the broker delivers it (``attempt``: the retries its message counts)."""
    run_memory_pass.apply(args=(memory.pk,), retries=attempt)
    memory.refresh_from_db()


def unread_or_read() -> set[int]:
    return set(Message.objects.values_list("memory_state", flat=True))


@pytest.mark.parametrize("error", PROVIDER_ERRORS.values(), ids=PROVIDER_ERRORS.keys())
def test_a_failing_memory_model_gives_up_no_remember_however_long_it_fails(
    account, memory_model, error, caplog
):
    memory = owed_with_remembers(account)
    model = Failing(error)
    memory_model.answer(*[model] * 500)

    with caplog.at_level(logging.INFO, logger="memory"):
        for attempt in range(10):  # a day and more: every try fails, each after its backoff
            run_task(memory, attempt)
            assert memory.pass_requested  # still owed
            assert unread_or_read() == {Message.MemoryState.UNREAD}  # nothing given up
            later(memory, seconds=3 * 3600)
            assert memory.pk in passes_to_resend(timezone.now())  # the sweeper re-drives it
        health = Client().get("/healthz").json()
        assert health["memory_model"] == "failing"

        model.failing = False  # the key is back, the outage is over
        run_task(memory)

    assert memory.lines == KEPT
    assert not memory.pass_requested
    assert unread_or_read() == {Message.MemoryState.READ}
    assert not MemoryEvent.objects.filter(outcome__in=["skipped", "dropped"]).exists()
    assert Client().get("/healthz").json()["memory_model"] == "ok"
    events = [r.getMessage().split()[0] for r in caplog.records if r.name.startswith("memory")]
    # The operator is told once when it starts failing and once when it is back.
    assert events.count("memory.model_failing") == 1
    assert events.count("memory.model_recovered") == 1


def test_healthz_names_the_kind_of_failure_and_stays_up_for_the_load_balancer(
    account, memory_model
):
    memory = owed_with_remembers(account)
    memory_model.answer(*[Failing(PROVIDER_ERRORS["rotated key (401)"])] * 20)
    run_task(memory)

    health = Client().get("/healthz").json()
    assert health["memory_model"] == "failing"
    assert health["memory_model_error"] == "auth"
    assert "memory_model_failing_since" in health
    # The chat is not down because memory is late: the status the load balancer reads is
    # decided by the database, the broker and the worker alone.
    assert health["status"] in ("ok", "degraded")
    assert set(health) >= {"database", "broker", "worker"}


def test_the_wait_doubles_with_each_failure_up_to_its_cap(account, memory_model, settings):
    memory = owed_with_remembers(account)
    memory_model.answer(*[Failing(PROVIDER_ERRORS["outage (503)"])] * 50)
    waits = []
    for _ in range(6):
        before = timezone.now()
        run_task(memory)
        waits.append(int((memory.pass_not_before - before).total_seconds()) // 10 * 10)
        assert memory.pass_resend_at == memory.pass_not_before  # the sweeper sends it then
        later(memory, seconds=settings.MEMORY_PASS_BACKOFF_MAX_SECONDS)
    assert waits == [30, 60, 120, 240, 300, 300]


POISON = "poison"

CONTENT_ERRORS: dict[str, Callable[[], Exception]] = {
    "content policy": lambda: provider.ContentPolicyViolationError("flagged", "memory", "scripted"),
    "context window": lambda: provider.ContextWindowExceededError("too long", "memory", "scripted"),
    "a 400 about this content": lambda: provider.BadRequestError("bad input", "memory", "scripted"),
}


@pytest.mark.parametrize("error", CONTENT_ERRORS.values(), ids=CONTENT_ERRORS.keys())
def test_a_content_error_on_one_turn_gives_up_only_that_turn(account, memory_model, error):
    conversation_with(
        account,
        "My name is Anna, remember that",
        "Hello Anna",
        f"Here is the {POISON} text",
        "I can't help with that",
        "Remember that I like jazz",
        "Noted",
    )
    memory = memory_with(account)
    keeper = Keeper()

    def model(messages: list[dict[str, Any]]) -> Any:
        if any(POISON in turn["content"] for turn in payload(messages)["transcript"]):
            return error()
        return keeper(messages)

    memory_model.answer(*[model] * 100)
    run_task(memory)

    assert memory.lines == ["Name is Anna", "Likes jazz"]
    states = dict(Message.objects.values_list("content", "memory_state"))
    assert states.pop(f"Here is the {POISON} text") == Message.MemoryState.SKIPPED
    assert set(states.values()) == {Message.MemoryState.READ}
    assert not memory.pass_requested
