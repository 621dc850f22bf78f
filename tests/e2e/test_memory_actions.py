"""Settings → Memory never drops an answer (issue 17, point 4): with the answers held back (as a
slow network would), actions asked while one is on its way are queued and each is applied and
shown; the action on its way says so; a failure leaves the section as the server has it, said.

The browser's requests to the memory endpoints are held by the test (``Held``) and let go one
at a time, so a run is the same however fast the machine is: each step waits for a condition
(a request arriving, an element showing), never for a duration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from accounts.models import User
from memory.models import Memory
from tests.e2e.conftest import guest_session
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTIONS = "**/settings/memory/{clear,switch,lines/**}"


def wait_until(page: Page, condition: Callable[[], bool], what: str) -> None:
    """Let the browser run until ``condition`` holds (bounded: 10 s, then the test fails)."""
    for _ in range(500):
        if condition():
            return
        page.wait_for_timeout(20)  # lets Playwright deliver the browser's events meanwhile
    raise AssertionError(f"never happened: {what}")


class Held:
    """The memory actions the browser sent, held until the test lets each go."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.routes: list[Route] = []
        self.sent = 0
        page.route(ACTIONS, self._hold)

    def _hold(self, route: Route) -> None:
        self.sent += 1
        self.routes.append(route)

    def wait_for(self, count: int) -> None:
        """Until ``count`` requests in all have been sent (and no more: one at a time)."""
        wait_until(self.page, lambda: self.sent >= count, f"request {count} sent")
        assert self.sent == count, "two memory actions were in flight at once"

    def release(self, answer: Callable[[Route], None] | None = None) -> None:
        route = self.routes.pop(0)
        (answer or (lambda r: r.continue_()))(route)


@pytest.fixture
def guest(page: Page, live_server: Any) -> User:
    guest = guest_session(page, live_server.url)
    remember(guest, "Name is Anna", "Lives in Turin", "Likes jazz")
    page.goto("/settings/?memory=open")
    return guest


def line(page: Page, text: str) -> Any:
    return page.locator("#memory li").filter(has=page.locator(".memory-line", has_text=text))


def lines(page: Page) -> Any:
    return page.locator("#memory .memory-line")


def test_two_quick_deletes_are_both_applied_and_shown(page: Page, guest: User) -> None:
    held = Held(page)
    line(page, "Lives in Turin").get_by_role("button", name="Delete: Lives in Turin").click()
    line(page, "Likes jazz").get_by_role("button", name="Delete: Likes jazz").click()
    held.wait_for(1)
    expect(page.locator("[data-memory-pending]")).to_have_text("Deleting… (2)")
    held.release()
    held.wait_for(2)
    # The line still queued stays out of sight in the list the first answer drew.
    expect(line(page, "Likes jazz")).to_be_hidden()
    held.release()

    expect(lines(page)).to_have_text(["Name is Anna"])
    expect(page.locator("[data-memory-pending]")).to_be_hidden()
    expect(page.locator("#memory .notice.success")).to_have_text(["Deleted.", "Deleted."])
    assert Memory.objects.get(owner=guest).lines == ["Name is Anna"]


def test_deletes_in_either_order_delete_the_lines_asked_for(page: Page, guest: User) -> None:
    """The second delete was drawn with the index before the first: it is found by its line."""
    held = Held(page)
    line(page, "Name is Anna").get_by_role("button", name="Delete: Name is Anna").click()
    line(page, "Lives in Turin").get_by_role("button", name="Delete: Lives in Turin").click()
    held.wait_for(1)
    held.release()
    held.wait_for(2)
    held.release()
    expect(lines(page)).to_have_text(["Likes jazz"])
    assert Memory.objects.get(owner=guest).lines == ["Likes jazz"]


def test_switch_off_then_add_shows_both(page: Page, guest: User) -> None:
    held = Held(page)
    page.locator("#memory").get_by_role("switch", name="Use memory").click()
    page.get_by_label("Add a fact").fill("Has a cat named Miso")
    page.get_by_role("button", name="Add", exact=True).click()
    held.wait_for(1)
    held.release()
    held.wait_for(2)
    held.release()

    expect(lines(page).filter(has_text="Has a cat named Miso")).to_have_count(1)
    switch = page.locator("#memory").get_by_role("switch", name="Use memory")
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(page.locator("#memory .notice.success")).to_have_text(["Saved."])
    memory = Memory.objects.get(owner=guest)
    assert not memory.enabled and "Has a cat named Miso" in memory.lines


