"""``Idempotency-Key`` on the API's POSTs that create something (issue 27, point 2).

A retry with the same key and body gets the first answer's status, drawn again from what the
first request made; the same key with another body is 409 ``idempotency_key_reused``; a retry
while the first is still running is 409 ``request_in_progress``. Keys are per person and kept
24 hours.

Only ids are kept, in Redis: the key's hash, the request's keyed hash, the status and what was
made (``ref``). Never a body: a replay shows what is there now, so nothing the person deleted
since comes back through it. Redis failing costs the protection, never the request (logged).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import re
from collections.abc import Callable
from typing import Any, Final, NamedTuple

import redis
from django.conf import settings
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.request import Request

from core.errors import Conflict, Invalid

log = logging.getLogger(__name__)

HEADER: Final = "Idempotency-Key"
KEPT_FOR: Final = 24 * 60 * 60


def _running_for() -> int:
    """How long a claim holds its key while the request runs: past the longest a request can
    take (a whole model answer), so a process killed mid-request frees the key soon."""
    return int(max(120, 3 * settings.CHAT_MODEL_TIMEOUT))


_KEY_RE = re.compile(r"\A[\x21-\x7e]{1,255}\Z")  # visible ASCII, as Stripe's and the IETF draft's


class Replay(NamedTuple):
    """What the first request answered: its status and what it made."""

    status: int
    ref: Any


class Claim(NamedTuple):
    """A request that holds its key while it runs."""

    key: str
    fingerprint: str


class KeyReused(Conflict):
    code = "idempotency_key_reused"
    detail = _("This Idempotency-Key was used with another request. Use a new key.")


class InProgress(Conflict):
    code = "request_in_progress"
    detail = _("The first request with this Idempotency-Key is still running. Try again shortly.")


@functools.cache
def _client() -> redis.Redis | None:
    if not settings.REDIS_URL:
        return None
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, ensure_ascii=False, default=str)
    seen = f"{request.method} {request.path}\n{body}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), seen, hashlib.sha256).hexdigest()


def claim(request: Request) -> Claim | Replay | None:
    """None without a key (or without Redis); a Replay for a retry of a finished request."""
    header = request.headers.get(HEADER)
    if header is None:
        return None
    if not _KEY_RE.match(header):
        raise Invalid(
            "invalid_idempotency_key",
            _("An Idempotency-Key is 1 to 255 visible ASCII characters."),
        )
    client = _client()
    if client is None:
        return None
    mine = Claim(_key(request, header), _fingerprint(request))
    key = mine.key
    try:
        if client.set(key, json.dumps({"fp": mine.fingerprint}), nx=True, ex=_running_for()):
            return mine
        found = client.get(key)
    except (redis.RedisError, OSError):
        log.warning("api.idempotency_unavailable")
        return None
    if found is None:  # expired between the two calls: take it as new
        return claim(request)
    record = json.loads(found)
    if not hmac.compare_digest(record["fp"], mine.fingerprint):
        raise KeyReused
    if "status" not in record:
        raise InProgress(headers={"Retry-After": "1"})
    return Replay(record["status"], record.get("ref"))


def _key(request: Request, header: str) -> str:
    return f"whizi:idempotency:{request.user.pk}:{hashlib.sha256(header.encode()).hexdigest()}"


def answered_before(request: Request) -> bool:
    """Whether this request is a retry of one that finished: its answer is drawn again, so
    it counts against no rate limit. Never raises (a bad key is the view's 400)."""
    header = request.headers.get(HEADER)
    client = _client()
    if header is None or client is None or not _KEY_RE.match(header):
        return False
    try:
        found = client.get(_key(request, header))
        record = json.loads(found) if found is not None else {}
        return "status" in record and hmac.compare_digest(record["fp"], _fingerprint(request))
    except (redis.RedisError, OSError, ValueError, ParseError):
        return False


def finish(made: Claim, status: int, ref: Any) -> None:
    """Keep a success for retries; forget anything else, so a retry runs again."""
    client = _client()
    if client is None:
        return
    try:
        if status < 400:
            record = {"fp": made.fingerprint, "status": status, "ref": ref}
            client.set(made.key, json.dumps(record), ex=KEPT_FOR)
        else:
            client.delete(made.key)
    except (redis.RedisError, OSError):
        log.warning("api.idempotency_unavailable")


Handler = Callable[..., HttpResponseBase]


def idempotent(
    *,
    ref: Callable[[HttpResponseBase], Any],
    replay: Callable[..., HttpResponseBase],
) -> Callable[[Handler], Handler]:
    """For a view's ``post``: ``ref`` says what a response made (an id, or None), and
    ``replay(view, request, Replay, *args, **kwargs)`` answers a retry from it."""

    def decorate(post: Handler) -> Handler:
        @functools.wraps(post)
        def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
            got = claim(request)
            if isinstance(got, Replay):
                response = replay(view, request, got, *args, **kwargs)
                response["Idempotent-Replayed"] = "true"
                return response
            try:
                response = post(view, request, *args, **kwargs)
            except BaseException:
                if got is not None:
                    finish(got, 500, None)  # failed: the key is free for a retry
                raise
            if got is not None:
                status = response.status_code
                finish(got, status, ref(response) if status < 400 else None)
            return response

        wrapper.idempotent = True  # type: ignore[attr-defined]  # read by core.schema
        return wrapper

    return decorate
