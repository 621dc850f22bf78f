"""Guests: their memory merges into the account at signup or login (SPEC §8)."""

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import delete_idle_guests, finish_guest_merge, merge_guest
from memory.models import Memory, MemoryEvent
from tests.conftest import make_account, owner_of_token
from tests.memory.helpers import answer, memory_with, payload

pytestmark = pytest.mark.django_db


def guest_client():
    token = APIClient().post("/api/v1/auth/guest").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client, owner_of_token(token)


def test_login_merges_guest_lines_without_duplicates_account_lines_first():
    account = make_account()
    memory_with(account, "Name is Anna", "Lives in Turin", owed=False)
    client, guest = guest_client()
    memory_with(guest, "lives in turin.", "Likes  jazz", "Name is Anna!", owed=False)

    response = client.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )

    assert response.status_code == 200
    assert Memory.objects.get(owner=account).lines == [
        "Name is Anna",
        "Lives in Turin",
        "Likes jazz",
    ]
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Memory.objects.filter(owner_id=guest.pk).exists()


def test_the_merge_is_idempotent():
    account = make_account()
    _, guest = guest_client()
    memory_with(guest, "Likes jazz", owed=False)
    merge_guest(guest=guest, account=account)
    merge_guest(guest=guest, account=account)
    assert Memory.objects.get(owner=account).lines == ["Likes jazz"]


def account_and_guest_over_the_cap_together():
    """An account and a guest whose lists fit alone but not merged (about 2,000 tokens each)."""
    account = make_account()
    _, guest = guest_client()
    for owner, who in ((account, "Account"), (guest, "Guest")):
        lines = [f"{who} fact {i} about a long and winding life story" for i in range(150)]
        memory_with(owner, *lines, owed=False)
    return account, guest


def test_a_merge_over_the_cap_goes_through_condense(
    memory_model, settings, django_capture_on_commit_callbacks
):
    account, guest = account_and_guest_over_the_cap_together()
    condensed = ["Name is Anna", *(f"Fact {i} of a long and winding life story" for i in range(60))]
    memory_model.answer(answer(*condensed))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        merge_guest(guest=guest, account=account)

    # The signup does not wait on the model: the guest is signed out and kept for the task.
    assert memory_model.calls == []
    assert len(callbacks) == 2  # the task sent, and the journal's entry of the ended tokens
    guest.refresh_from_db()
    assert not guest.is_active
    assert not AuthToken.objects.filter(user=guest).exists()
    assert Memory.objects.get(owner=account).lines[0].startswith("Account fact 0")

    assert finish_guest_merge(guest_id=guest.pk, account_id=account.pk)

    assert Memory.objects.get(owner=account).lines == condensed
    assert memory_model.calls[0]["messages"][0]["content"].count("CONDENSE") == 1
    assert not User.objects.filter(pk=guest.pk).exists()
    assert MemoryEvent.objects.filter(kind="merge", owner_id=account.pk).count() == 1


def test_a_failed_condense_in_a_merge_still_ends_under_the_cap(memory_model, settings):
    account, guest = account_and_guest_over_the_cap_together()
    memory_model.answer("")
    merge_guest(guest=guest, account=account)
    assert finish_guest_merge(guest_id=guest.pk, account_id=account.pk)
    memory = Memory.objects.get(owner=account)
    assert 0 < memory.tokens <= settings.MEMORY_TOKEN_LIMIT
    assert memory.lines[0] == "Account fact 0 about a long and winding life story"


def test_idle_guests_are_deleted_with_their_memory(settings):
    from datetime import timedelta

    from django.utils import timezone

    _, idle = guest_client()
    _, active = guest_client()
    memory_with(idle, "Likes jazz", owed=False)
    User.objects.filter(pk=idle.pk).update(
        last_seen_at=timezone.now() - timedelta(days=settings.GUEST_IDLE_DAYS + 1)
    )
    make_account().__class__.objects.filter(is_guest=False).update(
        last_seen_at=timezone.now() - timedelta(days=400)
    )

    assert delete_idle_guests() == 1

    assert not User.objects.filter(pk=idle.pk).exists()
    assert not Memory.objects.filter(owner_id=idle.pk).exists()
    assert User.objects.filter(pk=active.pk).exists()
    assert User.objects.filter(is_guest=False).exists()


def merge_waiting_for_the_model(account, settings):
    """A guest whose merge into ``account`` is over the cap, so it waits for the task."""
    settings.MEMORY_TOKEN_LIMIT = 12
    _, guest = guest_client()
    memory_with(guest, "Likes jazz music a lot", "Lives in Turin near the river", owed=False)
    memory_with(account, "Name is Anna and she works as an engineer", owed=False)
    merge_guest(guest=guest, account=account)
    assert User.objects.filter(pk=guest.pk, merging_into=account).exists()
    return guest