def test_two_quick_adds_show_both(page: Page, guest: User) -> None:
    held = Held(page)
    box = page.get_by_label("Add a fact")
    box.fill("Has a cat named Miso")
    box.press("Enter")
    box.fill("Plays the cello")
    box.press("Enter")
    held.wait_for(1)
    held.release()
    held.wait_for(2)
    held.release()

    expect(lines(page).filter(has_text="Has a cat named Miso")).to_have_count(1)
    expect(lines(page).filter(has_text="Plays the cello")).to_have_count(1)
    expect(page.locator("#memory .notice.success")).to_have_text(["Saved.", "Saved."])
    assert Memory.objects.get(owner=guest).lines[-2:] == ["Has a cat named Miso", "Plays the cello"]


def test_a_slow_clear_says_it_is_clearing_until_it_is_done(page: Page, guest: User) -> None:
    held = Held(page)
    page.locator("#memory").get_by_role("button", name="Clear memory").click()
    page.locator("dialog#clear-memory-dialog").get_by_role("button", name="Clear memory").click()
    held.wait_for(1)
    expect(page.locator("[data-memory-pending]")).to_have_text("Clearing…")
    expect(page.locator("#memory")).to_have_attribute("aria-busy", "true")
    held.release()

    expect(page.locator("#memory .memory-empty")).to_be_visible()
    expect(page.locator("#memory .notice.success")).to_have_text(["Memory cleared."])
    expect(page.locator("[data-memory-pending]")).to_be_hidden()
    assert Memory.objects.get(owner=guest).lines == []


@pytest.mark.parametrize("failure", ["500", "offline"])
def test_a_failed_action_leaves_the_section_as_the_server_has_it(
    page: Page, guest: User, failure: str
) -> None:
    held = Held(page)
    line(page, "Likes jazz").get_by_role("button", name="Delete: Likes jazz").click()
    held.wait_for(1)
    expect(line(page, "Likes jazz")).to_be_hidden()  # it felt instant...
    if failure == "500":
        held.release(lambda route: route.fulfill(status=500, body="<h1>Server error</h1>"))
        said = "Couldn't save that change. This is what is saved now."
    else:
        held.release(lambda route: route.abort("internetdisconnected"))
        said = "You're offline or the server can't be reached. This is what was saved."

    # ...and comes back with the failure said, since the server still has it.
    expect(page.locator("#memory .notice.error")).to_have_text([said])
    expect(lines(page)).to_have_text(["Name is Anna", "Lives in Turin", "Likes jazz"])
    assert Memory.objects.get(owner=guest).lines == ["Name is Anna", "Lives in Turin", "Likes jazz"]


def test_a_fact_the_server_never_took_goes_back_in_the_box(page: Page, guest: User) -> None:
    held = Held(page)
    box = page.get_by_label("Add a fact")
    box.fill("Plays the cello")
    box.press("Enter")
    expect(box).to_have_value("")  # ready for the next one while this one is on its way
    held.wait_for(1)
    held.release(lambda route: route.abort("internetdisconnected"))
    expect(page.locator("#memory .notice.error")).to_be_visible()
    expect(page.get_by_label("Add a fact")).to_have_value("Plays the cello")
    assert "Plays the cello" not in Memory.objects.get(owner=guest).lines


def test_typing_the_next_fact_while_one_is_saved_loses_nothing(page: Page, guest: User) -> None:
    """The answer redraws the section while the person types: the box keeps their text and the
    cursor, and every fact typed lands."""
    held = Held(page)
    box = page.get_by_label("Add a fact")
    box.fill("Has a dog named Rex")
    box.press("Enter")
    held.wait_for(1)
    page.keyboard.type("Works as a")
    held.release()  # the first answer redraws the section mid-word
    expect(lines(page).filter(has_text="Has a dog named Rex")).to_have_count(1)
    page.keyboard.type(" baker")
    expect(page.get_by_label("Add a fact")).to_have_value("Works as a baker")
    expect(page.get_by_label("Add a fact")).to_be_focused()
    page.keyboard.press("Enter")
    held.wait_for(2)
    held.release()
    expect(lines(page).filter(has_text="Works as a baker")).to_have_count(1)
    assert Memory.objects.get(owner=guest).lines[-2:] == ["Has a dog named Rex", "Works as a baker"]


def test_a_refused_fact_goes_back_in_the_box_to_be_fixed(page: Page, guest: User) -> None:
    """Issue 28: a refusal answers 200 with its notice; the fact typed was lost."""
    box = page.get_by_label("Add a fact")
    box.fill("<b>Prefers tea</b> always")
    box.press("Enter")
    expect(page.locator("#memory .notice.error")).to_be_visible()
    expect(page.get_by_label("Add a fact")).to_have_value("<b>Prefers tea</b> always")
