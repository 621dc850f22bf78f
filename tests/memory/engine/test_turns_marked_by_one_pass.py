"""Two passes that read the same turns cannot both store from them (issue 13 point 6): the turns
are marked read with ``UPDATE … WHERE memory_state = unread`` in the transaction that stores the
list, and a row count short of what the pass read rolls the store back.

The compare-and-set on the version does not cover this on its own: a pass whose answer leaves
the list unchanged keeps the version (so a client's If-Match stays valid), and a pass that gives
turns up marks them without writing the list. Here the first pass's lease runs out while its
model call is still going (as if its worker were presumed dead) and another pass reads the same
turns and commits before the first one stores. Real commits, real PostgreSQL.
"""

from collections import Counter

import pytest
from django.conf import settings

from chat.models import Message
from memory.engine import passes
from memory.models import Memory, MemoryEvent
from tests.memory.helpers import (
    answer,
    conversation_with,
    ended_voice_session,
    later,
    meanwhile,
    memory_with,
    payload,
    run_pass,
)

pytestmark = pytest.mark.django_db(transaction=True)


def second_pass_after_the_lease_ran_out(memory: Memory, seen: dict) -> None:
    """The first pass's lease runs out (its worker presumed dead) and another worker's pass
    claims the owed pass, reads the same unread turns and stores what it made of them."""
    later(memory, settings.MEMORY_PASS_LEASE_SECONDS + 1)
    seen["second"] = passes.run_pass(memory_id=memory.pk)


def sources(calls: list[dict]) -> Counter:
    """How many memory model calls were given each turn as a source."""
    return Counter(
        turn["content"] for call in calls for turn in payload(call["messages"])["transcript"]
    )


def test_a_pass_whose_turns_another_pass_read_meanwhile_stores_nothing(account, memory_model):
    conversation_with(account, "My name is Anna", "Nice to meet you")
    memory = memory_with(account, "Likes jazz")
    seen: dict = {}
    memory_model.answer(
        # The first pass learns a name from the turn...
        meanwhile(
            lambda: second_pass_after_the_lease_ran_out(memory, seen),
            answer("Likes jazz", "Name is Anna"),
        ),
        # ...which the second pass, reading the very same turn, judged worth nothing.
        answer("Likes jazz"),
    )

    result = passes.run_pass(memory_id=memory.pk)

    # Both passes asked the model about the turn, but only the second one stored from it.
    assert sources(memory_model.calls)["My name is Anna"] == 2
    memory.refresh_from_db()
    assert memory.lines == ["Likes jazz"]
    assert memory.version == 1
    assert seen["second"].outcome == "unchanged"
    # The first pass's store was refused; it read again and found nothing left to read.
    assert result.outcome == "no_work"
    outcomes = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.PASS).values_list(
        "outcome", flat=True
    )
    assert list(outcomes) == ["unchanged"]
    assert set(
        Message.objects.filter(conversation__owner=account).values_list("memory_state", flat=True)
    ) == {Message.MemoryState.READ}


def test_a_turn_read_by_a_racing_pass_is_not_learned_twice(account, memory_model):
    conversation_with(account, "I like tea", "Noted")
    memory = memory_with(account, "Name is Anna")
    seen: dict = {}
    memory_model.answer(
        meanwhile(
            lambda: second_pass_after_the_lease_ran_out(memory, seen),
            # The first pass, given the list as it was, would add the fact a second time in
            # other words: reading a turn twice is how duplicates get in.
            answer("Name is Anna", "Enjoys tea"),
        ),
        answer("Name is Anna", "Likes tea"),
    )

    run_pass(memory, expect="no_work")

    assert seen["second"].outcome == "ok"
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna", "Likes tea"]
    assert memory.version == 2
    outcomes = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.PASS).values_list(
        "outcome", flat=True
    )
    assert list(outcomes) == ["ok"]


