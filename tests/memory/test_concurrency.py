"""Races with real commits: a pass against clears, deletions, other writers and other passes.

The scripted memory model acts in the middle of its own call (the model call runs in a worker
thread with its own database connection), which is exactly where a real race happens.
"""

import pytest

from accounts.services import delete_account
from memory.engine import passes
from memory.models import Memory
from memory.queueing import request_pass
from memory.services import clear_memory, get_memory, write_lines
from tests.memory.helpers import (
    answer,
    conversation_with,
    meanwhile,
    memory_with,
    payload,
    run_pass,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_clear_during_pass_brings_nothing_back(account, memory_model):
    conversation_with(account, "My name is Anna and I live in Turin", "Nice!")
    memory = memory_with(account, "Likes jazz")
    memory_model.answer(
        meanwhile(lambda: clear_memory(owner_id=account.pk), answer("Likes jazz", "Name is Anna"))
    )

    result = passes.run_pass(memory_id=memory.pk)

    memory.refresh_from_db()
    assert memory.lines == []
    assert result.outcome == "no_work"  # the retry found no turns after the clear
    assert len(memory_model.calls) == 1


def test_after_a_clear_memory_holds_only_what_later_turns_teach(account, memory_model):
    conversation_with(account, "My name is Anna", "Hi")
    memory = memory_with(account, "Name is Anna")
    clear_memory(owner_id=account.pk)
    conversation_with(account, "I live in Turin", "Nice")
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    memory_model.answer(answer("Lives in Turin"))
    run_pass(memory, expect="ok")
    transcript = payload(memory_model.calls[0]["messages"])["transcript"]
    assert [t["content"] for t in transcript] == ["I live in Turin", "Nice"]
    memory.refresh_from_db()
    assert memory.lines == ["Lives in Turin"]


def test_two_writers_racing_lose_no_update(account, memory_model):
    conversation_with(account, "I live in Turin", "Nice")
    memory = memory_with(account, "Name is Anna")

    def other_pass_writes():
        fresh = get_memory(owner_id=account.pk)
        assert write_lines(memory=fresh, lines=[*fresh.lines, "Likes jazz"], kind="pass")

    memory_model.answer(
        meanwhile(other_pass_writes, answer("Name is Anna", "Lives in Turin")),
        lambda messages: answer(*payload(messages)["memory"], "Lives in Turin"),
    )
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna", "Likes jazz", "Lives in Turin"]
    assert memory.version == 3


def test_a_trigger_during_a_pass_causes_exactly_one_more_pass(account, memory_model):
    conversation_with(account, "My name is Anna", "Hi")
    memory = memory_with(account)

    def new_turns_arrive():
        conversation_with(account, "I live in Turin", "Nice")
        request_pass(owner_id=account.pk)
        request_pass(owner_id=account.pk)  # a pile of triggers still means one more pass

    memory_model.answer(
        meanwhile(new_turns_arrive, answer("Name is Anna")),
        lambda messages: answer(*payload(messages)["memory"], "Lives in Turin"),
    )
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    assert len(memory_model.calls) == 2
    assert memory.lines == ["Name is Anna", "Lives in Turin"]
    assert not memory.pass_requested


def test_a_second_worker_cannot_run_a_pass_while_one_is_running(account, memory_model):
    conversation_with(account, "My name is Anna", "Hi")
    memory = memory_with(account)
    seen = {}

    def second_worker():
        Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
        seen["result"] = passes.run_pass(memory_id=memory.pk)

    memory_model.answer(meanwhile(second_worker, answer("Name is Anna")), answer("Name is Anna"))
    run_pass(memory, expect="ok")
    assert seen["result"].outcome == "not_owed"
    # The second trigger is not lost: the first worker took one more round for it, which found
    # no turns it had not read, so it asked the model nothing.
    memory.refresh_from_db()
    assert not memory.pass_requested
    assert len(memory_model.calls) == 1


def test_the_account_deleted_mid_pass_brings_nothing_back(account, memory_model):
    conversation_with(account, "My name is Anna", "Hi")
    memory = memory_with(account, "Likes jazz")
    memory_model.answer(meanwhile(lambda: delete_account(user=account), answer("Name is Anna")))

    run_pass(memory, expect="no_work")

    assert not Memory.objects.exists()


def test_a_guest_merge_during_the_accounts_pass_loses_neither_side(account, memory_model):
    from accounts.models import User
    from accounts.services import merge_guest

    guest = User.objects.create_guest()
    memory_with(guest, "Likes jazz", owed=False)
    conversation_with(account, "I live in Turin", "Nice")
    memory = memory_with(account, "Name is Anna")
    memory_model.answer(
        meanwhile(
            lambda: merge_guest(guest=guest, account=account),
            answer("Name is Anna", "Lives in Turin"),
        ),
        lambda messages: answer(*payload(messages)["memory"], "Lives in Turin"),
    )
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna", "Likes jazz", "Lives in Turin"]


def test_a_guest_merge_during_the_guests_pass_hands_its_unread_turns_to_the_account(
    account, memory_model
):
    from accounts.models import User
    from accounts.services import merge_guest

    guest = User.objects.create_guest()
    conversation_with(guest, "My name is Anna", "Hi")
    guest_memory = memory_with(guest, "Likes jazz")
    memory_model.answer(
        meanwhile(
            lambda: merge_guest(guest=guest, account=account), answer("Likes jazz", "Name is Anna")
        )
    )
    run_pass(guest_memory, expect="no_work")

    # The guest's pass brings nothing back to the guest (it is gone)...
    assert not Memory.objects.filter(owner_id=guest.pk).exists()
    account_memory = Memory.objects.get(owner=account)
    assert account_memory.lines == ["Likes jazz"]
    # ...and what it was reading is now the account's to learn from.
    assert account_memory.pass_requested
    memory_model.answer(lambda messages: answer(*payload(messages)["memory"], "Name is Anna"))
    run_pass(account_memory, expect="ok")
    assert Memory.objects.get(owner=account).lines == ["Likes jazz", "Name is Anna"]
    assert (
        payload(memory_model.calls[-1]["messages"])["transcript"][0]["content"] == "My name is Anna"
    )


def test_guest_turns_handed_over_during_the_accounts_pass_are_still_read(account, memory_model):
    from accounts.models import User
    from accounts.services import merge_guest

    guest = User.objects.create_guest()
    conversation_with(guest, "My name is Anna", "Hi")
    memory_with(guest, owed=True)  # the guest's pass is still owed
    conversation_with(account, "I live in Turin", "Nice")
    memory = memory_with(account, "Likes jazz")

    def learn(messages):
        said = [t["content"] for t in payload(messages)["transcript"]]
        extra = ["Name is Anna"] if "My name is Anna" in said else []
        return answer(*payload(messages)["memory"], *extra)

    memory_model.answer(
        meanwhile(
            lambda: merge_guest(guest=guest, account=account),
            answer("Likes jazz", "Lives in Turin"),
        ),
        learn,
        learn,
    )
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    assert "Name is Anna" in memory.lines
