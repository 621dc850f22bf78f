"""Keyboard alone, and axe-core on every state (issue 28, points 1, 4 and 7): the memory section
and the chat walked by Tab, Enter, Space and Escape, with the focus and the live region checked
after each step; then every page state a person meets, audited in English, Italian and French,
at desktop and phone widths. ``audit`` fails on any axe-core violation, ``target-size``
included."""

from __future__ import annotations

import itertools
import re
import threading
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from chat import services as chat_services
from memory import services as memory_services
from tests.conftest import Streamed, make_account
from tests.e2e.conftest import audit, guest_session, open_page
from tests.e2e.test_browser import send, wait_for_reply
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
  const el = document.activeElement;
  return [el.localName, el.getAttribute("aria-label") || el.textContent.trim().slice(0, 60)];
}"""


def tab_to(page: Page, name: str | re.Pattern[str], *, most: int = 80) -> None:
    """Press Tab until the focused control's name is ``name`` (a string, a pattern, or
    ``css=`` and a selector it matches); fail after ``most`` presses."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if isinstance(name, str) and name.startswith("css="):
            if page.evaluate("(s) => document.activeElement.matches(s)", name[4:]):
                return
            continue
        _, said = page.evaluate(FOCUSED)
        if said == name if isinstance(name, str) else name.search(said):
            return
    raise AssertionError(f"Tab never reached {name!r}")