def test_a_clear_before_a_waiting_merge_finishes_brings_nothing_back(settings, memory_model):
    from memory.services import clear_memory

    account = make_account()
    guest = merge_waiting_for_the_model(account, settings)
    clear_memory(owner_id=account.pk)
    assert finish_guest_merge(guest_id=guest.pk, account_id=account.pk)
    assert Memory.objects.get(owner=account).lines == []
    assert not User.objects.filter(pk=guest.pk).exists()


def test_deleting_the_account_deletes_a_guest_waiting_to_merge_into_it(settings, memory_model):
    from accounts.services import delete_account

    account = make_account()
    guest = merge_waiting_for_the_model(account, settings)
    delete_account(user=account)
    assert finish_guest_merge(guest_id=guest.pk, account_id=account.pk)
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Memory.objects.exists()


def test_housekeeping_resends_waiting_merges_instead_of_deleting_them(
    settings, memory_model, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.services import resume_guest_merges

    account = make_account()
    guest = merge_waiting_for_the_model(account, settings)
    User.objects.filter(pk=guest.pk).update(last_seen_at=timezone.now() - timedelta(days=365))
    assert delete_idle_guests() == 0
    assert resume_guest_merges() == 1


def test_a_line_deleted_while_a_guest_waits_to_merge_does_not_come_back(memory_model, settings):
    from accounts import services as accounts
    from accounts.models import User
    from memory.services import delete_line
    from tests.conftest import make_account

    settings.MEMORY_TOKEN_LIMIT = 12  # the merge goes over the cap: a task finishes it later
    settings.MEMORY_TARGET_TOKENS = 10
    account = make_account()
    memory_with(account, "Likes tea", "Name is Anna", owed=False)
    guest = User.objects.create_guest()
    memory_with(guest, "Likes tea", "Works at Acme", owed=False)
    accounts.log_in(email=account.email, password="a-long-passphrase-42", guest=guest)
    assert User.objects.filter(pk=guest.pk, merging_into=account).exists()

    delete_line(owner_id=account.pk, index=0, expected_version=None)  # "Likes tea" goes
    memory_model.answer(lambda messages: answer(*payload(messages)["memory"]))
    assert accounts.finish_guest_merge(guest_id=guest.pk, account_id=account.pk)

    # The merge ran to its end and fit without the model: nothing was condensed or cut away, so
    # "Likes tea" stayed out because it was deleted (a condense that timed out would cut it too).
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Works at Acme"]
    assert not User.objects.filter(pk=guest.pk).exists()
    assert memory_model.calls == []


def test_a_line_edited_while_a_guest_waits_to_merge_does_not_come_back_in_its_old_words(
    memory_model, settings
):
    from accounts import services as accounts
    from memory.services import edit_line

    settings.MEMORY_TOKEN_LIMIT = 15  # the merge goes over the cap: a task finishes it later
    settings.MEMORY_TARGET_TOKENS = 10
    account = make_account()
    memory_with(account, "Likes tea very much indeed", "Name is Anna", owed=False)
    guest = User.objects.create_guest()
    memory_with(guest, "Likes tea very much indeed", "Works at Acme", owed=False)
    accounts.log_in(email=account.email, password="a-long-passphrase-42", guest=guest)
    assert User.objects.filter(pk=guest.pk, merging_into=account).exists()

    edit_line(owner_id=account.pk, index=0, text="Likes tea", expected_version=None)
    memory_model.answer(lambda messages: answer(*payload(messages)["memory"]))
    assert accounts.finish_guest_merge(guest_id=guest.pk, account_id=account.pk)

    # An edit buries nothing: the old words stay out because they left the guest's list too.
    # The merge fit without the model, so nothing was condensed or cut away to hide them.
    lines = Memory.objects.get(owner=account).lines
    assert lines == ["Likes tea", "Name is Anna", "Works at Acme"]
    assert not User.objects.filter(pk=guest.pk).exists()
    assert memory_model.calls == []


def test_a_line_the_guest_pinned_stays_pinned_in_the_account():
    account = make_account()
    client, _guest = guest_client()
    added = client.post("/api/v1/memory/lines", {"text": "Prefers short answers"}, format="json")
    assert added.status_code == 201
    memory_with(account, "Name is Anna", owed=False)

    response = client.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )

    assert response.status_code == 200
    mine = APIClient()
    mine.force_authenticate(account)
    items = {item["text"]: item for item in mine.get("/api/v1/memory").json()["items"]}
    assert (items["Prefers short answers"]["kind"], items["Prefers short answers"]["pinned"]) == (
        "merged",
        True,
    )
    assert items["Name is Anna"]["pinned"] is False
