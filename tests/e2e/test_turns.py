"""Stop, regenerate, edit and a failed send, in a real browser: a stopped reply keeps what had
arrived and says so; a regenerated reply takes the old one's place; an edit replaces the last
exchange; a message the server never got stays in the box, marked "Not sent" with why, and a
Retry sends it."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from chat.models import Conversation, Message
from tests.conftest import Streamed
from tests.e2e.test_browser import send, wait_for_reply

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_stop_keeps_what_arrived_and_marks_the_reply_stopped(
    page: Page, chat: Conversation, scripted: Any, settings: Any
) -> None:
    settings.CHAT_MODEL_TIMEOUT = 30  # the stream waits at `held` while the test clicks Stop
    settings.CHAT_STOP_CHECK_SECONDS = 0  # each delta looks: the cut is exact
    held = threading.Event()
    scripted.answer(Streamed("Once upon a time", held, " there was", " a long story", " end."))
    send(page, "Tell me a long story")
    reply = page.locator(".message.assistant")
    expect(reply.locator(".bubble")).to_contain_text("Once upon a time")
    expect(page.get_by_role("button", name="Send")).to_be_hidden()
    with page.expect_response("**/stop") as stopping:
        page.get_by_role("button", name="Stop").click()
        expect(page.get_by_role("button", name="Stopping…")).to_be_visible()
    assert stopping.value.status == 202
    held.set()  # the next delta finds the stop and ends the stream there

    wait_for_reply(page, 1)
    expect(reply.locator("[data-stopped]")).to_have_text("Stopped")
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    stored = Message.objects.get(role="assistant")
    assert stored.stopped
    assert stored.content == "Once upon a time there was"
    expect(reply.locator(".bubble")).to_have_text(stored.content)
    # Reloaded, the reply is still the stopped one, said so, and can be answered again.
    page.reload()
    expect(page.locator(".message.assistant [data-stopped]")).to_have_text("Stopped")
    expect(page.get_by_role("button", name="Regenerate")).to_be_visible()


def test_regenerate_replaces_the_last_reply_in_place(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    scripted.answer("First try.", "Second, better try.")
    send(page, "Name a colour")
    wait_for_reply(page, 1)
    expect(page.locator(".message.assistant .bubble")).to_have_text("First try.")
    page.get_by_role("button", name="Regenerate").click()
    wait_for_reply(page, 1)  # the old reply, hidden meanwhile, is gone once the new one is in
    expect(page.locator(".message.assistant .bubble")).to_have_text("Second, better try.")
    replies = Message.objects.filter(role="assistant")
    assert [reply.content for reply in replies] == ["Second, better try."]
    assert replies[0].reply_to_id == Message.objects.get(role="user").pk
    # Only the last reply offers it; reloaded, the page shows what the server has.
    scripted.answer("Teal.")
    send(page, "Another one")
    wait_for_reply(page, 2)
    expect(page.get_by_role("button", name="Regenerate")).to_have_count(1)
    expect(
        page.locator(".message.assistant").last.get_by_role("button", name="Regenerate")
    ).to_be_visible()
    page.reload()
    expect(page.locator(".message.assistant .bubble")).to_have_text(
        ["Second, better try.", "Teal."]
    )
    expect(page.get_by_role("button", name="Regenerate")).to_have_count(1)


def test_a_failed_reply_is_retried_with_one_click(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    scripted.answer(RuntimeError("the provider fell over"), "Here I am.")
    send(page, "Are you there?")
    expect(page.locator(".message.assistant.error")).to_be_visible()
    page.get_by_role("button", name="Retry").click()
    wait_for_reply(page, 1)
    expect(page.locator(".message.assistant .bubble")).to_have_text("Here I am.")
    expect(page.locator(".message.assistant.error")).to_have_count(0)
    assert list(Message.objects.values_list("role", "content")) == [
        ("user", "Are you there?"),
        ("assistant", "Here I am."),
    ]


def test_edit_replaces_the_last_exchange(page: Page, chat: Conversation, scripted: Any) -> None:
    scripted.answer("Nice to meet you, Bob.", "Nice to meet you, Rob.")
    send(page, "My name is Bob")
    wait_for_reply(page, 1)
    page.locator(".message.user").get_by_role("link", name="Edit").click()
    box = page.locator("textarea[name=content]")
    expect(box).to_have_value("My name is Bob")
    expect(page.locator("[data-editing]")).to_contain_text("Editing your message")
    # Cancel leaves everything as it was.
    page.locator("[data-editing]").get_by_role("button", name="Cancel").click()
    expect(box).to_have_value("")
    expect(page.locator("[data-editing]")).to_be_hidden()

    page.locator(".message.user").get_by_role("link", name="Edit").click()
    box.fill("My name is Rob")
    box.press("Enter")
    wait_for_reply(page, 1)
    expect(page.locator(".message.assistant .bubble")).to_have_text("Nice to meet you, Rob.")
    expect(page.locator(".message.user .bubble")).to_have_text(["My name is Rob"])
    expect(page.locator("[data-editing]")).to_be_hidden()
    assert list(Message.objects.values_list("role", "content")) == [
        ("user", "My name is Rob"),
        ("assistant", "Nice to meet you, Rob."),
    ]
    page.reload()
    expect(page.locator(".message .bubble")).to_have_text(
        ["My name is Rob", "Nice to meet you, Rob."]
    )


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        ("offline", "You're offline or the server can't be reached."),
        ("503", "The server couldn't take your message."),
        ("429", "Too many messages at once."),
    ],
)
def test_a_send_that_fails_keeps_the_text_says_why_and_retries(
    page: Page, chat: Conversation, scripted: Any, failure: str, said: str
) -> None:
    def refuse(route: Route) -> None:
        if failure == "offline":
            route.abort("internetdisconnected")
        elif failure == "503":
            route.fulfill(status=503, content_type="text/html", body="<h1>Bad gateway</h1>")
        else:
            route.fulfill(
                status=429,
                content_type="application/json",
                body='{"code": "throttled", "detail": "Too many messages at once."}',
            )

    page.route("**/messages", refuse)
    send(page, "Hello, are you there?")
    mine = page.locator(".message.user.not-sent")
    expect(mine.locator("[data-not-sent]")).to_contain_text(f"Not sent. {said}")
    expect(page.locator("textarea[name=content]")).to_have_value("Hello, are you there?")
    expect(page.locator(".message.assistant")).to_have_count(0)
    assert not Message.objects.exists()

    page.unroute("**/messages")
    scripted.answer("Yes, here.")
    mine.get_by_role("button", name="Retry").click()
    expect(page.locator(".message.assistant .bubble")).to_have_text("Yes, here.")
    expect(page.locator(".message.user .bubble")).to_have_text(["Hello, are you there?"])
    expect(page.locator(".not-sent")).to_have_count(0)
    expect(page.locator("textarea[name=content]")).to_have_value("")
    assert list(Message.objects.values_list("content", flat=True)) == [
        "Hello, are you there?",
        "Yes, here.",
    ]


def test_an_edit_whose_answer_was_lost_is_never_sent_twice(
    page: Page, chat: Conversation, scripted: Any
) -> None:
    """The server took the edit but its answer never came back: Retry finds the old message
    gone, and the page is drawn again as the server has it, the text still in the box."""
    scripted.answer("Hi Bob.", "Hi Rob.")
    send(page, "My name is Bob")
    wait_for_reply(page, 1)

    def lost(route: Route) -> None:
        route.fetch()  # the server stores the edit...
        route.abort("internetdisconnected")  # ...and its answer is lost on the way back

    page.route("**/messages", lost)
    page.locator(".message.user").get_by_role("link", name="Edit").click()
    box = page.locator("textarea[name=content]")
    box.fill("My name is Rob")
    box.press("Enter")
    expect(page.locator(".message.user.not-sent")).to_be_visible()
    page.unroute("**/messages")
    with page.expect_navigation():
        page.locator(".message.user.not-sent").get_by_role("button", name="Retry").click()

    expect(page.locator(".message .bubble")).to_have_text(["My name is Rob", "Hi Rob."])
    expect(box).to_have_value("My name is Rob")
    assert list(Message.objects.values_list("content", flat=True)) == ["My name is Rob", "Hi Rob."]
