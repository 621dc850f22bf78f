"""Real-browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Playwright's sync API runs an asyncio loop in the test thread, which makes Django refuse ORM
calls from that thread as "async-unsafe"; the tests only read and seed rows between browser
steps, so the guard is switched off for this suite.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
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


@pytest.fixture
def page(browser: Browser, live_server: Any) -> Iterator[Page]:
    """A fresh browser (no cookies) on the live server, in English."""
    page = open_page(browser, live_server.url)
    yield page
    page.context.close()


@pytest.fixture
def eager_memory(settings: Any) -> None:
    """Memory passes run inline right after the reply commits, instead of on a worker."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
