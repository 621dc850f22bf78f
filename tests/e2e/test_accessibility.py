"""Keyboard, screen reader and eyesight (issue 28, in part): a finished reply is said once
through a live region and the tab follows the chat; focus is visible at 3:1 and not clipped;
the receipt's targets are 24×24 px; dialog openers answer Space like buttons; the composer has
focus on a new chat; the message list takes focus and nothing scrolls sideways."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from chat.models import Conversation
from tests.conftest import Streamed
from tests.e2e.conftest import guest_session
from tests.e2e.test_browser import REMEMBER_ANNA, send, wait_for_reply
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def contrast(page: Page, selector: str, prop: str) -> float:
    """WCAG contrast of an element's computed ``prop`` colour against white."""
    return page.evaluate(
        """([selector, prop]) => {
          const value = getComputedStyle(document.querySelector(selector))[prop];
          const [r, g, b] = value.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
          const lin = (c) =>
            (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
          return 1.05 / (L + 0.05);
        }""",
        [selector, prop],
    )


def test_a_finished_reply_is_said_once_and_the_tab_follows_the_chat(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    held = threading.Event()
    scripted.answer(Streamed("Try the ", held, "harbour walk."))
    status = page.locator("[data-reply-status]")
    send(page, "Ideas for a walk in Genoa?")
    expect(page.locator(".message.assistant .bubble")).to_contain_text("Try the")
    expect(status).to_have_text("")  # a piece is never said on its own
    held.set()
    wait_for_reply(page, 1)
    expect(status).to_have_text("Try the harbour walk.")
    expect(page).to_have_title(re.compile(r"^Ideas for a walk in Genoa · "))


def test_a_stopped_reply_is_said_with_stopped(
    page: Page, chat: Conversation, scripted: Any, settings
):
    settings.CHAT_MODEL_TIMEOUT = 30
    settings.CHAT_STOP_CHECK_SECONDS = 0
    held = threading.Event()
    scripted.answer(Streamed(held, "Never seen."))
    send(page, "Tell me a story")
    # The stream has started (a stop sent before that stops nothing, by design).
    expect(page.locator(".message.user[data-message-id]")).to_have_count(1)
    with page.expect_response("**/stop"):
        page.get_by_role("button", name="Stop").click()
    held.set()  # the first word comes, and with it the stop
    expect(page.locator("[data-reply-status]")).to_have_text("Never seen. Stopped")


def test_focus_is_a_solid_ring_of_3_to_1_that_no_scroller_clips(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    send(page, "Hello")  # a chat is listed once something was said in it
    wait_for_reply(page, 1)
    page.reload()
    page.keyboard.press("Tab")
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"
    assert contrast(page, ":focus-visible", "outlineColor") >= 3
    listed = page.locator(".conversation-list a").first
    listed.focus()
    offset = listed.evaluate("el => parseFloat(getComputedStyle(el).outlineOffset)")
    assert offset < 0  # drawn inside: the list's overflow cannot cut it off


def test_the_message_list_takes_focus_and_nothing_scrolls_sideways_while_editing(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    scripted.answer("A long answer " * 40)
    send(page, "Tell me something long " * 10)
    wait_for_reply(page, 1)
    messages = page.locator("[data-messages]")
    messages.focus()
    expect(messages).to_be_focused()
    page.locator(".message.user").get_by_role("link", name="Edit").click()
    page.keyboard.press("Escape")
    sideways = messages.evaluate("el => [el.scrollLeft, el.scrollWidth - el.clientWidth]")
    assert sideways[0] == 0
    assert messages.evaluate("el => getComputedStyle(el).overflowX") == "hidden"


def test_the_composer_has_focus_on_a_new_chat(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_label("Message")).to_be_focused()


def open_memory(page: Page, live_server: Any) -> None:
    """A guest who remembers one fact, on Settings with the Memory section open."""
    remember(guest_session(page, live_server.url), "Name is Anna")
    page.goto("/settings/")
    page.locator("#memory .memory-row > summary").click()


def test_space_on_a_dialog_opener_opens_the_dialog(page: Page, live_server: Any) -> None:
    open_memory(page, live_server)
    opener = page.locator("#memory").get_by_role("button", name="Clear memory")
    opener.focus()
    page.keyboard.press(" ")
    expect(page.locator("#clear-memory-dialog")).to_be_visible()


def test_the_receipts_targets_are_24_px_at_least(page: Page, eager_memory: None) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    expect(receipt).to_contain_text("Memory updated", timeout=15_000)
    for target in (
        receipt.get_by_role("button", name="Undo", exact=True),
        receipt.get_by_role("link", name="Memory settings"),
        receipt.get_by_role("button", name="Undo adding “Name is Anna”"),
    ):
        box = target.bounding_box()
        assert box is not None and box["width"] >= 24 and box["height"] >= 24


def test_the_memory_switch_keeps_focus_and_its_new_state_is_said(
    page: Page, live_server: Any
) -> None:
    open_memory(page, live_server)
    switch = page.locator("#memory").get_by_role("switch", name="Use memory")
    switch.focus()
    announcer = page.locator("[data-memory-announcer]")

    page.keyboard.press(" ")
    switch = page.locator("#memory").get_by_role("switch", name="Use memory")
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(switch).to_be_focused()
    expect(announcer).to_contain_text("Off: nothing is read or saved.")

    page.keyboard.press("Enter")
    switch = page.locator("#memory").get_by_role("switch", name="Use memory")
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(switch).to_be_focused()
    expect(announcer).to_contain_text("uses and updates memory")


def test_after_adding_a_fact_the_outcome_is_said_once_by_the_page(
    page: Page, live_server: Any
) -> None:
    open_memory(page, live_server)
    box = page.locator("#memory .add-line input[name=text]")
    box.fill("Plays the cello")
    box.press("Enter")
    expect(page.locator("#memory .memory-line")).to_have_text(["Name is Anna", "Plays the cello"])
    announcer = page.locator("[data-memory-announcer]")
    notice = page.locator("#memory .notice").first
    expect(announcer).to_have_text(notice.inner_text().strip())
    assert notice.get_attribute("role") is None  # said by the page's region, not twice


def test_control_edges_and_the_switchs_track_meet_3_to_1(page: Page, live_server: Any) -> None:
    open_memory(page, live_server)
    page.locator("#memory").get_by_role("switch", name="Use memory").click()
    expect(page.locator("#memory [role=switch]")).to_have_attribute("aria-checked", "false")
    for selector, prop in (
        ("#memory .add-line input[name=text]", "borderTopColor"),
        ("#memory [role=switch]", "backgroundColor"),  # the track when off
        ("#memory progress", "borderTopColor"),
        ("#memory .button.secondary", "borderTopColor"),
    ):
        assert contrast(page, selector, prop) >= 3, selector


def test_a_failed_send_is_said_once_by_the_reply_status(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    scripted.answer(RuntimeError("the provider fell over"))
    send(page, "Are you there?")
    failed = page.locator(".message.assistant.error")
    expect(failed).to_have_count(1)
    said = failed.locator(".bubble").inner_text().strip()
    expect(page.locator("[data-reply-status]")).to_have_text(said)
    assert failed.get_attribute("role") is None  # not said a second time as an alert
