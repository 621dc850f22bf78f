"""/healthz reports the worker by the heartbeat a live worker writes (config/heartbeat.py)."""

from __future__ import annotations

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from config import heartbeat
from config.celery import app

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]


def health() -> dict[str, str]:
    return Client().get("/healthz").json()


def test_without_a_worker_healthz_is_degraded() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "ok",
        "worker": "down",
    }


def test_a_running_worker_makes_healthz_ok_and_a_stopped_one_down() -> None:
    with start_worker(
        app, pool="threads", concurrency=1, queues=["memory"], perform_ping_check=False
    ):
        assert health()["worker"] == "ok"
        assert Client().get("/healthz").status_code == 200
    # Stopped cleanly: down at once, not after the heartbeat expires.
    assert health()["worker"] == "down"


def test_the_heartbeat_expires_after_three_missed_beats() -> None:
    heartbeat.beat("host:1")
    assert heartbeat.worker_alive()
    ttl = redis.Redis.from_url(settings.REDIS_URL).ttl(cache.make_and_validate_key(heartbeat.KEY))
    assert 0 < ttl <= settings.WORKER_HEARTBEAT_SECONDS * 3


def test_a_worker_stopping_leaves_another_ones_heartbeat() -> None:
    heartbeat.beat("host:1")
    heartbeat.beat("host:2")
    heartbeat.stop("host:1")
    assert heartbeat.worker_alive()
    heartbeat.stop("host:2")
    assert not heartbeat.worker_alive()


def test_an_unreachable_cache_reports_the_worker_down(settings) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    heartbeat.beat("host:1")  # logs, never raises
    assert health()["worker"] == "down"


def test_healthz_says_ours_only_to_whoever_sends_the_token_of_make_run(settings) -> None:
    """`make run` gives its server a token and says "ready" only when /healthz answers
    ``Whizi-Run: ours`` to it (config/launcher.py); the token itself is never sent back."""
    settings.RUN_TOKEN = "this-runs-token"
    ours = Client().get("/healthz", HTTP_WHIZI_RUN="this-runs-token")
    assert ours["Whizi-Run"] == "ours"
    assert "this-runs-token" not in str(ours.headers) + ours.content.decode()
    for sent in ("another-runs-token", "", "this-runs-token" * 2):
        assert "Whizi-Run" not in Client().get("/healthz", HTTP_WHIZI_RUN=sent)
    assert "Whizi-Run" not in Client().get("/healthz")


def test_without_a_token_healthz_vouches_for_no_one(settings) -> None:
    assert settings.RUN_TOKEN == ""  # production, tests: only make run sets one
    assert "Whizi-Run" not in Client().get("/healthz", HTTP_WHIZI_RUN="")
