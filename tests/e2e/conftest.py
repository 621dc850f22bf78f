"""Real-browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Playwright's sync API runs an asyncio loop in the test thread, which makes Django refuse ORM
calls from that thread as "async-unsafe"; the tests only read and seed rows between browser
steps, so the guard is switched off for this suite.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, Page, sync_playwright

from accounts import services as accounts_services
from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation

CHROMIUM = "/usr/bin/chromium"
# axe-core from the npm registry (package-lock.json; `make test` installs it).
AXE = Path(django_settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# Per module, not per session: Playwright's loop must be gone before the other suites run, as
# it would make any later asyncio.run() or async_to_sync() in this thread fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed at /usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def open_page(browser: Browser, base_url: str, locale: str = "en-US") -> Page:
    context = browser.new_context(
        base_url=base_url, locale=locale, viewport={"width": 1280, "height": 860}
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def csp_violations(page: Page) -> list[str]:
    """Collects what the browser refuses under the Content-Security-Policy on ``page``."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


@cache
def axe_source() -> str:
    return AXE.read_text()


def audit(page: Page) -> None:
    """Fails on anything axe-core finds on ``page`` as it is now: WCAG 2.2 A and AA, best
    practices, and 2.5.8's 24×24 px targets."""
    assert (failure := audit_failure(page)) is None, failure


def audit_and_close(page: Page) -> None:
    """For a page a test opened itself: audit the state it ends in, then close it."""
    try:
        audit(page)
    finally:
        page.context.close()


def audit_failure(page: Page) -> str | None:
    """What axe-core finds on ``page`` now, said, or None."""
    if page.url == "about:blank":
        return None
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_source())  # by the debugger protocol: the page's CSP stays as it is
    found = page.evaluate(
        """async () => {
          const { violations } = await axe.run(document, {
            rules: { "target-size": { enabled: true } },
            resultTypes: ["violations"],
          });
          return violations.map((v) => ({
            rule: v.id,
            impact: v.impact,
            where: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary),
          }));
        }"""
    )
    return f"{page.url}: {found}" if found else None


def guest_session(page: Page, base_url: str) -> User:
    """A guest whose session ``page``'s browser holds, as after a visitor's first action (a
    page view alone creates no guest)."""
    guest = accounts_services.create_guest()
    client = Client()
    client.force_login(guest)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])
    return guest


@pytest.fixture
def page(browser: Browser, live_server: Any) -> Iterator[Page]:
    """A fresh browser (no cookies) on the live server, in English; the test fails if the
    browser refused anything under the Content-Security-Policy, or if axe-core finds anything
    on the page the test leaves."""
    page = open_page(browser, live_server.url)
    refused = csp_violations(page)
    yield page
    try:
        found = audit_failure(page)  # the state each test leaves the page in
    finally:
        page.context.close()
    assert (refused, found) == ([], None)


@pytest.fixture
def chat(page: Page, live_server: Any) -> Conversation:
    """A guest's chat on a scripted model, open in ``page``."""
    guest = guest_session(page, live_server.url)
    conversation = chat_services.create_conversation(owner_id=guest.pk, model="scripted/chat-a")
    page.goto(f"/c/{conversation.pk}/")
    return conversation


@pytest.fixture
def eager_memory(settings: Any) -> None:
    """Memory passes run inline right after the reply commits, instead of on a worker."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
