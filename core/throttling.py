"""Rate limits (SPEC §10): DRF's throttle classes, on the API and on the web pages alike.

One rate logic for both surfaces: the API views list these classes in ``throttle_classes`` (DRF
answers 429 through ``core.api``), and the web views ask ``refuse_page`` (a friendly 429 page,
or the same JSON for the page's script). The counts live in Django's default cache — Redis in
production, a file cache under ``DATA_DIR`` embedded — so every web process sees the same counts.

Each scope has its rate in ``settings.THROTTLE_RATES`` (``THROTTLE_LOGIN=10/min`` …), read per
request so tests can change them; ``THROTTLE_ENABLED=false`` turns every limit off.
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
from core.rates import parse_rate

log = logging.getLogger(__name__)


# Set on a request a throttle refused, so the throttles after it in the view's list skip.
_REFUSED = "_whizi_throttled"


class ScopedThrottle(SimpleRateThrottle):
    """A DRF throttle whose rate comes from ``settings.THROTTLE_RATES[scope]``.

    A cache that cannot be reached lets the request through (logged): an outage of the cache
    must not lock everybody out of logging in.
    """

    scope = ""

    def __init__(self) -> None:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    # DRF declares ``cache`` a class attribute, bound at import; here it is looked up when used.
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
        """DRF's sliding window, with the cache's failures let through. The key is computed
        first and outside that: a body that does not parse is the view's 400 to answer."""
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
                # Later throttles of the view need not read the body: the answer is a 429.
                setattr(request, _REFUSED, True)
                return self.throttle_failure()
            return self.throttle_success()
        except (OSError, redis.RedisError):
            log.warning("throttle.cache_unavailable scope=%s", self.scope)
            return True


class PerAddress(ScopedThrottle):
    """Counted per client address (``NUM_PROXIES`` says which X-Forwarded-For hop to trust)."""

    def ident_of(self, request: Any) -> str | None:
        return self.get_ident(request)


class PerEmail(ScopedThrottle):
    """Counted per e-mail address tried (hashed: the cache holds no address)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        # Over an earlier (per-address) limit already: refused with 429 before the body is read,
        # so a body that does not parse, or costs time to, is never looked at.
        if getattr(request, _REFUSED, False):
            return True
        return super().allow_request(request, view)

    def ident_of(self, request: Any) -> str | None:
        data = request.data if hasattr(request, "data") else request.POST
        email = data.get("email") if hasattr(data, "get") else None
        if not isinstance(email, str) or not email.strip():
            return None
        # "surrogatepass": JSON may carry a lone surrogate ("\ud800"), which plain UTF-8 cannot
        # encode; the key only has to be stable, and the field is refused as invalid later.
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


class PasswordCheckThrottle(PerPerson):
    scope = "password_check"


class PasswordResetThrottle(PerAddress):
    scope = "password_reset"


class PasswordResetEmailThrottle(PerEmail):
    scope = "password_reset_email"


LOGIN = (LoginThrottle, LoginEmailThrottle)
SIGNUP = (SignupThrottle, SignupEmailThrottle)
# A person's own password, checked before a change or a deletion: per address like a login, and
# per person, so a stolen token cannot guess it from many addresses.
PASSWORD_CHECK = (LoginThrottle, PasswordCheckThrottle)
# Counted alike whether an account has the address or not: a 429 tells nobody who has one.
PASSWORD_RESET = (PasswordResetThrottle, PasswordResetEmailThrottle)


def wait_of(request: HttpRequest, *throttles: type[ScopedThrottle]) -> int | None:
    """Seconds to wait when one of ``throttles`` refuses ``request``, else None (and the
    request is counted). Every throttle counts the request, as DRF's ``check_throttles`` does."""
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
    """A 429 for a web request one of ``throttles`` refuses (JSON when the page's script asked,
    a page otherwise), or None to go on."""
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
