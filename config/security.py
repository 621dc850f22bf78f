"""Response headers Django does not set itself: a Content-Security-Policy and a
Permissions-Policy on every response.

Django 5.2 has no CSP support of its own (6.0 adds it). The pages need no nonces: they load one
script and one stylesheet from ``/static/`` and carry no inline script, style attribute or event
handler (``tests/web/test_security.py`` keeps it so), so a fixed header is all it takes, and a
dozen lines beat a dependency.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
