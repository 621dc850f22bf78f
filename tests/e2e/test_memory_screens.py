"""Settings → Memory, its History and the chat's receipt as a person meets them (issue 28, points
5 and 6): one line of a receipt can be undone alone; History counts a change as it was made
and opens each version before Restore; Settings puts the switch first, says where facts came
from on demand and links to the very message, follows a pass while open, and a page opened
before a pass still does what was asked."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from chat.models import Message
from memory import services as memory_services
from memory.models import Memory
from tests.e2e.conftest import guest_session
from tests.e2e.test_browser import DOCS_SCREENSHOTS, REMEMBER_ANNA, send
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def saved_lines(owner: User) -> list[str]:
    return list(Memory.objects.get(owner_id=owner.pk).lines)


@pytest.fixture
def guest(page: Page, live_server: Any) -> User:
    guest = guest_session(page, live_server.url)
    remember(guest, "Name is Anna", "Lives in Turin", "Likes jazz")
    return guest


def remembered_anna(page: Page) -> Any:
    """A new chat that asked to remember two facts; its receipt, once the pass ran."""
    page.goto("/")
    send(page, REMEMBER_ANNA)
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    expect(receipt).to_contain_text("Memory updated", timeout=15_000)
    return receipt


def test_one_line_of_a_receipt_is_undone_alone_and_stays_undone(
    page: Page, eager_memory: None
) -> None:
    receipt = remembered_anna(page)
    expect(receipt.locator(".receipt-item")).to_have_text(["+ Name is Anna", "+ Lives in Turin"])
    owner = User.objects.get()

    receipt.get_by_role("button", name="Undo adding “Lives in Turin”").click()
    status = receipt.locator("[data-receipt-status]")
    expect(status).to_have_text("Undone.")
    expect(status).to_be_focused()
    assert saved_lines(owner) == ["Name is Anna"]
    expect(receipt.locator(".receipt-item.is-undone")).to_have_text(["+ Lives in Turin"])
    # The other line keeps its own Undo; the whole change's is gone (the list moved on).
    expect(receipt.get_by_role("button", name="Undo adding “Name is Anna”")).to_be_visible()
    expect(receipt.get_by_role("button", name="Undo", exact=True)).to_have_count(0)

    page.reload()
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    expect(receipt.locator(".receipt-item.is-undone")).to_have_text(
        ["+ Lives in Turin (no longer in memory)"]
    )
    receipt.get_by_role("button", name="Undo adding “Name is Anna”").click()
    expect(receipt.locator("[data-receipt-status]")).to_have_text("Undone.")
    assert saved_lines(owner) == []
    page.reload()
    expect(page.locator(".receipt-item.is-undone")).to_have_count(2)
    expect(page.locator("[data-receipt-undo]")).to_have_count(0)  # nothing left to undo


def test_the_receipt_is_one_row_under_the_turn_lined_up_with_the_reply_screenshots(
    page: Page, eager_memory: None
) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    receipt = page.locator("[data-receipt]").first
    expect(receipt).to_contain_text("Memory updated", timeout=15_000)
    reply = page.locator(".message.assistant .bubble").first
    row, answer = receipt.bounding_box(), reply.bounding_box()
    assert row is not None and answer is not None
    assert abs(row["x"] - answer["x"]) <= 2  # the reply's left edge
    height = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.memory-receipt')).fontSize)"
    )
    assert row["height"] <= 2.6 * height + 8  # one row (its 24 px buttons), not four lines
    if os.environ.get("UPDATE_SCREENSHOTS"):  # `make screenshots`
        page.locator(".messages").screenshot(path=str(DOCS_SCREENSHOTS / "memory-receipt-en.png"))


def test_history_counts_a_change_as_made_and_opens_each_version(page: Page, guest: User) -> None:
    memory_services.delete_line(owner_id=guest.pk, index=1, expected_version=None)  # Turin
    memory_services.add_line(owner_id=guest.pk, text="Has a cat")
    page.goto("/settings/memory/history")
    rows = page.locator(".memory-version").filter(has_not_text="You added a fact")
    expect(rows).to_have_count(2)
    # The delete's own line is no later deletion; the change that added it says it did.
    expect(rows.nth(0)).to_contain_text("0 added · 0 changed · 1 removed")
    expect(rows.nth(0)).not_to_contain_text("later deleted")
    expect(rows.nth(1)).to_contain_text(
        "3 added · 0 changed · 0 removed · a line you later deleted"
    )

    rows.nth(1).get_by_text("Show its 2 facts").click()
    expect(rows.nth(1).locator(".version-lines li")).to_have_text(["Name is Anna", "Likes jazz"])

    restore = rows.nth(1).get_by_role("button", name=re.compile("Restore version"))
    restore.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/settings/**#memory")
    notice = page.locator("#memory > .notice").first
    expect(notice).to_contain_text("Restored version")
    expect(notice).to_be_focused()


def test_a_clear_says_how_many_facts_it_removed(page: Page, guest: User) -> None:
    memory_services.clear_memory(owner_id=guest.pk)
    page.goto("/settings/memory/history")
    expect(page.locator(".memory-version")).to_have_count(1)
    expect(page.locator(".memory-version")).to_contain_text("Memory cleared")
    expect(page.locator(".memory-version")).to_contain_text("3 removed")


def test_settings_puts_the_switch_first_and_says_sources_on_demand(page: Page, guest: User) -> None:
    page.goto("/settings/?memory=open")
    order = page.evaluate(
        """() => [...document.querySelectorAll(
             '#memory .memory-switch, #memory .memory-row, #memory .memory-history-row')]
             .map((el) => el.className.split(' ').find((c) => c.startsWith('memory-')))"""
    )
    assert order == ["memory-switch", "memory-row", "memory-history-row"]
    sources = page.locator("#memory .memory-source")
    expect(sources.first).to_be_hidden()
    page.get_by_label("Show where each fact came from").check()
    # The three facts came from one pass: one caption, not one per fact.
    expect(sources).to_have_count(1)
    expect(sources.first).to_be_visible()
    # Still shown after an action draws the section again.
    page.get_by_role("button", name="Delete: Likes jazz").click()
    expect(page.locator("#memory .memory-line")).to_have_count(2)
    expect(page.locator("#memory .memory-source").first).to_be_visible()


def test_a_source_opens_the_chat_at_the_very_message(page: Page, eager_memory: None) -> None:
    page.goto("/")
    send(page, REMEMBER_ANNA)
    expect(page.locator("[data-receipt]")).to_contain_text("Memory updated", timeout=15_000)
    said = Message.objects.get(role=Message.Role.USER)
    page.goto("/settings/?memory=open")
    page.get_by_label("Show where each fact came from").check()
    link = page.locator("#memory .memory-source a").first
    expect(link).to_have_attribute("href", re.compile(rf"#message-{said.pk}$"))
    link.click()
    page.wait_for_url(f"**#message-{said.pk}")
    expect(page.locator(f"#message-{said.pk}")).to_be_in_viewport()


def test_an_open_settings_page_follows_a_pass_and_says_so(
    page: Page, guest: User, settings: Any
) -> None:
    settings.MEMORY_SECTION_REFRESH_SECONDS = 0.2
    page.goto("/settings/?memory=open")
    box = page.locator("#memory .add-line input[name=text]")
    box.fill("Plays the ce")  # half typed: kept through the refresh
    remember(guest, "Name is Anna", "Lives in Milan", "Likes jazz")  # a pass, meanwhile
    expect(page.locator("#memory .memory-line")).to_have_text(
        ["Name is Anna", "Lives in Milan", "Likes jazz"]
    )
    expect(page.locator("[data-memory-announcer]")).to_have_text("Memory updated")
    expect(box).to_have_value("Plays the ce")
    expect(box).to_be_focused()


def test_a_page_opened_before_a_pass_still_deletes_the_line_asked_for(
    page: Page, guest: User, settings: Any
) -> None:
    settings.MEMORY_SECTION_REFRESH_SECONDS = 0  # the page keeps the list it was drawn with
    page.goto("/settings/?memory=open")
    remember(guest, "Has a cat", "Name is Anna", "Lives in Turin", "Likes jazz")  # a pass
    page.get_by_role("button", name="Delete: Likes jazz").click()
    expect(page.locator("#memory .notice").first).to_have_text("Deleted.")
    expect(page.locator("#memory .memory-line")).to_have_text(
        ["Has a cat", "Name is Anna", "Lives in Turin"]
    )
    assert saved_lines(guest) == ["Has a cat", "Name is Anna", "Lives in Turin"]


def test_lines_undone_alone_stay_marked_after_an_unrelated_delete(
    page: Page, eager_memory: None
) -> None:
    """Issue 28: a later delete rewrites the change's record; what was undone stays said."""
    receipt = remembered_anna(page)
    receipt.get_by_role("button", name="Undo adding “Lives in Turin”").click()
    expect(receipt.locator("[data-receipt-status]")).to_have_text("Undone.")
    owner = User.objects.get()
    memory_services.add_line(owner_id=owner.pk, text="Likes jazz")
    memory_services.delete_line(owner_id=owner.pk, index=1, expected_version=None)  # jazz

    page.reload()
    receipt = page.locator(".message.user").first.locator("[data-receipt]")
    gone = receipt.locator(".receipt-item.is-undone")
    expect(gone).to_have_count(1)
    expect(gone).to_contain_text("+ Lives in Turin")
    expect(gone).to_contain_text("(no longer in memory)")  # said, not only struck through


def test_a_refresh_that_takes_the_focused_line_leaves_the_focus_in_the_list(
    page: Page, guest: User, settings: Any
) -> None:
    settings.MEMORY_SECTION_REFRESH_SECONDS = 0.2
    page.goto("/settings/?memory=open")
    page.get_by_role("button", name="Delete: Likes jazz").focus()
    remember(guest, "Name is Anna", "Lives in Turin")  # a pass took jazz
    expect(page.locator("#memory .memory-line")).to_have_count(2)
    expect(page.locator("#memory .memory-row > summary")).to_be_focused()


def test_restoring_the_list_as_it_is_says_there_was_nothing_to_restore(
    page: Page, guest: User
) -> None:
    remember(guest, "Name is Anna", "Lives in Turin", "Likes jazz", "Has a cat")
    memory_services.delete_line(owner_id=guest.pk, index=3, expected_version=None)  # the cat
    page.goto("/settings/memory/history")
    # The first list, without the cat deleted since, is the list now.
    page.locator(".memory-version").last.get_by_role("button").click()
    page.wait_for_url("**/settings/**#memory")
    expect(page.locator("#memory > .notice").first).to_have_text(
        "Nothing to restore: that version's facts are your memory now."
    )
