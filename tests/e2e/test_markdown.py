"""Replies in Markdown in a real browser: rendered while they stream and after, hostile HTML
from the model inert (nothing runs, nothing loads from elsewhere), copy buttons that put the
text on the clipboard, tables that scroll on a phone; screenshots of the chat for docs/."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Browser, Page, expect

from chat import services as chat_services
from chat.models import Message
from tests.conftest import Streamed
from tests.e2e.conftest import audit, audit_and_close, csp_violations, guest_session, open_page
from tests.e2e.test_browser import DOCS_SCREENSHOTS, send, wait_for_reply
from tests.e2e.test_layout import shots_dir

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST_HALF = (
    "Three ideas:\n\n- **Walk** in the park\n- Read a *book*\n\n"
    "| City | Days |\n|---|---|\n| Turin | 3 |\n\n```python\nprint('hi')\n"
)
# What a model can be tricked into writing by a page it read: every line tries to run script,
# load something from elsewhere or restyle the page.
HOSTILE = (
    "<script>window.pwned = 'script'; alert('script')</script>\n\n"
    '<img src="https://evil.example/x.png" onerror="window.pwned = \'img\'; alert(1)">\n\n'
    "[click me](javascript:window.pwned='link')\n\n"
    "[tab](jav&#x09;ascript:alert('tab'))\n\n"
    "<a href=\"javascript:alert('a')\">a link</a>\n\n"
    '<svg onload="alert(\'svg\')"><circle r="5"/></svg>\n\n'
    '<iframe src="https://evil.example/"></iframe>\n\n'
    "![tracker](https://evil.example/t.png)\n\n"
    "<style>body { display: none }</style>\n\n"
    "<details open ontoggle=\"alert('details')\">x</details>\n\n"
    '<div style="position:fixed;inset:0;background:red">cover</div>'
)
SECOND_HALF = "print('bye')\n```\n\n" + HOSTILE + "\n\nSee [the guide](https://docs.example/guide)."


def start_scripted_chat(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Model").select_option("scripted/chat-a")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))


def assert_inert(page: Page, bubble: Any, base_url: str, loaded: list[str]) -> None:
    """Nothing of the hostile answer became live: no element that runs or loads, every link
    safe, the flag the scripts would set unset, no request to anywhere but the live server."""
    dangerous = "script, img, iframe, svg:not(.copy-icon), style, object, embed, details"
    assert bubble.locator(dangerous).count() == 0
    assert bubble.locator("[style], [onerror], [onload], [ontoggle]").count() == 0
    for link in bubble.locator("a").all():
        assert re.match(r"^https://", link.get_attribute("href") or ""), link.inner_html()
        assert link.get_attribute("target") == "_blank"
        assert link.get_attribute("rel") == "noopener noreferrer nofollow"
    assert page.evaluate("window.pwned") is None
    assert [url for url in loaded if not url.startswith(base_url)] == []


def test_a_markdown_reply_renders_while_it_streams_stays_inert_and_copies(
    page: Page, scripted: Any, settings: Any, live_server: Any, tmp_path: Path
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 30  # the stream waits at `halfway` while the test looks
    halfway = threading.Event()
    scripted.answer(Streamed(FIRST_HALF, halfway, SECOND_HALF))
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    start_scripted_chat(page)
    send(page, "Ideas for a weekend?")

    # Halfway through the stream: already Markdown, the open code fence shown as code.
    streaming = page.locator(".message.assistant.streaming .bubble")
    expect(streaming.locator("li")).to_have_text(["Walk in the park", "Read a book"])
    expect(streaming.locator("li strong")).to_have_text("Walk")
    expect(streaming.locator("td")).to_have_text(["Turin", "3"])
    expect(streaming.locator("pre code")).to_have_text("print('hi')\n")
    page.screenshot(path=str(shots_dir(tmp_path) / "chat-streaming.png"))
    halfway.set()
    wait_for_reply(page, 1)

    reply = page.locator(".message.assistant")
    bubble = reply.locator(".bubble")
    expect(bubble.locator("li")).to_have_count(2)
    expect(bubble.locator(".code-block .code-language")).to_have_text("python")
    expect(bubble.locator("pre code")).to_have_text("print('hi')\nprint('bye')\n")
    expect(bubble).to_contain_text("<script>window.pwned = 'script'")  # shown, as text
    expect(bubble).to_contain_text("[click me](javascript:window.pwned='link')")
    expect(bubble.get_by_role("link", name="tracker")).to_have_attribute(
        "href", "https://evil.example/t.png"
    )
    assert_inert(page, bubble, live_server.url, loaded)
    streamed_html = bubble.inner_html()

    # Copy the reply by keyboard: its Markdown source lands on the clipboard.
    copy_reply = reply.locator("[data-copy=reply]")  # named "Copied" once it has copied
    expect(copy_reply).to_have_accessible_name("Copy reply")
    copy_reply.focus()
    page.keyboard.press("Enter")
    expect(copy_reply).to_have_text("Copied")
    expect(copy_reply).to_have_accessible_name("Copied")  # what it shows, it is called
    expect(page.locator("[data-copy-status]")).to_have_text("Copied")
    stored = Message.objects.get(role="assistant").content
    assert stored == FIRST_HALF + SECOND_HALF
    assert page.evaluate("navigator.clipboard.readText()") == stored
    expect(copy_reply).to_have_text("Copy")  # and back, for the next copy
    expect(copy_reply).to_have_accessible_name("Copy reply")

    # A code block copies its code alone.
    copy_code = bubble.locator("[data-copy=code]")
    copy_code.click()
    expect(copy_code).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == "print('hi')\nprint('bye')\n"

    # Loaded again, the history shows the reply exactly as it streamed, with the same policy.
    response = page.reload()
    assert response is not None
    assert response.headers["content-security-policy"] == django_settings.CONTENT_SECURITY_POLICY
    expect(page.locator(".message.assistant .bubble .code-block")).to_have_count(1)
    assert page.locator(".message.assistant .bubble").inner_html() == streamed_html
    assert_inert(page, page.locator(".message.assistant .bubble"), live_server.url, loaded)
    page.locator(".message.assistant").get_by_role("button", name="Copy reply").click()
    expect(page.locator("[data-copy-status]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == stored
    assert dialogs == []


WIDE_TABLE = (
    "Here is the plan:\n\n| Day | Morning | Afternoon | Evening | Budget |\n"
    "|---|---|---|---|---|\n"
    "| Friday | Train from Turin to Lisbon | Alfama walk | Fado dinner in Bairro Alto | 120 € |\n"
    "| Saturday | Belém tower and pastries | Tram 28 | Sunset at Miradouro | 80 € |\n"
)


def test_on_a_phone_a_wide_table_scrolls_inside_the_reply_not_the_page(
    browser: Browser, live_server: Any, scripted: Any
) -> None:
    page = open_page(browser, live_server.url, locale="it-IT")
    refused = csp_violations(page)
    page.set_viewport_size({"width": 390, "height": 844})
    guest = guest_session(page, live_server.url)
    conversation = chat_services.create_conversation(owner_id=guest.pk, model="scripted/chat-a")
    scripted.answer(WIDE_TABLE)
    chat_services.send_message(conversation=conversation, content="Plan my weekend")
    page.goto(f"/c/{conversation.pk}/")
    table = page.locator(".message.assistant table")
    expect(table).to_be_visible()
    widths = table.evaluate("t => [t.scrollWidth, t.clientWidth]")
    assert widths[0] > widths[1]  # wider than the reply: it scrolls...
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # ...and the page itself does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # In the reader's language (Italian here), and reachable by keyboard like any button.
    copy = page.get_by_role("button", name="Copia la risposta")
    expect(copy).to_have_text("Copia")
    copy.focus()
    expect(copy).to_be_focused()
    audit_and_close(page)
    assert refused == []


SCREENSHOT_REPLY = (
    "Here's a relaxed plan for **two days in Lisbon**:\n\n"
    "1. **Saturday** — Alfama in the morning, *pastéis de nata* in Belém\n"
    "2. **Sunday** — Sintra by train, back for sunset at a *miradouro*\n\n"
    "| | Budget |\n|---|---:|\n| Train | 12 € |\n| Meals | 60 € |\n\n"
    "To check the trains from your terminal:\n\n"
    "```bash\ncurl -s https://www.cp.pt/passageiros/en | grep -i sintra\n```"
)


def test_the_chat_screenshots_on_a_desktop_and_a_phone(
    browser: Browser, live_server: Any, scripted: Any, tmp_path: Path
) -> None:
    """A conversation with a Markdown reply, for docs/screenshots/ (`make screenshots`)."""
    screenshots = DOCS_SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path
    screenshots.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, live_server.url)
    guest = guest_session(page, live_server.url)
    conversation = chat_services.create_conversation(owner_id=guest.pk, model="scripted/chat-a")
    scripted.answer(SCREENSHOT_REPLY)
    chat_services.send_message(
        conversation=conversation, content="Plan two days in Lisbon for me, with a budget"
    )
    for viewport, name in (
        ({"width": 1280, "height": 860}, "chat-en.png"),
        ({"width": 390, "height": 844}, "chat-phone-en.png"),
    ):
        page.set_viewport_size(viewport)
        page.goto(f"/c/{conversation.pk}/")
        expect(page.locator(".message.assistant .code-block")).to_be_visible()
        expect(page.get_by_role("button", name="Copy reply")).to_be_visible()
        audit(page)
        page.screenshot(path=str(screenshots / name))
        assert (screenshots / name).stat().st_size > 10_000
    audit_and_close(page)
