"""Managing chats and projects in a real browser (issue 17, point 3): rename from the sidebar in
a dialog, delete with a confirmation, search the list, temporary chats kept out of it, and a
project edited and deleted — by keyboard where it matters."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from chat import services as chat_services
from chat.models import Conversation, Project
from tests.e2e.conftest import guest_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def chat(owner: User, first_message: str, **fields: Any) -> Conversation:
    conversation = chat_services.create_conversation(owner_id=owner.pk, **fields)
    chat_services.send_message(conversation=conversation, content=first_message)
    conversation.refresh_from_db()
    return conversation


def sidebar_item(page: Page, title: str):
    return page.locator(".conversation-list li").filter(
        has=page.get_by_role("link", name=title, exact=True)
    )


def open_actions(page: Page, title: str):
    item = sidebar_item(page, title)
    item.locator("summary").click()
    return item


def test_a_chat_is_renamed_from_the_sidebar_by_keyboard(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    conversation = chat(guest, "Ideas for a weekend away")
    page.goto(f"/c/{conversation.pk}/")
    summary = sidebar_item(page, "Ideas for a weekend away").locator("summary")
    expect(summary).to_have_accessible_name("Options for “Ideas for a weekend away”")
    summary.focus()
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Rename").focus()
    page.keyboard.press("Enter")

    dialog = page.get_by_role("dialog", name="Rename chat")
    expect(dialog).to_be_visible()
    box = dialog.get_by_label("Title")
    expect(box).to_be_focused()
    expect(box).to_have_value("Ideas for a weekend away")
    box.fill("   ")
    page.keyboard.press("Enter")
    expect(dialog.get_by_role("alert")).to_have_text("Give the chat a title.")
    box.fill("Lisbon in May")
    page.keyboard.press("Enter")

    expect(dialog).to_be_hidden()
    expect(sidebar_item(page, "Lisbon in May")).to_have_count(1)
    expect(page.locator(".chat-title")).to_have_text("Lisbon in May")
    expect(page).to_have_title(re.compile("^Lisbon in May"))
    conversation.refresh_from_db()
    assert conversation.title == "Lisbon in May"
    page.reload()
    expect(sidebar_item(page, "Lisbon in May")).to_have_count(1)


def test_escape_cancels_a_rename(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    conversation = chat(guest, "Ideas for a weekend away")
    page.goto(f"/c/{conversation.pk}/")
    open_actions(page, "Ideas for a weekend away").get_by_role("link", name="Rename").click()
    dialog = page.get_by_role("dialog", name="Rename chat")
    dialog.get_by_label("Title").fill("Something else")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    conversation.refresh_from_db()
    assert conversation.title == "Ideas for a weekend away"


def test_a_chat_is_deleted_from_the_sidebar_after_a_confirmation(
    page: Page, live_server: Any
) -> None:
    guest = guest_session(page, live_server.url)
    keep = chat(guest, "Birthday ideas for Marco")
    doomed = chat(guest, "Recipe for tiramisu")
    page.goto(f"/c/{keep.pk}/")

    open_actions(page, "Recipe for tiramisu").get_by_role("link", name="Delete").click()
    dialog = page.get_by_role("dialog", name="Delete chat?")
    expect(dialog.locator("[data-dialog-subject]")).to_have_text("Recipe for tiramisu")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert Conversation.objects.filter(pk=doomed.pk).exists()

    open_actions(page, "Recipe for tiramisu").get_by_role("link", name="Delete").click()
    dialog.get_by_role("button", name="Delete").click()
    expect(dialog).to_be_hidden()
    expect(sidebar_item(page, "Recipe for tiramisu")).to_have_count(0)
    expect(page).to_have_url(re.compile(rf"/c/{keep.pk}/$"))  # still on the chat we were in
    assert not Conversation.objects.filter(pk=doomed.pk).exists()


def test_deleting_the_open_chat_goes_home(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    older = chat(guest, "Birthday ideas for Marco")
    current = chat(guest, "Recipe for tiramisu")
    page.goto(f"/c/{current.pk}/")
    open_actions(page, "Recipe for tiramisu").get_by_role("link", name="Delete").click()
    page.get_by_role("dialog", name="Delete chat?").get_by_role("button", name="Delete").click()
    expect(page).to_have_url(re.compile(rf"/c/{older.pk}/$"))
    assert not Conversation.objects.filter(pk=current.pk).exists()


def test_searching_the_sidebar_finds_by_title_and_by_content(
    page: Page, live_server: Any, scripted: Any
) -> None:
    guest = guest_session(page, live_server.url)
    chat(guest, "Birthday ideas for Marco")
    dinner = chat_services.create_conversation(owner_id=guest.pk, model="scripted/chat-a")
    scripted.answer("A saffron risotto would be lovely.")
    chat_services.send_message(conversation=dinner, content="What should I cook tonight?")
    chat(guest, "Trip to Lisbon")
    page.goto("/")

    search = page.get_by_role("searchbox", name="Search chats")
    search.fill("RISOTTO")
    expect(page.locator(".conversation-list li a.conversation-link")).to_have_text(
        ["What should I cook tonight"]
    )
    search.fill("marco")
    expect(page.locator(".conversation-list li a.conversation-link")).to_have_text(
        ["Birthday ideas for Marco"]
    )
    search.fill("nothing like this")
    expect(page.locator(".conversation-list")).to_have_text("No chats found.")
    search.fill("")
    expect(page.locator(".conversation-list li a.conversation-link")).to_have_count(3)


def test_a_temporary_chat_stays_out_of_the_sidebar_and_home(page: Page, live_server: Any) -> None:
    guest = guest_session(page, live_server.url)
    kept = chat(guest, "Birthday ideas for Marco")
    page.goto("/c/new")
    page.get_by_label("Temporary chat").check()
    page.locator("textarea[name=content]").fill("A secret I won't keep")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(re.compile(r"/c/\d+/$"))
    expect(page.locator(".message.assistant")).to_have_count(1)
    expect(page.locator(".badge.temporary")).to_be_visible()
    expect(page.locator(".conversation-list")).not_to_contain_text("A secret")

    page.goto("/")
    expect(page).to_have_url(re.compile(rf"/c/{kept.pk}/$"))
    page.get_by_role("searchbox", name="Search chats").fill("secret")
    expect(page.locator(".conversation-list")).to_have_text("No chats found.")


def test_a_project_is_edited_then_deleted_after_a_confirmation(
    page: Page, live_server: Any
) -> None:
    guest = guest_session(page, live_server.url)
    project = chat_services.create_project(owner_id=guest.pk, name="Thesis", instructions="Old")
    chat(guest, "Chapter one", project=project)
    page.goto("/projects/")
    page.get_by_role("link", name="Edit “Thesis”").click()

    page.get_by_label("Name", exact=True).fill("Thesis on urban gardens")
    page.get_by_label("Instructions", exact=True).fill("Answer in British English.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".notice.success")).to_have_text("Project saved.")
    expect(page.locator(".project h2")).to_have_text(["Thesis on urban gardens"])
    expect(page.locator(".project-instructions")).to_have_text(["Answer in British English."])

    page.get_by_role("link", name="Edit “Thesis on urban gardens”").click()
    page.get_by_role("button", name="Delete project").click()
    dialog = page.get_by_role("dialog", name="Delete “Thesis on urban gardens”?")
    expect(dialog).to_contain_text("its 1 chat")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert Project.objects.exists()

    page.get_by_role("button", name="Delete project").click()
    dialog.get_by_role("button", name="Delete project").click()
    expect(page.locator(".notice.success")).to_have_text("Project deleted.")
    expect(page.locator(".project")).to_have_count(0)
    assert not Project.objects.exists()
    assert not Conversation.objects.exists()
