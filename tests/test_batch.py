"""``core.batch``: several writes as one statement, all or nothing, decided on the rows as they
are when it takes their locks, and never by an error (which would put the values in the server's
log)."""

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from chat.models import Message
from core import batch
from memory.models import Memory, MemoryVersion
from tests.memory.helpers import conversation_with, memory_with
from tests.races import Held, in_background, lock_waiters, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

UNREAD, READ, PENDING = (
    Message.MemoryState.UNREAD,
    Message.MemoryState.READ,
    Message.MemoryState.PENDING,
)


@pytest.fixture
def turns(account):
    conversation = conversation_with(account, "My name is Anna", "Hello Anna")
    return list(conversation.messages.order_by("id").values_list("id", flat=True))


def a_pass(memory: Memory, turn_ids: list[int]) -> list[batch.Write]:
    """A pass's writes: the list at its version, its version row, and the turns it read."""
    return [
        batch.Update(
            Memory.objects.filter(pk=memory.pk, version=memory.version),
            {"lines": ["Name is Anna"], "version": F("version") + 1},
            expect=1,
        ),
        batch.Insert(
            MemoryVersion(memory_id=memory.pk, version=memory.version + 1, lines=["Name is Anna"])
        ),
        batch.Update(
            Message.objects.filter(pk__in=turn_ids, memory_state=UNREAD),
            {"memory_state": READ, "memory_version": batch.Inserted(1)},
            expect=len(turn_ids),
        ),
    ]


def states(turn_ids):
    return list(Message.objects.filter(pk__in=turn_ids).order_by("id").values_list("memory_state"))


def test_a_batch_is_one_statement_that_writes_everything(account, turns):
    memory = memory_with(account, owed=False)
    with CaptureQueriesContext(connection) as statements:
        assert batch.write(*a_pass(memory, turns))
    assert len(statements) == 1
    memory.refresh_from_db()
    assert (memory.lines, memory.version) == (["Name is Anna"], 2)
    version = MemoryVersion.objects.get(memory=memory, version=2)
    marked = Message.objects.filter(pk__in=turns).values_list("memory_state", "memory_version")
    assert set(marked) == {(READ, version.pk)}


@pytest.mark.parametrize("inside_a_transaction", [False, True])
def test_a_batch_whose_first_update_misses_writes_nothing(account, turns, inside_a_transaction):
    memory = memory_with(account, "Likes jazz", owed=False)
    Memory.objects.filter(pk=memory.pk).update(version=F("version") + 1)  # someone wrote first
    if inside_a_transaction:
        with transaction.atomic():
            assert not batch.write(*a_pass(memory, turns))
    else:
        assert not batch.write(*a_pass(memory, turns))
    assert Memory.objects.get(pk=memory.pk).lines == ["Likes jazz"]
    assert not MemoryVersion.objects.filter(memory=memory).exists()
    assert states(turns) == [(UNREAD,), (UNREAD,)]


def test_a_batch_whose_later_update_misses_writes_nothing(account, turns):
    memory = memory_with(account, "Likes jazz", owed=False)
    Message.objects.filter(pk=turns[1]).update(memory_state=PENDING)
    assert not batch.write(*a_pass(memory, turns))  # a miss, not an error
    memory.refresh_from_db()
    assert (memory.lines, memory.version) == (["Likes jazz"], 1)
    assert not MemoryVersion.objects.filter(memory=memory).exists()
    assert states(turns) == [(UNREAD,), (PENDING,)]


def test_a_turn_taken_away_while_the_batch_waits_for_it_makes_it_miss(account, turns):
    """The counts are of the rows as they are once locked, not as the statement first saw them:
    a turn another request set aside (committed while the batch waited) is not marked read."""
    memory = memory_with(account, "Likes jazz", owed=False)
    held = Held(lambda: Message.objects.filter(pk=turns[1]).update(memory_state=PENDING))
    thread, result = in_background(lambda: batch.write(*a_pass(memory, turns)))
    wait_until(lambda: lock_waiters() == 1)
    held.release()
    thread.join()
    assert result == [False]
    assert Memory.objects.get(pk=memory.pk).version == 1
    assert not MemoryVersion.objects.filter(memory=memory).exists()
    assert states(turns) == [(UNREAD,), (PENDING,)]


