"""Rate limits (SPEC §10): DRF's throttle classes, for the API and the web pages alike.

API views list them in ``throttle_classes``; web views call ``refuse_page``. Counts live in the
shared cache; rates come from ``settings.THROTTLE_RATES``.
"""

from __future__ import annotations

import hashlib
import logging
import math
from typing import Any

import redis
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext
from rest_framework.throttling import SimpleRateThrottle

from core.errors import ServiceError
from core.middleware import RATE_NOTE
from core.rates import parse_rate

log = logging.getLogger(__name__)


# Set when a throttle refused the request, so later throttles skip.
_REFUSED = "_whizi_throttled"


class ScopedThrottle(SimpleRateThrottle):
    """Rated by ``THROTTLE_RATES[scope]``; a cache outage lets requests through (logged)."""

    scope = ""

    def __init__(self) -> None:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    # DRF binds ``cache`` at import; here it is looked up on use.
    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return caches["default"]

    def get_rate(self) -> str | None:
        return settings.THROTTLE_RATES.get(self.scope) or None

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return parse_rate(rate) if rate else (None, None)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        ident = self.ident_of(request)
        if ident is None:
            return None
        if len(ident) > 64:  # a forwarded-for value is whatever the proxy passed on
            ident = hashlib.sha256(ident.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def ident_of(self, request: Any) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        """DRF's sliding window; the key first, outside the try: a bad body is the view's 400."""
        if not settings.THROTTLE_ENABLED or self.num_requests is None or self.duration is None:
            return True  # no rate (parse_rate gives neither): no limit
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        try:
            self.history = self.cache.get(self.key, [])
            self.now = self.timer()
            while self.history and self.history[-1] <= self.now - self.duration:
                self.history.pop()
            if len(self.history) >= self.num_requests:
                # Later throttles need not read the body: the answer is a 429.
                setattr(request, _REFUSED, True)
                self._note(request)
                return self.throttle_failure()
            allowed = self.throttle_success()
            self._note(request)
            return allowed
        except (OSError, redis.RedisError):
            log.warning("throttle.cache_unavailable scope=%s", self.scope)
            return True

    def _note(self, request: Any) -> None:
        """The RateLimit-* headers' values (core.middleware): of all the limits that apply,
        the one with the fewest requests left."""
        assert self.num_requests is not None and self.duration is not None
        remaining = max(0, self.num_requests - len(self.history))
        oldest = self.history[-1] if self.history else self.now
        reset = max(1, math.ceil(self.duration - (self.now - oldest)))
        target = getattr(request, "_request", request)  # DRF's Request wraps Django's
        noted = getattr(target, RATE_NOTE, None)
        if noted is None or remaining < noted[1]:
            setattr(target, RATE_NOTE, (self.num_requests, remaining, reset))


class PerAddress(ScopedThrottle):
    """Per client address (``NUM_PROXIES`` says which X-Forwarded-For hop to trust)."""

    def ident_of(self, request: Any) -> str | None:
        return self.get_ident(request)


class PerEmail(ScopedThrottle):
    """Per e-mail tried, hashed: the cache holds no address."""

    def allow_request(self, request: Any, view: Any) -> bool:
        # Already over a per-address limit: 429 before the body is read or parsed.
        if getattr(request, _REFUSED, False):
            return True
        return super().allow_request(request, view)

    def ident_of(self, request: Any) -> str | None:
        data = request.data if hasattr(request, "data") else request.POST
        email = data.get("email") if hasattr(data, "get") else None
        if not isinstance(email, str) or not email.strip():
            return None
        # "surrogatepass": JSON may carry a lone surrogate; the key need only be stable.
        folded = email.strip().casefold().encode("utf-8", "surrogatepass")
        return hashlib.sha256(folded).hexdigest()[:32]


class PerPerson(ScopedThrottle):
    """Counted per person (account or guest); per address for anyone else."""

    def ident_of(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"person-{user.pk}"
        return self.get_ident(request)


class LoginThrottle(PerAddress):
    scope = "login"


class LoginEmailThrottle(PerEmail):
    scope = "login_email"


class SignupThrottle(PerAddress):
    scope = "signup"


class SignupEmailThrottle(PerEmail):
    scope = "signup_email"


class GuestThrottle(PerAddress):
    scope = "guest"


class MessageThrottle(PerPerson):
    scope = "message"


class VoiceThrottle(PerPerson):
    scope = "voice"


class ResumeThrottle(PerPerson):
    """Reading a reply again (a resume, a retry drawn from its Idempotency-Key): free of the
    message limit, since nothing is made, but each may hold a connection while a reply is
    written, so they have a limit of their own."""

    scope = "resume"


class MemoryImportThrottle(PerPerson):
    """Pastes read, previews included: each may hold 50,000 characters."""

    scope = "memory_import"


class PasswordCheckThrottle(PerPerson):
    scope = "password_check"


class PasswordResetThrottle(PerAddress):
    scope = "password_reset"


class PasswordResetEmailThrottle(PerEmail):
    scope = "password_reset_email"


LOGIN = (LoginThrottle, LoginEmailThrottle)
SIGNUP = (SignupThrottle, SignupEmailThrottle)
# Per person too, so a stolen token cannot guess the password from many addresses.
PASSWORD_CHECK = (LoginThrottle, PasswordCheckThrottle)
# Counted whether or not an account has the address: a 429 reveals nobody.
PASSWORD_RESET = (PasswordResetThrottle, PasswordResetEmailThrottle)


def wait_of(request: HttpRequest, *throttles: type[ScopedThrottle]) -> int | None:
    """Seconds to wait if a throttle refuses ``request``, else None. Every throttle counts it."""
    waits = []
    for throttle_class in throttles:
        throttle = throttle_class()
        if not throttle.allow_request(request, None):
            waits.append(throttle.wait() or 1)
    return math.ceil(max(waits)) if waits else None


def rate_limited_text(wait: int) -> str:
    """What a person is told, in the request's language."""
    if wait >= 60:
        minutes = math.ceil(wait / 60)
        return ngettext(
            "Too many attempts. Try again in %(count)d minute.",
            "Too many attempts. Try again in %(count)d minutes.",
            minutes,
        ) % {"count": minutes}
    return ngettext(
        "Too many attempts. Try again in %(count)d second.",
        "Too many attempts. Try again in %(count)d seconds.",
        wait,
    ) % {"count": wait}


def rate_limited_body(wait: int) -> dict[str, Any]:
    """The JSON of a 429 (SPEC §10), the same on the API and for the pages' script."""
    return RateLimited(wait).body()


class RateLimited(ServiceError):
    """Over a rate limit (HTTP 429): the body says how long to wait, and so does ``Retry-After``."""

    code = "rate_limited"
    status = 429

    def __init__(self, wait: int) -> None:
        super().__init__(
            detail=rate_limited_text(wait), headers={"Retry-After": str(wait)}, retry_after=wait
        )


def refuse_page(request: HttpRequest, *throttles: type[ScopedThrottle]) -> HttpResponse | None:
    """A 429 (JSON for the script, else a page) if a throttle refuses, or None to go on."""
    wait = wait_of(request, *throttles)
    if wait is None:
        return None
    accept = request.headers.get("Accept", "")
    if "text/event-stream" in accept or "application/json" in accept:
        response: HttpResponse = JsonResponse(rate_limited_body(wait), status=429)
    else:
        context = {"detail": rate_limited_text(wait), "title": gettext("Slow down a little")}
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response
