"""Passwords in a real browser: a forgotten one reset from the mailed link (which works once),
and a change from Settings that keeps this browser logged in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from tests.conftest import make_account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "another fine passphrase 7"


def log_in(page: Page, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Email").fill("anna@example.com")
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/$"))


def test_a_forgotten_password_is_reset_from_the_mailed_link_once(
    page: Page, live_server: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the mail task runs as the request commits
    make_account()
    page.goto("/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    page.get_by_label("Email").fill("anna@example.com")
    page.get_by_role("button", name="Send the link").click()

    page.wait_for_url(re.compile(r"/login/$"))
    expect(page.get_by_role("status")).to_have_text(
        "If an account has this address, a link to reset its password is on its way."
    )
    [message] = mail.outbox
    [link] = re.findall(r"https?://\S+", message.body)
    link = link.replace(settings.SITE_URL, live_server.url)

    page.goto(link)
    expect(page.get_by_role("heading", name="Set a new password")).to_be_visible()
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()

    page.wait_for_url(re.compile(r"/login/$"))
    expect(page.get_by_role("status")).to_have_text("Your new password is set. Log in with it.")
    log_in(page, NEW_PASSWORD)
    page.goto("/settings/")
    expect(page.get_by_role("link", name="Change password")).to_be_visible()

    page.goto(link)
    expect(page.get_by_role("heading", name="This link doesn't work")).to_be_visible()
    expect(page.get_by_label("New password", exact=True)).to_have_count(0)


def test_a_password_changed_in_settings_keeps_this_browser_logged_in(page: Page) -> None:
    make_account()
    log_in(page, "a-long-passphrase-42")
    page.goto("/settings/")
    page.get_by_role("link", name="Change password").click()
    page.get_by_label("Current password").fill("not it")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("alert")).to_have_text("Your current password is not that one.")

    page.get_by_label("Current password").fill("a-long-passphrase-42")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()

    page.wait_for_url(re.compile(r"/settings/$"))
    expect(page.get_by_role("status")).to_have_text(
        "Password changed. Your other devices are logged out."
    )
    page.reload()
    expect(page.get_by_role("link", name="Change password")).to_be_visible()