def test_a_batch_locks_the_first_updates_row_before_any_other(account, turns):
    """The memory row, then what sits under it (``core.db``'s lock order): while the batch waits
    for the memory row, it holds none of the turns, so a clear that holds the memory row and
    then takes the turns never deadlocks with it."""
    memory = memory_with(account, "Likes jazz", owed=False)
    held = Held(lambda: Memory.objects.filter(pk=memory.pk).update(version=F("version") + 1))
    thread, result = in_background(lambda: batch.write(*a_pass(memory, turns)))
    wait_until(lambda: lock_waiters() == 1)
    with transaction.atomic():  # the turns are free: NOWAIT would raise if they were not
        free = Message.objects.select_for_update(nowait=True).filter(pk__in=turns)
        assert len(free) == 2
    held.release()
    thread.join()
    assert result == [False]  # the version moved while it waited
    assert states(turns) == [(UNREAD,), (UNREAD,)]


def test_a_lazy_batch_commits_without_waiting_for_the_disk_only_itself(account, turns):
    memory = memory_with(account, owed=False)
    with CaptureQueriesContext(connection) as statements:
        assert batch.write(*a_pass(memory, turns), lazy=True)
    assert "set_config('synchronous_commit', 'off', true)" in statements[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    assert Memory.objects.get(pk=memory.pk).version == 2


def test_write_then_read_reads_only_when_the_update_happened(account):
    memory = memory_with(account, "Likes jazz", owed=False)
    mine = Memory.objects.filter(pk=memory.pk)
    with CaptureQueriesContext(connection) as statements:
        read = batch.write_then_read(
            batch.Update(mine.filter(version=1), {"enabled": True}, expect=1), mine
        )
    assert len(statements) == 1
    assert [row.lines for row in read] == [["Likes jazz"]]
    missed = batch.Update(mine.filter(version=7), {"enabled": False}, expect=1)
    assert batch.write_then_read(missed, mine) is None
    assert Memory.objects.get(pk=memory.pk).enabled


def test_turns_a_batch_holds_can_still_be_replied_to(account, turns):
    """Its locks are the update's own (``FOR NO KEY UPDATE``): a new reply's foreign key to a
    turn (``FOR KEY SHARE``) never waits for it, so a regenerate cannot deadlock with a pass."""
    memory = memory_with(account, "Likes jazz", owed=False)
    held = Held(lambda: Message.objects.filter(pk=turns[1]).update(content="Hello again"))
    thread, result = in_background(lambda: batch.write(*a_pass(memory, turns)))
    wait_until(lambda: lock_waiters() == 1)  # it holds the first turn, waits for the second
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM chat_message WHERE id = %s FOR KEY SHARE NOWAIT", [turns[0]])
    held.release()
    thread.join()
    assert result == [True]


def test_write_then_read_reads_the_row_a_write_it_waited_for_left(account):
    """Not the row as the statement first found it: a claim queued behind a delete must not
    show the model the deleted line."""
    memory = memory_with(account, "Likes jazz", "Secret line", owed=False)
    mine = Memory.objects.filter(pk=memory.pk)
    held = Held(lambda: mine.update(lines=["Likes jazz"], version=F("version") + 1))
    claim = batch.Update(mine, {"enabled": True}, expect=1)
    thread, result = in_background(lambda: batch.write_then_read(claim, mine))
    wait_until(lambda: lock_waiters() == 1)
    held.release()
    thread.join()
    [read] = result[0]
    assert (read.lines, read.version) == (["Likes jazz"], 2)


def test_a_pass_locks_its_turns_in_id_order(turns):
    """A turn read in parts comes before the whole turns after it, as it does in the list."""
    from chat.turns import ChatTurns
    from memory.turns import Part

    first_in_parts = Part(turn_id=turns[0], start=0, end=5, done=True)
    marks = ChatTurns().read_marks(tuple(turns), parts=(first_in_parts,))
    assert [list(mark.rows.values_list("pk", flat=True)) for mark in marks] == [
        [turns[0]],
        [turns[1]],
    ]


def test_a_batchs_statement_carries_no_line_of_memory(account, turns):
    """Its values travel apart from the SQL (server-side binding): what the server shows of it,
    in ``pg_stat_activity`` as in its log when it fails, holds no line."""
    memory = memory_with(account, "Likes jazz", owed=False)
    held = Held(lambda: Memory.objects.filter(pk=memory.pk).update(enabled=True))
    thread, result = in_background(lambda: batch.write(*a_pass(memory, turns)))
    wait_until(lambda: lock_waiters() == 1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT query FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        )
        [(waiting,)] = cursor.fetchall()
    held.release()
    thread.join()
    assert result == [True]
    assert "WITH l0(pk)" in waiting
    assert "Name is Anna" not in waiting
