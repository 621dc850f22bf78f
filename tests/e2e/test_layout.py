"""The layout in a real browser: a phone-width chat that starts above the fold, and a chat header
whose model picker stays in place whatever the title's length.

Set ``WHIZI_SHOTS=<folder>`` to keep the screenshots these tests take (for a look by eye);
otherwise they go to a temporary folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from chat import chats
from chat import services as chat_services
from chat.models import Conversation
from tests.conftest import make_account
from tests.e2e.conftest import audit_and_close, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-passphrase-42"
PHONE = {"width": 390, "height": 844}
TITLES = (
    "Help me plan a weekend in Lisbon with the kids and a tight budget",
    "Outline for my thesis on urban gardens",
    "Birthday ideas for Marco",
    "What should I cook tonight?",
    "Translate this letter to Italian",
    "Explain compound interest",
    "Workout plan for beginners",
    "Short",
)


def shots_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("WHIZI_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chats_for(account: User, *titles: str) -> list[Conversation]:
    """One conversation per title, each with a first message and its reply."""
    conversations = []
    for title in titles:
        conversation = chat_services.create_conversation(
            owner_id=account.pk, model="scripted/chat-a"
        )
        chat_services.send_message(conversation=conversation, content=title)
        conversations.append(conversation)
    return conversations


def logged_in(browser: Browser, base_url: str, viewport: dict[str, int] | None = None) -> Page:
    page = open_page(browser, base_url)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto("/login/")
    page.get_by_label("Email").fill("anna@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(c/\d+/)?$"))
    return page


def test_on_a_phone_the_chat_and_its_composer_fit_on_the_first_screen(
    browser: Browser, live_server: Any, scripted: Any, tmp_path: Path
) -> None:
    account = make_account("anna@example.com")
    conversation = chats_for(account, *TITLES)[0]
    page = logged_in(browser, live_server.url, PHONE)
    page.goto(f"/c/{conversation.pk}/")
    page.screenshot(path=str(shots_dir(tmp_path) / "chat-phone.png"))

    composer = page.locator("[data-composer] textarea").bounding_box()
    first_message = page.locator(".message").first.bounding_box()
    assert composer and first_message
    assert composer["y"] + composer["height"] <= PHONE["height"]
    assert first_message["y"] < PHONE["height"] / 2
    # The chat list is one tap away, not in the way.
    chats = page.locator(".sidebar").get_by_text("Birthday ideas for Marco")
    expect(chats).to_be_hidden()
    page.locator(".sidebar-chats > summary").click()
    expect(chats).to_be_visible()
    page.screenshot(path=str(shots_dir(tmp_path) / "chat-phone-chats.png"))
    audit_and_close(page)


def test_on_a_phone_the_footer_links_each_stay_on_one_line(
    browser: Browser, live_server: Any, scripted: Any, tmp_path: Path
) -> None:
    make_account("anna@example.com")
    page = logged_in(browser, live_server.url, PHONE)
    page.goto("/settings/")
    page.screenshot(path=str(shots_dir(tmp_path) / "settings-phone.png"), full_page=True)
    rows = set()
    for link in page.locator(".sidebar-foot a, .sidebar-foot button").all():
        box = link.bounding_box()
        assert box and box["height"] < 40, link.text_content()
        rows.add(round(box["y"] + box["height"] / 2))
    assert max(rows) - min(rows) <= 2  # one row: Projects, Settings, Log out
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    audit_and_close(page)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 860}, PHONE])
def test_the_model_picker_stays_in_place_whatever_the_titles_length(
    browser: Browser,
    live_server: Any,
    scripted: Any,
    tmp_path: Path,
    viewport: dict[str, int],
) -> None:
    account = make_account("anna@example.com")
    long_one, short_one = chats_for(account, TITLES[0], "Short")
    # A title made from a message is short; a chat renamed by hand may be long.
    chats.update_conversation(conversation=long_one, title=(TITLES[0] * 2)[: chats.TITLE_MAX_CHARS])
    page = logged_in(browser, live_server.url, viewport)
    places = []
    for conversation in (long_one, short_one):
        page.goto(f"/c/{conversation.pk}/")
        name = f"header-{viewport['width']}-{'long' if conversation == long_one else 'short'}.png"
        page.screenshot(path=str(shots_dir(tmp_path) / name))
        picker = page.locator("[data-model-picker] select").bounding_box()
        header = page.locator(".chat-header").bounding_box()
        assert picker and header
        places.append((round(picker["x"]), round(picker["y"]), round(header["height"])))
        title = page.locator(".chat-title")
        # A long title is cut with an ellipsis rather than pushing the picker about.
        assert title.evaluate("el => el.scrollWidth <= el.clientWidth + 1") is (
            conversation == short_one
        )
    assert places[0] == places[1]
    audit_and_close(page)
