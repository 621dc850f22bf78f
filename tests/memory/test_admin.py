"""The operators' admin (issue 13 point 7): memory events and the scheduling of passes, read-only,
staff only, and never a line of memory or a message's text on any page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.tokens import issue_token
from chat.models import Message
from memory.models import Memory, MemoryEvent
from memory.scheduling import COORDINATION_COLUMNS
from tests.conftest import make_account
from tests.memory.helpers import answer, conversation_with, memory_with, run_pass
from tests.web.test_security import INLINE

pytestmark = pytest.mark.django_db

LINE_CANARY = "Zanzibarquokka"
MESSAGE_CANARY = "Plumtreeflamingo"


@pytest.fixture
def operator() -> Client:
    User.objects.create_superuser(
        username="ops@example.com", email="ops@example.com", password="an-operator-passphrase-7"
    )
    client = Client()
    client.login(username="ops@example.com", password="an-operator-passphrase-7")
    return client


@pytest.fixture
def remembered(account, memory_model) -> Memory:
    """A person who said something and whose memory holds a line, through a real pass (so the
    trace has its events), with another pass owed and backing off."""
    conversation_with(account, f"My secret word is {MESSAGE_CANARY}", "Noted")
    memory = memory_with(account, "Likes jazz")
    memory_model.answer(answer("Likes jazz", f"Secret word is {LINE_CANARY}"))
    run_pass(memory, expect="ok")
    Memory.objects.filter(pk=memory.pk).update(
        pass_requested=True,
        pass_requested_at=timezone.now(),
        pass_failures=1,
        pass_not_before=timezone.now() + timedelta(minutes=5),
    )
    memory.refresh_from_db()
    assert LINE_CANARY in " ".join(memory.lines)
    assert Message.objects.filter(content__contains=MESSAGE_CANARY).exists()
    return memory


def admin_pages(memory: Memory) -> list[str]:
    """Every admin page an operator may open about this memory (searches for text echo the
    term the operator typed, so they are checked in the search test instead)."""
    event = MemoryEvent.objects.filter(owner_id=memory.owner_id).first()
    assert event is not None
    return [
        "/admin/",
        "/admin/memory/",
        "/admin/memory/memory/",
        "/admin/memory/memory/?owed=yes",
        "/admin/memory/memory/?owed=no",
        "/admin/memory/memory/?backing_off=yes",
        "/admin/memory/memory/?backing_off=no",
        "/admin/memory/memory/?running=yes",
        "/admin/memory/memory/?enabled__exact=1",
        f"/admin/memory/memory/?q={memory.owner_id}",
        f"/admin/memory/memory/{memory.pk}/change/",
        f"/admin/memory/memory/{memory.pk}/history/",
        "/admin/memory/memoryevent/",
        "/admin/memory/memoryevent/?kind__exact=pass",
        f"/admin/memory/memoryevent/?q={memory.owner_id}",
        f"/admin/memory/memoryevent/{event.pk}/change/",
    ]


def test_an_operator_sees_the_memory_pages_of_the_admin(operator, remembered):
    for url in admin_pages(remembered):
        assert operator.get(url).status_code == 200, url


def test_no_admin_page_shows_a_line_of_memory_or_a_message(operator, remembered, account):
    token = issue_token(account)
    for url in admin_pages(remembered):
        html = operator.get(url).content.decode()
        assert LINE_CANARY.lower() not in html.lower(), url
        assert MESSAGE_CANARY.lower() not in html.lower(), url
        assert "Likes jazz" not in html, url
        assert token not in html, url
        # Not even the field: no row, column or label for the list.
        assert re.search(r"(field|column)-lines\b", html) is None, url


def test_the_memory_changelist_shows_the_pass_scheduling_of_each_owner(operator, remembered):
    html = operator.get("/admin/memory/memory/").content.decode()
    for column in ("owner_id", "version", "tokens", "enabled", *COORDINATION_COLUMNS):
        assert f"column-{column}" in html, column


def test_the_owed_and_backing_off_filters_pick_the_right_owners(operator, remembered):
    calm = memory_with(make_account("bob@example.com"), owed=False)

    def listed(query: str) -> set[int]:
        response = operator.get(f"/admin/memory/memory/?{query}")
        assert response.status_code == 200
        return {memory.pk for memory in response.context["cl"].result_list}

    assert listed("owed=yes") == {remembered.pk}
    assert listed("owed=no") == {calm.pk}
    assert listed("backing_off=yes") == {remembered.pk}
    assert listed("backing_off=no") == {calm.pk}
    # Failures alone count as backing off, and so does a retry time still ahead.
    Memory.objects.filter(pk=remembered.pk).update(pass_failures=0)
    assert listed("backing_off=yes") == {remembered.pk}
    Memory.objects.filter(pk=remembered.pk).update(
        pass_not_before=timezone.now() - timedelta(seconds=1)
    )
    assert listed("backing_off=yes") == set()


def test_search_matches_an_owner_id_and_never_text(operator, remembered):
    def found(url: str) -> int:
        return len(operator.get(url).context["cl"].result_list)

    assert found(f"/admin/memory/memory/?q={remembered.owner_id}") == 1
    assert found("/admin/memory/memory/?q=jazz") == 0
    assert found(f"/admin/memory/memory/?q={LINE_CANARY}") == 0
    assert found(f"/admin/memory/memoryevent/?q={remembered.owner_id}") >= 1
    assert found("/admin/memory/memoryevent/?q=pass") == 0


def test_nothing_can_be_added_changed_or_deleted_from_the_admin(operator, remembered):
    event = MemoryEvent.objects.filter(owner_id=remembered.owner_id).first()
    for url in (
        "/admin/memory/memory/add/",
        f"/admin/memory/memory/{remembered.pk}/delete/",
        "/admin/memory/memoryevent/add/",
        f"/admin/memory/memoryevent/{event.pk}/delete/",
    ):
        assert operator.get(url).status_code == 403, url
        assert operator.post(url, {"post": "yes"}).status_code == 403, url
    # The change page is a view: posting to it changes nothing.
    response = operator.post(
        f"/admin/memory/memory/{remembered.pk}/change/", {"enabled": "", "lines": "[]"}
    )
    assert response.status_code == 403
    before = (remembered.lines, remembered.enabled, remembered.version)
    remembered.refresh_from_db()
    assert (remembered.lines, remembered.enabled, remembered.version) == before
    assert Memory.objects.count() == 1
    changelist = operator.get("/admin/memory/memory/").content.decode()
    assert "/admin/memory/memory/add/" not in changelist
    assert 'name="action"' not in changelist


def test_api_tokens_are_not_in_the_admin(operator, account):
    issue_token(account)
    assert operator.get("/admin/knox/authtoken/").status_code == 404
    assert "knox" not in operator.get("/admin/").content.decode()


def test_a_person_who_is_not_staff_is_sent_to_the_login_page(account):
    person = Client()
    person.force_login(account)
    for who in (person, Client()):
        for url in ("/admin/", "/admin/memory/memory/", "/admin/memory/memoryevent/"):
            response = who.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith("/admin/login/"), url


def test_staff_see_the_memory_pages_only_with_the_view_permission(account, remembered):
    account.is_staff = True
    account.save()
    staff = Client()
    staff.force_login(account)
    assert staff.get("/admin/memory/memory/").status_code == 403
    account.user_permissions.add(
        Permission.objects.get(codename="view_memory"),
        Permission.objects.get(codename="view_memoryevent"),
    )
    assert staff.get("/admin/memory/memory/").status_code == 200
    assert staff.get("/admin/memory/memoryevent/").status_code == 200
    assert staff.get(f"/admin/memory/memory/{remembered.pk}/change/").status_code == 200


def test_admin_pages_carry_the_security_headers_and_no_inline_code(operator, remembered):
    for url in [*admin_pages(remembered), "/admin/login/"]:
        response = operator.get(url) if url != "/admin/login/" else Client().get(url)
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY, url
        assert response["X-Frame-Options"] == "DENY", url
        html = response.content.decode()
        for pattern in INLINE:
            assert not pattern.search(html), (url, pattern.pattern)