def test_the_memory_section_by_keyboard_alone(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    remember(guest, "Name is Anna", "Likes jazz")
    page.goto("/settings/")
    announcer = page.locator("[data-memory-announcer]")
    audit(page)

    tab_to(page, re.compile("What Whizi remembers"))
    page.keyboard.press("Enter")
    expect(page.locator("#memory .memory-lines")).to_be_visible()
    audit(page)

    tab_to(page, "css=[role=switch]")
    switch = page.get_by_role("switch", name="Use memory")
    expect(switch).to_be_focused()
    page.keyboard.press(" ")
    expect(page.get_by_role("switch", name="Use memory")).to_have_attribute("aria-checked", "false")
    expect(page.get_by_role("switch", name="Use memory")).to_be_focused()
    expect(announcer).to_contain_text("Off: nothing is read or saved.")
    audit(page)
    page.keyboard.press(" ")
    expect(page.get_by_role("switch", name="Use memory")).to_have_attribute("aria-checked", "true")

    tab_to(page, "css=#memory-new-line")
    page.keyboard.type("Plays the cello")
    page.keyboard.press("Enter")
    expect(page.locator("#memory .memory-line")).to_have_count(3)
    expect(announcer).to_have_text("Saved.")
    expect(page.locator("#memory-new-line")).to_be_focused()  # ready for the next fact

    tab_to(page, "Edit: Likes jazz")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator("#memory-line-1")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("Loves jazz")
    page.keyboard.press("Enter")
    expect(page.locator("#memory .memory-line").nth(1)).to_have_text("Loves jazz")
    expect(announcer).to_have_text("Saved.")
    expect(page.locator('summary[aria-label="Edit: Loves jazz"]')).to_be_focused()
    audit(page)

    tab_to(page, "Delete: Name is Anna")
    page.keyboard.press("Enter")
    expect(page.locator("#memory .memory-line")).to_have_text(["Loves jazz", "Plays the cello"])
    expect(announcer).to_have_text("Deleted.")
    expect(page.get_by_role("button", name="Delete: Loves jazz")).to_be_focused()  # the next

    tab_to(page, "Clear memory")
    page.keyboard.press(" ")
    dialog = page.locator("#clear-memory-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    audit(page)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name="Clear memory")).to_be_focused()

    tab_to(page, re.compile("View history"))
    page.keyboard.press("Enter")
    page.wait_for_url("**/settings/memory/history")
    tab_to(page, "Show its 2 facts")  # the deleted line is in no version any more
    page.keyboard.press("Enter")
    expect(page.locator(".version-lines[open] li")).to_have_text(["Loves jazz", "Plays the cello"])
    audit(page)
    oldest = page.locator(".memory-version button").last.get_attribute("aria-label") or ""
    tab_to(page, oldest)  # the first list, which is not the list now
    page.keyboard.press("Enter")
    page.wait_for_url("**/settings/**#memory")
    notice = page.locator("#memory > .notice").first
    expect(notice).to_be_focused()
    expect(notice).to_contain_text("Restored version")
    audit(page)

    tab_to(page, "Clear memory")
    page.keyboard.press("Enter")
    expect(page.locator("#clear-memory-dialog")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator("#clear-memory-dialog button.danger")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#memory .memory-empty")).to_be_visible()
    expect(announcer).to_have_text("Memory cleared.")
    expect(page.locator("#memory-new-line")).to_be_focused()
    audit(page)


def test_the_chat_by_keyboard_alone(page: Page, chat: Any, scripted: Any, settings: Any) -> None:
    settings.CHAT_STOP_CHECK_SECONDS = 0
    status = page.locator("[data-reply-status]")
    composer = page.get_by_label("Message")
    expect(composer).to_be_focused()

    scripted.answer("Hello Anna.")
    page.keyboard.type("Hello")
    page.keyboard.press("Enter")
    wait_for_reply(page, 1)
    expect(status).to_have_text("Hello Anna.")
    expect(composer).to_be_focused()
    audit(page)

    held = threading.Event()
    scripted.answer(Streamed("Once upon ", held, "a time."))
    page.keyboard.type("Tell me a story")
    page.keyboard.press("Enter")
    expect(page.locator(".message.streaming .bubble")).to_contain_text("Once upon")
    audit(page)  # while it streams
    tab_to(page, "Stop")
    with page.expect_response("**/stop"):
        page.keyboard.press("Enter")
    held.set()
    expect(status).to_contain_text("Stopped")
    expect(composer).to_be_focused()

    scripted.answer("A better story.")
    tab_to(page, "Regenerate")
    page.keyboard.press("Enter")
    expect(status).to_have_text("A better story.")
    expect(composer).to_be_focused()  # the button pressed went with its reply
    audit(page)

    tab_to(page, "Edit")
    page.keyboard.press("Enter")
    expect(composer).to_be_focused()
    expect(composer).to_have_value("Tell me a story")
    audit(page)  # while editing
    page.keyboard.press("Escape")
    expect(page.locator("[data-editing]")).to_be_hidden()

    tab_to(page, re.compile("Whizi Chat"))  # the model picker
    page.keyboard.press("ArrowDown")
    expect(page.locator("[data-model-status]")).to_have_text("Model switched.")
    expect(page.locator("#model-select")).to_be_focused()

    tab_to(page, "New chat")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_label("Message")).to_be_focused()
    audit(page)


def test_a_wrong_password_on_account_deletion_takes_the_focus(page: Page) -> None:
    make_account()
    page.goto("/login/")
    page.get_by_label("Email").fill("anna@example.com")
    page.get_by_label("Password", exact=True).fill("a-long-passphrase-42")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto("/settings/")
    box = page.locator("#delete-account input[type=password]")
    box.fill("not my password")
    page.get_by_role("button", name="Delete account").click()
    box = page.locator("#delete-account input[type=password]")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_be_focused()  # its description is the error: said with it
    audit(page)


# --- Every state a person meets, audited -------------------------------------------------------


def seen(page: Page) -> None:
    """A state as a person sees it: nothing axe-core finds, and nothing scrolls sideways (the
    page or any scroller on it)."""
    audit(page)
    sideways = page.evaluate(
        """() => [document.documentElement, ...document.querySelectorAll("*")].filter((el) => {
             const scrolls = ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
             const root = el === document.documentElement;
             const wide = el.scrollWidth > el.clientWidth + 1 && (scrolls || root);
             // Code and tables scroll on their own, by design.
             return el.scrollLeft > 0 || (wide && !el.closest("pre, table"));
           }).map((el) => el.localName + "." + [...el.classList].join("."))"""
    )
    assert sideways == [], f"{page.url} scrolls sideways: {sideways}"


def settings_states(page: Page, guest: User) -> None:
    page.goto("/settings/")
    seen(page)  # memory collapsed
    page.locator("#memory .memory-row > summary").click()
    page.locator("[data-show-sources]").check()
    seen(page)  # expanded, with sources
    page.locator("#memory .line-edit > summary").first.click()
    seen(page)  # a line being edited
    box, line = page.locator("#memory-line-0"), page.locator("#memory .memory-lines > li").first
    assert box.bounding_box()["width"] > line.bounding_box()["width"] / 2  # room to edit in
    page.locator("[data-open-dialog=clear-memory-dialog]").click()
    seen(page)  # the clear dialog
    page.keyboard.press("Escape")
    page.locator("[data-open-dialog=delete-data-dialog]").click()
    seen(page)  # the delete-my-data dialog
    page.keyboard.press("Escape")
    page.get_by_role("switch").click()
    expect(page.get_by_role("switch")).to_have_attribute("aria-checked", "false")
    seen(page)  # memory off
    page.goto("/settings/memory/history")
    page.locator(".version-lines > summary").first.click()
    seen(page)  # history, a version opened


def chat_states(page: Page, guest: User, scripted: Any) -> None:
    conversation = chat_services.create_conversation(owner_id=guest.pk, model="scripted/chat-a")
    page.goto(f"/c/{conversation.pk}/")
    seen(page)  # empty
    scripted.answer("# Walks\n\n- The harbour\n- The old town\n\n```sh\necho hi\n```\n" * 3)
    send(page, "Ideas for a walk in Genoa? " * 8)
    wait_for_reply(page, 1)
    seen(page)  # a long Markdown reply
    held = threading.Event()
    scripted.answer(Streamed("Once ", held, "upon a time."))
    send(page, "A story")
    expect(page.locator(".message.streaming")).to_have_count(1)
    seen(page)  # streaming
    held.set()
    wait_for_reply(page, 2)
    scripted.answer(RuntimeError("the provider fell over"))
    send(page, "And another?")
    expect(page.locator("[data-unanswered], .message.error")).not_to_have_count(0)
    seen(page)  # failed
    page.locator(".message.user").last.get_by_role("link", name=re.compile(".")).first.click()
    seen(page)  # editing
    page.keyboard.press("Escape")


@pytest.mark.parametrize("locale", ["en-US", "it-IT", "fr-FR"])
@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_state_passes_axe(
    browser: Browser, live_server: Any, scripted: Any, locale: str, width: int
) -> None:
    page = open_page(browser, live_server.url, locale=locale)
    page.set_viewport_size({"width": width, "height": 860})
    try:
        guest = guest_session(page, live_server.url)
        remember(guest, "Name is Anna", "Lives in Turin", "Likes jazz")
        settings_states(page, guest)
        chat_states(page, guest, scripted)
        chat = guest.conversations.latest("pk").pk
        # The other pages, and the no-JavaScript ones behind dialogs.
        for url in (
            "/projects/",
            "/c/new",
            "/c/search?q=walk",
            f"/c/{chat}/rename",
            f"/c/{chat}/delete",
            "/settings/memory/clear",
            "/settings/delete",
            "/signup/",
            "/login/",
            "/password-reset/",
            "/no-such-page/",
        ):
            page.goto(url)
            seen(page)
    finally:
        page.context.close()


def tab_stops(page: Page, most: int = 60) -> list[dict[str, Any]]:
    """Where Tab goes, in order, once round the page: each stop's box and its region."""
    stops: list[dict[str, Any]] = []
    for _ in range(most):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            """() => {
              const el = document.activeElement;
              const box = el.getBoundingClientRect();
              const region = el.closest("nav, main, dialog");
              return { name: el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30),
                       x: box.left + scrollX, y: box.top + scrollY, w: box.width, h: box.height,
                       region: region ? region.localName : "", tag: el.localName };
            }"""
        )
        if stop["tag"] == "body" or (stops and stop == stops[0]):
            break
        stops.append(stop)
    return stops


def out_of_order(stops: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of consecutive stops in one region where the second comes before the first as
    the page reads (rows top to bottom, left to right within a row)."""
    wrong = []
    for first, second in itertools.pairwise(s for s in stops if s["x"] >= 0):
        if first["region"] != second["region"]:
            continue
        overlap = min(first["y"] + first["h"], second["y"] + second["h"]) - max(
            first["y"], second["y"]
        )
        same_row = overlap >= min(first["h"], second["h"]) / 2
        if (same_row and second["x"] < first["x"]) or (not same_row and second["y"] < first["y"]):
            wrong.append((first["name"], second["name"]))
    return wrong


@pytest.mark.parametrize("width", [1280, 390])
def test_tab_order_follows_what_is_on_screen(
    page: Page, live_server: Any, scripted: Any, width: int, eager_memory: None
) -> None:
    page.set_viewport_size({"width": width, "height": 860})
    page.goto("/")
    send(page, "My name is Anna and I live in Turin, I have a cat. Please remember that.")
    expect(page.locator("[data-receipt]")).to_contain_text("Memory updated", timeout=15_000)
    memory_services.add_line(owner_id=User.objects.get().pk, text="Plays the cello")
    for url in (page.url, "/settings/?memory=open", "/settings/memory/history"):
        page.goto(url)
        page.locator(".skip-link").focus()  # from the top: Tab goes on from here
        stops = tab_stops(page)
        assert len(stops) > 8
        assert out_of_order(stops) == [], url
        assert [s["name"] for s in stops if s["w"] <= 1 or s["h"] <= 1] == [], "invisible stops"
