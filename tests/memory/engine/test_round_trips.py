"""A pass's round trips to the database (issue 29): six at most, whether the list changes or
not, and one for a task with nothing owed. A transaction counts its BEGIN and COMMIT."""

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.filters.gate import RULES_VERSION
from memory.models import Memory, MemoryVersion
from tests.memory.helpers import answer, conversation_with, memory_with, payload, run_pass

pytestmark = pytest.mark.django_db(transaction=True)


def round_trips(action: Callable[[], object]) -> int:
    """Statements on this thread's connection, plus BEGIN and COMMIT for each transaction."""
    commits = [0]
    commit = connection._commit

    def counted() -> None:
        commits[0] += 1
        commit()

    connection._commit = counted
    try:
        with CaptureQueriesContext(connection) as statements:
            action()
    finally:
        del connection._commit
    return len(statements) + 2 * commits[0]


@pytest.fixture
def owed(account):
    memory = memory_with(account, "Lives in Turin", "Likes figs")
    Memory.objects.filter(pk=memory.pk).update(rules_version=RULES_VERSION)
    conversation_with(account, "What a day", "Indeed", "The weather is cold", "It is")
    return memory


def keeping(*new: str):
    return lambda messages: answer(*payload(messages)["memory"], *new)(messages)


def test_a_pass_that_leaves_the_list_as_it_is_takes_at_most_six_round_trips(owed, memory_model):
    memory_model.answer(keeping())
    assert round_trips(lambda: run_pass(owed, expect="unchanged")) <= 6


def test_a_pass_that_adds_a_line_takes_at_most_six_round_trips(owed, memory_model):
    memory_model.answer(keeping("Has a dog named Rex"))
    assert round_trips(lambda: run_pass(owed, expect="ok")) <= 6
    memory = Memory.objects.get(pk=owed.pk)
    assert memory.lines[-1] == "Has a dog named Rex"
    assert MemoryVersion.objects.filter(memory=memory, version=memory.version).exists()


def test_a_task_with_nothing_owed_takes_one_round_trip(account):
    memory = memory_with(account, "Lives in Turin", owed=False)
    assert round_trips(lambda: run_pass(memory, expect="not_owed")) == 1


def test_an_owed_pass_with_nothing_to_read_takes_three(account):
    memory = memory_with(account, "Lives in Turin")
    Memory.objects.filter(pk=memory.pk).update(rules_version=RULES_VERSION)
    assert round_trips(lambda: run_pass(memory, expect="no_work")) <= 3


def test_a_young_lists_tenth_write_does_not_look_for_versions_to_prune(account):
    """Only a list with more versions than are kept can have any to prune."""
    from memory import history
    from memory.services import write_lines

    memory = memory_with(account, "Lives in Turin", owed=False)
    Memory.objects.filter(pk=memory.pk).update(version=history.PRUNE_EVERY - 1)
    memory.refresh_from_db()
    with CaptureQueriesContext(connection) as statements:
        assert write_lines(memory=memory, lines=["Lives in Turin", "Likes figs"], kind="pass")
    assert len(statements) == 1


def test_a_failed_pruning_never_fails_the_write_it_follows(account, settings, caplog):
    from django.db import DatabaseError

    from memory import history
    from memory.services import write_lines

    def versions_unavailable(execute, sql, params, many, context):
        # The write's own batch goes through; the pruning after it does not.
        if "memory_memoryversion" in sql and not sql.startswith("WITH "):
            raise DatabaseError("the versions table is unavailable")
        return execute(sql, params, many, context)

    settings.MEMORY_HISTORY_KEEP_VERSIONS = 5
    memory = memory_with(account, "Lives in Turin", owed=False)
    Memory.objects.filter(pk=memory.pk).update(version=history.PRUNE_EVERY - 1)
    memory.refresh_from_db()
    with connection.execute_wrapper(versions_unavailable):
        assert write_lines(memory=memory, lines=["Lives in Turin", "Likes figs"], kind="pass")
    assert Memory.objects.get(pk=memory.pk).lines == ["Lives in Turin", "Likes figs"]
    assert "memory.prune_failed" in caplog.text