def test_turns_given_up_while_a_pass_was_reading_them_are_not_stored_from(account, memory_model):
    """A pass that failed its last drop gives its work up (marked skipped, never read, the list
    unchanged, no version bump). A pass still reading those turns must not store from them."""
    conversation_with(account, "My name is Anna", "Hi")
    memory = memory_with(account, "Likes jazz")

    def give_up_the_turns() -> None:
        later(memory, settings.MEMORY_PASS_LEASE_SECONDS + 1)  # the lease ran out
        Memory.objects.filter(pk=memory.pk).update(
            pass_failures=settings.MEMORY_PASS_DROPS_BEFORE_SKIP - 1
        )
        passes.drop_pass(memory_id=memory.pk)

    memory_model.answer(meanwhile(give_up_the_turns, answer("Likes jazz", "Name is Anna")))

    run_pass(memory, expect="no_work")

    memory.refresh_from_db()
    assert memory.lines == ["Likes jazz"]
    assert memory.version == 1
    assert set(
        Message.objects.filter(conversation__owner=account).values_list("memory_state", flat=True)
    ) == {Message.MemoryState.SKIPPED}
    outcomes = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.PASS).values_list(
        "outcome", flat=True
    )
    assert list(outcomes) == ["skipped"]


def test_a_voice_session_another_pass_read_meanwhile_is_not_stored_from_twice(
    account, memory_model
):

    memory = memory_with(account, "Likes jazz")
    session = ended_voice_session(
        account,
        {"role": "user", "content": "My name is Anna"},
        {"role": "assistant", "content": "Hello Anna"},
    )
    seen: dict = {}
    memory_model.answer(
        meanwhile(
            lambda: second_pass_after_the_lease_ran_out(memory, seen),
            answer("Likes jazz", "Name is Anna"),
        ),
        answer("Likes jazz"),
    )

    run_pass(memory, expect="no_work")

    assert [payload(call["messages"])["task"] for call in memory_model.calls] == ["voice"] * 2
    memory.refresh_from_db()
    assert memory.lines == ["Likes jazz"]
    assert memory.version == 1
    session.refresh_from_db()
    assert session.memory_turns_read == 2
    assert session.memory_pass_done_at is not None
    outcomes = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.VOICE_PASS).values_list(
        "outcome", flat=True
    )
    assert list(outcomes) == ["unchanged"]


def test_a_part_of_a_long_turn_another_pass_read_meanwhile_is_not_stored_from_twice(
    account, memory_model, settings
):
    """A long turn is read in parts; a part's mark moves only from where that part starts, so a
    pass that read a part another pass has stored meanwhile stores nothing from it. Here the
    other pass stores the first part unchanged (the version stays) and fails on the second, so
    the turn is still unread and neither the version nor the turn's state would tell."""
    from litellm.exceptions import RateLimitError

    settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT = 60
    # The first pass's model call lasts the whole second pass: two model calls of its own.
    settings.MEMORY_MODEL_TIMEOUT = 30
    words = " ".join(f"Word{i} is here." for i in range(60))
    conversation_with(account, words)
    memory = memory_with(account)
    seen: dict = {}

    def keeping(messages):
        return answer(*payload(messages)["memory"])(messages)

    memory_model.answer(
        meanwhile(
            lambda: second_pass_after_the_lease_ran_out(memory, seen),
            answer("Learned from the first part twice"),
        ),
        keeping,  # the second pass stores the first part...
        RateLimitError(message="slow down", llm_provider="scripted", model="memory"),
        *[keeping] * 20,  # ...and the first pass, refused, reads on from the second part
    )

    run_pass(memory, expect="unchanged")

    assert seen["second"].retry
    parts = [payload(call["messages"])["transcript"][0]["content"] for call in memory_model.calls]
    first, second = parts[0], parts[2]
    assert parts[:3] == [first, first, second]
    assert first + "".join(parts[3:]) == words  # read on from the second part, once each
    memory.refresh_from_db()
    assert (memory.lines, memory.version) == ([], 1)
    outcomes = MemoryEvent.objects.filter(kind=MemoryEvent.Kind.PASS).values_list(
        "outcome", flat=True
    )
    assert "ok" not in set(outcomes)
    message = Message.objects.get(conversation__owner=account)
    assert (message.memory_state, message.memory_read_to) == (Message.MemoryState.READ, len(words))
