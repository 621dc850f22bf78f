"""People made and noted where views ask for them (``core.people``'s markers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse

from accounts import services
from accounts.models import User
from core import throttling
from core.api import OUTAGE_ERRORS
from core.error_pages import outage_response
from core.people import need_of

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class PersonMiddleware:
    """Before a marked view: note activity, or make a visitor who acts a guest (throttled)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        need = need_of(view)
        if need is None:
            return None
        try:
            return self._person_for(request, need)
        except OUTAGE_ERRORS:
            # The session or person could not be read.
            return outage_response(request)

    def _person_for(self, request: HttpRequest, need: str) -> HttpResponse | None:
        user = request.user
        if isinstance(user, User):
            services.touch(user)
        elif need == "required" and request.method not in SAFE_METHODS:
            refused = throttling.refuse_page(request, throttling.GuestThrottle)
            if refused is not None:
                return refused
            login(request, services.create_guest(), backend=MODEL_BACKEND)
        return None
