"""The product in a real browser: streamed chat, model switching, memory filling up, being
seen, deleted, cleared and switched off, and a guest's facts following it into an account."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from chat import services as chat_services
from chat.models import Message
from memory.models import Memory
from tests.conftest import make_account
from tests.e2e.conftest import audit, guest_session, open_page
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# `make screenshots` refreshes the committed ones; an ordinary run writes to a temporary folder.
DOCS_SCREENSHOTS = Path(django_settings.BASE_DIR) / "docs" / "screenshots"
REMEMBER_ANNA = "My name is Anna and I live in Turin. Please remember that."


def send(page: Page, text: str) -> None:
    """Type a message in whichever composer the page has and send it with Enter."""
    box = page.locator("textarea[name=content]")
    box.fill(text)
    box.press("Enter")


def wait_for_reply(page: Page, count: int) -> None:
    """Wait until the ``count``-th assistant reply has finished streaming."""
    replies = page.locator(".message.assistant")
    expect(replies).to_have_count(count)
    expect(page.locator(".message.streaming")).to_have_count(0)


def test_a_guest_chats_sees_the_reply_stream_and_switches_model(page: Page, scripted: Any) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="What can Whizi help with?")).to_be_visible()
    send(page, "Hello there, how are you?")

    page.wait_for_url(re.compile(r"/c/\d+/$"))
    expect(page.locator(".message.user .bubble")).to_have_text(["Hello there, how are you?"])
    wait_for_reply(page, 1)
    first = page.locator(".message.assistant .bubble").first
    expect(first).not_to_be_empty()
    expect(page.locator(".chat-title")).to_have_text("How are you")

    scripted.answer("Model A speaking, at your service.")
    page.get_by_label("Model").select_option("scripted/chat-a")
    expect(page.locator("[data-model-status]")).to_have_text("Model switched.")
    send(page, "Who is answering now?")
    wait_for_reply(page, 2)
    expect(page.locator(".message.assistant .bubble").nth(1)).to_have_text(
        "Model A speaking, at your service."
    )

    replies = Message.objects.filter(role="assistant").order_by("id")
    assert [m.model for m in replies] == ["offline/whizi-chat", "scripted/chat-a"]
    # Reloading shows the same history, rendered by the server.
    page.reload()
    expect(page.locator(".message")).to_have_count(4)
    expect(page.get_by_label("Model")).to_have_value("scripted/chat-a")


def test_an_empty_message_shows_why_and_nothing_is_sent(page: Page) -> None:
    page.goto("/")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    page.get_by_role("button", name="Send").click()
    expect(page.locator("[data-composer-error]")).to_have_text("Write a message first.")
    expect(page.locator(".message")).to_have_count(0)


def test_a_model_error_is_shown_in_the_chat_and_the_message_stays(
    page: Page, scripted: Any, settings: Any
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 0.5
    page.goto("/")
    page.get_by_label("Model").select_option("scripted/chat-a")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    scripted.answer(("sleep", 5, "late"))
    send(page, "Are you there?")
    expect(page.locator(".message.assistant.error")).to_have_text(
        re.compile("The model took too long to answer")
    )
    expect(page.locator(".message.user .bubble")).to_have_text(["Are you there?"])
    assert Message.objects.get().content == "Are you there?"
    # After a reload the failed turn is still told apart, under the person's message.
    page.reload()
    unanswered = page.locator(".message.user [data-unanswered]")
    expect(unanswered).to_contain_text("No reply — the model couldn't answer.")
    expect(unanswered.get_by_role("button", name="Retry")).to_be_visible()


def test_picking_the_model_already_in_use_claims_no_switch(page: Page) -> None:
    page.goto("/")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    switches: list[str] = []
    page.on(
        "request", lambda request: switches.append(request.url) if "/model" in request.url else None
    )
    picker = page.get_by_label("Model")
    picker.select_option("offline/whizi-chat")  # Playwright fires "change" even so
    expect(page.locator("[data-model-status]")).to_have_text("")

    picker.select_option("scripted/chat-b")
    expect(page.locator("[data-model-status]")).to_have_text("Model switched.")
    # One request in all: the first pick (the model in use) sent none, and requests go in order.
    assert len(switches) == 1


def test_chatting_fills_memory_which_can_be_seen_deleted_cleared_and_switched_off(
    page: Page, eager_memory: None
) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    wait_for_reply(page, 1)

    page.get_by_role("link", name="Settings", exact=True).click()
    memory = page.locator("#memory")
    row = memory.locator(".memory-row > summary")
    expect(row).to_contain_text("What Whizi remembers")
    row.click()
    lines = memory.locator(".memory-line")
    expect(lines.filter(has_text="Anna")).to_have_count(1)
    expect(lines.filter(has_text="Turin")).to_have_count(1)
    count = lines.count()
    expect(row).to_contain_text(f"{count} facts")
    expect(memory.locator("[data-memory-usage]")).to_have_text(re.compile(r"^\d+ / 2,000 tokens$"))

    # Delete one line: it goes without a page load, the rest stays.
    # By the line itself: the note under each line names the chat, which says "Turin" too.
    turin = memory.locator("li").filter(has=page.locator(".memory-line", has_text="Turin"))
    turin.get_by_role("button").click()
    expect(page.locator("#memory .memory-line").filter(has_text="Turin")).to_have_count(0)
    expect(page.locator("#memory .memory-line").filter(has_text="Anna")).to_have_count(1)
    assert not any("Turin" in line for line in Memory.objects.get().lines)

    # Clear, after the confirmation dialog.
    page.locator("#memory").get_by_role("button", name="Clear memory").click()
    dialog = page.locator("dialog#clear-memory-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Clear Whizi's memory?")
    expect(dialog).to_contain_text(
        "This permanently deletes everything Whizi remembers about you, on web and mobile. "
        "This can't be undone."
    )
    dialog.get_by_role("button", name="Clear memory").click()
    expect(page.locator("#memory .memory-empty")).to_have_text(
        "No memories yet. Facts you share in chats will appear here."
    )
    assert Memory.objects.get().lines == []

    # Switch memory off.
    switch = page.locator("#memory").get_by_role("switch", name="Use memory")
    expect(switch).to_have_attribute("aria-checked", "true")
    switch.click()
    expect(page.locator("#memory").get_by_role("switch")).to_have_attribute("aria-checked", "false")
    assert not Memory.objects.get().enabled


def test_the_settings_page_shows_where_a_line_came_from_and_its_chat_opens_by_keyboard(
    page: Page, eager_memory: None
) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    chat_url = page.url
    wait_for_reply(page, 1)

    page.get_by_role("link", name="Settings", exact=True).click()
    memory = page.locator("#memory")
    memory.locator(".memory-row > summary").click()
    memory.get_by_label("Show where each fact came from").check()
    anna = memory.locator("li").filter(has=page.locator(".memory-line", has_text="Name is Anna"))
    note = anna.locator(".memory-source")
    expect(note).to_have_text(re.compile(r"^From your chat “My name is Anna.*”, \w+ \d+$"))
    link = note.get_by_role("link")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(chat_url) + r"#message-\d+$"))


def test_a_bad_rewrite_is_undone_by_restoring_a_version_from_the_history_page(
    page: Page, live_server: Any
) -> None:
    guest = guest_session(page, live_server.url)
    remember(guest, "Name is Anna", "Lives in Turin", "Likes jazz")
    remember(guest, "Name is Anna")  # a careless rewrite that lost two facts
    page.goto("/settings/")
    page.locator("#memory .memory-row > summary").click()
    page.locator("#memory").get_by_role("link", name="History").click()

    versions = page.locator(".memory-version")
    expect(versions).to_have_count(2)
    expect(versions.first).to_contain_text("Current")
    expect(versions.nth(1)).to_contain_text("3 added")
    restore = versions.nth(1).get_by_role("button", name=re.compile(r"^Restore version \d+$"))
    restore.focus()
    page.keyboard.press("Enter")

    page.wait_for_url(re.compile(r"/settings/\?memory=open"))  # the section comes back open
    expect(page.locator("#memory .memory-line")).to_have_text(
        ["Name is Anna", "Lives in Turin", "Likes jazz"]
    )
    assert Memory.objects.get().lines == ["Name is Anna", "Lives in Turin", "Likes jazz"]


def test_cancelling_the_clear_dialog_keeps_everything(page: Page, live_server: Any) -> None:
    remember(guest_session(page, live_server.url), "Name is Anna")
    page.goto("/settings/")
    page.locator("#memory .memory-row > summary").click()
    page.get_by_role("button", name="Clear memory").click()
    dialog = page.locator("dialog#clear-memory-dialog")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#memory .memory-line")).to_have_text(["Name is Anna"])
    assert Memory.objects.get().lines == ["Name is Anna"]


def test_a_fact_is_edited_and_added_by_hand_and_a_secret_is_refused(
    page: Page, live_server: Any
) -> None:
    remember(guest_session(page, live_server.url), "Name is Anna", "Lives in Turin")
    page.goto("/settings/")
    memory = page.locator("#memory")
    memory.locator(".memory-row > summary").click()

    # By the line itself: the note under each line names the chat, which says "Turin" too.
    turin = memory.locator("li").filter(has=page.locator(".memory-line", has_text="Turin"))
    turin.get_by_label("Edit: Lives in Turin").click()
    turin.get_by_role("textbox").fill("Lives in Milan")
    turin.get_by_role("button", name="Save").click()
    expect(page.locator("#memory .memory-line")).to_have_text(["Name is Anna", "Lives in Milan"])

    page.locator("#memory").get_by_label("Add a fact").fill("Prefers short answers")
    page.locator("#memory").get_by_role("button", name="Add").click()
    expect(page.locator("#memory .memory-line")).to_have_text(
        ["Name is Anna", "Lives in Milan", "Prefers short answers"]
    )

    page.locator("#memory").get_by_label("Add a fact").fill("my card is 4111.1111.1111.1111")
    page.locator("#memory").get_by_role("button", name="Add").click()
    expect(page.locator("#memory .notice.error")).to_contain_text("Memory doesn't keep secrets")
    assert Memory.objects.get().lines == ["Name is Anna", "Lives in Milan", "Prefers short answers"]


def test_a_guest_confirms_deleting_their_data_in_a_dialog(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    remember(guest, "Name is Anna")
    page.goto("/settings/")
    data = page.locator("#data")
    expect(data.get_by_label("Password")).to_have_count(0)

    data.get_by_role("button", name="Delete my data").click()
    dialog = page.locator("dialog#delete-data-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Delete your data?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert User.objects.filter(pk=guest.pk).exists()

    data.get_by_role("button", name="Delete my data").click()
    dialog.get_by_role("button", name="Delete my data").click()
    expect(page.locator(".notice.success")).to_have_text(
        "Deleted. Your chats, projects and memory are gone."
    )
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Memory.objects.filter(owner_id=guest.pk).exists()


def test_a_guest_confirms_deleting_their_data_on_a_page_without_javascript(
    browser: Browser, live_server: Any
) -> None:
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    guest = guest_session(page, live_server.url)
    page.goto("/settings/")
    page.locator("#data").get_by_role("button", name="Delete my data").click()
    expect(page.get_by_role("heading", name="Delete your data?")).to_be_visible()
    assert User.objects.filter(pk=guest.pk).exists()
    page.get_by_role("button", name="Delete my data").click()
    expect(page.locator(".notice.success")).to_contain_text("Deleted.")
    assert not User.objects.filter(pk=guest.pk).exists()
    context.close()


def test_logging_out_says_so(page: Page) -> None:
    make_account("anna@example.com")
    log_in(page, "anna@example.com", "a-long-passphrase-42")
    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".notice.success")).to_have_text("You're logged out.")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def test_a_guests_facts_follow_them_into_their_new_account(page: Page, eager_memory: None) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    wait_for_reply(page, 1)
    guest = User.objects.get()
    assert guest.is_guest and Memory.objects.get(owner=guest).lines

    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Email").fill("anna@example.com")
    page.get_by_label("Password").fill("a-long-passphrase-42")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    expect(page.locator(".sidebar")).to_contain_text("anna@example.com")

    page.get_by_role("link", name="Settings", exact=True).click()
    expect(page.get_by_text("Sign up to keep your chats")).to_have_count(0)
    page.locator("#memory .memory-row > summary").click()
    expect(page.locator("#memory .memory-line").filter(has_text="Anna")).to_have_count(1)
    account = User.objects.get(email="anna@example.com")
    assert any("Anna" in line for line in Memory.objects.get(owner=account).lines)
    assert not User.objects.filter(pk=guest.pk).exists()


def log_in(page: Page, email: str, password: str) -> None:
    page.goto("/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(c/\d+/)?$"))


def test_the_settings_page_screenshots_in_english_and_italian(
    browser: Browser, live_server: Any, scripted: Any, tmp_path: Path
) -> None:
    """Screenshots of Settings with the memory open and a few lines, for docs/screenshots/."""
    account = make_account("anna@example.com")
    for first_message in (
        "Help me plan a weekend in Lisbon",
        "Outline for my thesis on urban gardens",
        "Birthday ideas for Marco",
    ):
        conversation = chat_services.create_conversation(
            owner_id=account.pk, model="scripted/chat-a"
        )
        chat_services.send_message(conversation=conversation, content=first_message)
    remember(
        account,
        "Name is Anna",
        "Lives in Turin",
        "Works as a nurse",
        "Has two kids, Marco and Giulia",
        "Prefers short answers",
        "Learning Portuguese for a trip to Lisbon",
    )
    screenshots = DOCS_SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path
    screenshots.mkdir(parents=True, exist_ok=True)
    for locale, row, name in (
        ("en-US", "What Whizi remembers", "settings-en.png"),
        ("it-IT", "Cosa ricorda Whizi", "settings-it.png"),
    ):
        page = open_page(browser, live_server.url, locale=locale)
        log_in(page, "anna@example.com", "a-long-passphrase-42")
        page.goto("/settings/?memory=open")
        expect(page.locator("#memory .memory-row > summary")).to_contain_text(row)
        expect(page.locator("#memory .memory-line")).to_have_count(6)
        audit(page)
        page.screenshot(path=str(screenshots / name), full_page=True)
        assert (screenshots / name).stat().st_size > 10_000
        if locale == "en-US":  # where facts came from, and the History page with a version open
            page.locator("[data-show-sources]").check()
            page.locator("#memory").screenshot(path=str(screenshots / "settings-sources-en.png"))
            page.goto("/settings/memory/history")
            page.locator(".version-lines > summary").first.click()
            audit(page)
            page.screenshot(path=str(screenshots / "memory-history-en.png"), full_page=True)
        page.context.close()


def test_the_memory_essentials_work_without_javascript(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    remember(guest_session(page, live_server.url), "Name is Anna", "Lives in Turin")
    page.goto("/settings/")

    page.locator("#memory .memory-row > summary").click()
    page.locator("#memory li").filter(has_text="Turin").get_by_role("button").click()
    expect(page.locator("#memory .memory-line")).to_have_text(["Name is Anna"])
    expect(page.locator("#memory details.memory-row")).to_have_attribute("open", "")

    page.locator("#memory").get_by_role("button", name="Clear memory").click()
    expect(page.get_by_role("heading", name="Clear Whizi's memory?")).to_be_visible()
    page.get_by_role("button", name="Clear memory").click()
    expect(page.locator("#memory .memory-empty")).to_be_visible()
    assert Memory.objects.get().lines == []
    context.close()


def test_a_visitor_becomes_a_guest_by_acting_and_the_page_keeps_working(page: Page) -> None:
    page.goto("/settings/")
    page.goto("/")
    assert not User.objects.exists()  # looking creates nobody

    # The first fact, added without a page load, creates the guest (and rotates the CSRF
    # token: the page's other forms must keep working).
    page.goto("/settings/")
    page.locator("#memory").get_by_label("Add a fact").fill("Prefers short answers")
    page.locator("#memory").get_by_role("button", name="Add").click()
    expect(page.locator("#memory .memory-line")).to_have_text(["Prefers short answers"])
    guest = User.objects.get()
    assert guest.is_guest

    page.locator("#memory").get_by_label("Add a fact").fill("Lives in Turin")
    page.locator("#memory").get_by_role("button", name="Add").click()
    expect(page.locator("#memory .memory-line")).to_have_count(2)
    page.locator("#language").select_option("it")
    expect(page.get_by_role("heading", name="Impostazioni")).to_be_visible()
    assert list(User.objects.values_list("pk", flat=True)) == [guest.pk]
    assert Memory.objects.get(owner=guest).lines == ["Prefers short answers", "Lives in Turin"]


def test_a_remember_request_shows_memory_updated_without_a_reload_and_undo_reverts_it(
    page: Page, eager_memory: None
) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    # Set on this page as it loaded: a reload would lose it.
    page.evaluate("window.sameDocument = true")

    # It comes once the pass has run, after the reply (here the pass runs in the web server as
    # the reply's response ends, not on a worker).
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    expect(receipt).to_contain_text("Memory updated", timeout=15_000)
    expect(receipt.locator(".receipt-added").filter(has_text="Anna")).to_have_count(1)
    expect(receipt.locator(".receipt-added").filter(has_text="Turin")).to_have_count(1)
    expect(receipt.get_by_role("link", name="Memory settings")).to_have_attribute(
        "href", "/settings/?memory=open#memory"
    )
    assert page.evaluate("window.sameDocument") is True
    assert Memory.objects.get().lines

    # By keyboard: the Undo button takes focus and Enter presses it.
    undo = receipt.get_by_role("button", name="Undo", exact=True)
    undo.focus()
    page.keyboard.press("Enter")
    expect(receipt.locator("[data-receipt-status]")).to_have_text("Undone.")
    expect(receipt.get_by_role("button", name="Undo", exact=True)).to_have_count(0)
    assert Memory.objects.get().lines == []

    # Loaded again, the page still shows what that turn changed, undone, with nothing to undo.
    page.reload()
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    expect(receipt).to_contain_text("Memory updated")
    expect(receipt.get_by_role("button", name="Undo", exact=True)).to_have_count(0)
    expect(receipt.locator("[data-receipt-status]")).to_have_text("Undone.")
