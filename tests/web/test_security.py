"""The security headers on every response, and pages a strict Content-Security-Policy allows: no
inline script, style attribute or event handler anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from tests.web.conftest import guest_browser, remember

pytestmark = pytest.mark.django_db

CSP = {
    directive.split(" ", 1)[0]: directive.split(" ", 1)[1]
    for directive in settings.CONTENT_SECURITY_POLICY.split("; ")
}

INLINE = [
    re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),  # a script without src
    re.compile(r"\sstyle\s*=", re.I),
    re.compile(r"<style\b", re.I),
    re.compile(r"\son[a-z]+\s*=", re.I),  # onclick=, onload=, …
    re.compile(r"javascript:", re.I),
]


def pages_of(client: Client, person: User) -> list[str]:
    conversation = chat_services.create_conversation(owner_id=person.pk, model="scripted/chat-a")
    return [
        reverse("chat:home"),
        reverse("chat:new"),
        reverse("chat:conversation", args=[conversation.pk]),
        reverse("chat:projects"),
        reverse("accounts:settings") + "?memory=open",
        reverse("memory:section") + "?memory=open",
        reverse("memory:clear"),
        reverse("accounts:delete"),
        reverse("accounts:login"),
        reverse("accounts:signup"),
        "/no-such-page/",
    ]


def test_the_policy_allows_only_our_own_files() -> None:
    assert CSP["default-src"] == "'self'"
    assert CSP["script-src"] == "'self'"
    assert CSP["style-src"] == "'self'"
    assert CSP["frame-ancestors"] == "'none'"
    assert CSP["object-src"] == "'none'"
    assert CSP["base-uri"] == "'none'"
    assert "unsafe-inline" not in settings.CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in settings.CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("who", ["visitor", "guest", "account"])
def test_every_page_carries_the_headers_and_no_inline_code(who: str, account: User) -> None:
    if who == "visitor":
        client, person = Client(), account
    elif who == "guest":
        client = guest_browser()
        person = User.objects.get(pk=client.session["_auth_user_id"])
    else:
        client = Client()
        client.force_login(account)
        person = account
    remember(person, "Name is Anna")
    for url in pages_of(client, person):
        response = client.get(url)
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY, url
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert "microphone=()" in response["Permissions-Policy"]
        html = response.content.decode()
        for pattern in INLINE:
            assert not pattern.search(html), (url, pattern.pattern)


def test_api_and_error_answers_carry_the_policy_too(api) -> None:
    for response in (
        api.get("/api/v1/memory"),
        api.get("/api/v1/nothing-here"),
        Client().get("/healthz"),
        Client().post(reverse("accounts:login"), {}),
    ):
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY


def test_no_template_holds_inline_code() -> None:
    for template in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = template.read_text()
        for pattern in INLINE:
            assert not pattern.search(text), (template.name, pattern.pattern)


def test_the_script_adds_no_inline_code_either() -> None:
    script = Path(settings.BASE_DIR, "static", "js", "whizi.js").read_text()
    assert 'setAttribute("style"' not in script and "setAttribute('style'" not in script
    assert "eval(" not in script and "new Function" not in script
    for pattern in INLINE[1:4]:
        # HTML the script builds must obey the policy like the templates do.
        assert not re.search(r"innerHTML\s*=\s*[`'\"][^`'\"]*" + pattern.pattern, script)


def test_a_refused_csrf_token_gets_a_plain_page_the_policy_allows() -> None:
    client = guest_browser(enforce_csrf_checks=True)
    response = client.post(reverse("chat:projects"), {"name": "Thesis"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This form has expired" in html
    for pattern in INLINE:
        assert not pattern.search(html), pattern.pattern


LANGUAGE_COOKIE_PROBE = """
import json
from django.test import RequestFactory
from django.views.i18n import set_language
request = RequestFactory().post(
    "/accounts/i18n/setlang/", {"language": "fr"}, secure=True, headers={"host": "whizi.example"}
)
cookie = set_language(request).cookies[settings.LANGUAGE_COOKIE_NAME]
print(json.dumps({
    "language": [bool(cookie["secure"]), bool(cookie["httponly"]), cookie["samesite"]],
    "session": [
        settings.SESSION_COOKIE_SECURE,
        settings.SESSION_COOKIE_HTTPONLY,
        settings.SESSION_COOKIE_SAMESITE,
    ],
}))
"""


def test_in_production_the_language_cookie_is_as_guarded_as_the_session_cookie(tmp_path) -> None:
    """Set by the Preferences language form (Django's set_language), on the production settings
    path: Secure (never sent over plain HTTP), HttpOnly and SameSite like the session's."""
    import json

    from tests.test_startup import in_production

    cookies = json.loads(in_production(LANGUAGE_COOKIE_PROBE, tmp_path))
    assert cookies["session"] == [True, True, "Lax"]
    assert cookies["language"] == cookies["session"]
