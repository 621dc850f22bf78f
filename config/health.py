"""``GET /healthz``: is the database answering, can the broker be reached, and is a worker
consuming (its heartbeat, ``config/heartbeat.py``)? And, to ``make run`` alone, is this the
server it started?"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from config import heartbeat
from config.celery import app
from config.launcher import RUN_HEADER


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return False
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
        },
        status=200 if healthy else 503,
    )
    if _asked_by_our_launcher(request):
        response[RUN_HEADER] = "ours"
    return response
