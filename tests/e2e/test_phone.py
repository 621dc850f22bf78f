"""The chat on a phone and the sign-up form, in a real browser (issue 17, point 5): the model
picker shows whole labels, "Model switched." never covers a message, a touch keyboard's Enter
adds a line (the button sends), and sign-up shows its rules first, puts the cursor on the
error and says it in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation
from tests.e2e.conftest import audit_and_close, csp_violations, guest_session
from tests.e2e.test_browser import wait_for_reply

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# How wide the select's chosen label is drawn, against the room the select gives it (its width
# less its padding and the arrow's space).
LABEL_FITS = """select => {
  const probe = document.createElement("span");
  const style = getComputedStyle(select);
  probe.style.font = style.font;
  probe.style.whiteSpace = "pre";
  probe.style.position = "absolute";
  probe.textContent = select.selectedOptions[0].textContent;
  document.body.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const room = select.clientWidth - padding - 16;
  return [needed, room];
}"""


def phone_page(browser: Browser, base_url: str, *, touch: bool, locale: str = "en-US") -> Page:
    context = browser.new_context(
        base_url=base_url,
        locale=locale,
        viewport=PHONE if touch else DESKTOP,
        has_touch=touch,
        is_mobile=touch,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def open_chat(page: Page, base_url: str, model: str = "offline/whizi-chat") -> tuple[User, int]:
    guest = guest_session(page, base_url)
    conversation = chat_services.create_conversation(owner_id=guest.pk, model=model)
    page.goto(f"/c/{conversation.pk}/")
    return guest, conversation.pk


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def clipped(box: dict[str, float], frame: dict[str, float]) -> dict[str, float]:
    """The part of ``box`` that shows inside ``frame`` (which clips it)."""
    top, bottom = (
        max(box["y"], frame["y"]),
        min(box["y"] + box["height"], frame["y"] + frame["height"]),
    )
    left, right = (
        max(box["x"], frame["x"]),
        min(box["x"] + box["width"], frame["x"] + frame["width"]),
    )
    return {"x": left, "y": top, "width": right - left, "height": bottom - top}


@pytest.mark.parametrize("touch", [True, False], ids=["phone", "desktop"])
def test_the_model_picker_shows_whole_labels(
    browser: Browser, live_server: Any, scripted: Any, settings: Any, touch: bool
) -> None:
    settings.CHAT_MODEL_LABELS = {"scripted/chat-a": "Whizi Chat (offline, the long one)"}
    page = phone_page(browser, live_server.url, touch=touch)
    refused = csp_violations(page)
    open_chat(page, live_server.url)
    select = page.get_by_label("Model")
    for option in ("offline/whizi-chat", "scripted/chat-a"):
        select.select_option(option)
        needed, room = select.evaluate(LABEL_FITS)
        assert needed <= room, (option, needed, room)
    # The picker stays on the screen, and the page does not scroll sideways.
    box = select.bounding_box()
    assert (
        box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    audit_and_close(page)
    assert refused == []


@pytest.mark.parametrize("touch", [True, False], ids=["phone", "desktop"])
def test_model_switched_never_covers_a_message(
    browser: Browser, live_server: Any, scripted: Any, touch: bool
) -> None:
    page = phone_page(browser, live_server.url, touch=touch)
    _, pk = open_chat(page, live_server.url, model="scripted/chat-a")
    conversation = Conversation.objects.get(pk=pk)
    for text in ("First question", "Second question", "Third question"):
        chat_services.send_message(conversation=conversation, content=text)
    page.reload()
    page.get_by_label("Model").select_option("scripted/chat-b")
    status = page.locator("[data-model-status]")
    expect(status).to_have_text("Model switched.")
    said = status.bounding_box()
    listed = page.locator("[data-messages]").bounding_box()
    assert said is not None and listed is not None
    # The list clips what it scrolled past: a message shows only inside the list's box, which
    # starts below the notice.
    assert said["y"] + said["height"] <= listed["y"]
    for item in page.locator(".messages > li").all():
        box = item.bounding_box()
        if box is not None and overlaps(box, listed):
            assert not overlaps(said, clipped(box, listed))
    audit_and_close(page)


def test_on_a_touch_screen_enter_adds_a_line_and_the_button_sends(
    browser: Browser, live_server: Any, scripted: Any
) -> None:
    page = phone_page(browser, live_server.url, touch=True)
    open_chat(page, live_server.url, model="scripted/chat-a")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    box = page.locator("textarea[name=content]")
    expect(box).to_have_attribute("enterkeyhint", "enter")
    box.click()
    page.keyboard.type("Shopping list:")
    page.keyboard.press("Enter")
    page.keyboard.type("milk")
    expect(box).to_have_value("Shopping list:\nmilk")
    expect(page.locator(".message")).to_have_count(0)  # nothing sent
    expect(page.locator(".composer-hint")).to_be_hidden()  # "Enter to send" is not true here
    page.get_by_role("button", name="Send").tap()
    expect(page.locator(".message.user .bubble")).to_have_text(["Shopping list:\nmilk"])
    wait_for_reply(page, 1)  # nothing left on its way when the test's database is emptied
    audit_and_close(page)


def test_with_a_keyboard_enter_sends_and_shift_enter_adds_a_line(
    browser: Browser, live_server: Any, scripted: Any
) -> None:
    page = phone_page(browser, live_server.url, touch=False)
    open_chat(page, live_server.url, model="scripted/chat-a")
    box = page.locator("textarea[name=content]")
    expect(box).to_have_attribute("enterkeyhint", "send")
    box.click()
    page.keyboard.type("Line one")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("line two")
    page.keyboard.press("Enter")
    expect(page.locator(".message.user .bubble")).to_have_text(["Line one\nline two"])
    wait_for_reply(page, 1)
    audit_and_close(page)


@pytest.mark.parametrize(
    ("locale", "rule", "too_short", "button"),
    [
        (
            "en-US",
            "Your password must contain at least 8 characters.",
            "This password is too short. It must contain at least 8 characters.",
            "Sign up",
        ),
        (
            "it-IT",
            "La tua password deve contenere almeno 8 caratteri.",
            "Questa password è troppo corta: deve contenere almeno 8 caratteri.",
            "Registrati",
        ),
    ],
)
def test_sign_up_shows_the_rules_first_and_focuses_the_error_in_the_readers_language(
    browser: Browser, live_server: Any, locale: str, rule: str, too_short: str, button: str
) -> None:
    page = phone_page(browser, live_server.url, touch=True, locale=locale)
    refused = csp_violations(page)
    page.goto("/signup/")
    expect(page.locator(".help").filter(has_text=rule)).to_be_visible()
    page.locator("input[name=email]").fill("new@example.com")
    page.locator("input[name=password]").fill("abc")
    page.get_by_role("button", name=button).tap()
    expect(page.locator("#id_password_error .field-error").first).to_have_text(too_short)
    expect(page.locator("input[name=password]")).to_be_focused()
    expect(page.locator("input[name=password]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".help").filter(has_text=rule)).to_be_visible()  # still there
    assert not User.objects.filter(email="new@example.com").exists()
    audit_and_close(page)
    assert refused == []
