"""``GET /healthz``: database, broker and worker heartbeat decide the status (200 or 503).

The memory model's health is reported but never changes the status: a failing memory model
makes memory late, not the chat unavailable. ``make run`` also learns whether this server is
the one it started.
"""

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
    """A fresh connection answering within ``HEALTHZ_DATABASE_TIMEOUT``, bounded even when the
    server stalls (an open connection would wait forever)."""
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
    """The request carries ``make run``'s token for this server; the token is never echoed."""
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
