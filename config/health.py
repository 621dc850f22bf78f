"""``GET /healthz``: is the database answering, can the broker be reached, and is a worker
consuming (its heartbeat, ``config/heartbeat.py``)? These three decide the status (200 or
503) a load balancer acts on. It also says whether the memory model answers
(``memory.engine.model_health``), without changing the status: a failing memory model makes memory
late, never the chat unavailable, so no web server is taken out of service for it. And, to
``make run`` alone, is this the server it started?"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from config import heartbeat
from config.celery import app
from config.database import session_options
from config.launcher import RUN_HEADER
from memory import facade


def _database_ok() -> bool:
    """A connection of its own, opened and answering within ``HEALTHZ_DATABASE_TIMEOUT``: the
    truth about the database now, and a bounded wait even when the server stalls (a stalled
    server never answers a query on a connection already open, whatever its bounds)."""
    probe = connections.create_connection(DEFAULT_DB_ALIAS)
    if probe.vendor == "postgresql":
        timeout = settings.HEALTHZ_DATABASE_TIMEOUT
        options = {
            **probe.settings_dict.get("OPTIONS", {}),
            "connect_timeout": timeout,
            "options": session_options(statement_ms=1000, lock_ms=1000),
        }
        probe.settings_dict = {**probe.settings_dict, "OPTIONS": options}
    try:
        with probe.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return False
    finally:
        probe.close()
    return True


def _broker_ok() -> bool:
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=0, timeout=1)
    except Exception:  # noqa: BLE001 - any failure to connect means "down"
        return False
    return True


def _asked_by_our_launcher(request: HttpRequest) -> bool:
    """The request carries the token ``make run`` gave this server (config/launcher.py). The
    answer is a yes and nothing else: the token is never echoed, so no one learns it here."""
    token = settings.RUN_TOKEN
    sent = request.headers.get(RUN_HEADER, "")
    return bool(token) and hmac.compare_digest(sent.encode(), token.encode())


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _database_ok(),
        "broker": _broker_ok(),
        "worker": heartbeat.worker_alive(),
    }
    healthy = all(checks.values())
    response = JsonResponse(
        {
            "status": "ok" if healthy else "degraded",
            **{k: "ok" if v else "down" for k, v in checks.items()},
            **facade.model_health_report(),
        },
        status=200 if healthy else 503,
    )
    if _asked_by_our_launcher(request):
        response[RUN_HEADER] = "ours"
    return response
