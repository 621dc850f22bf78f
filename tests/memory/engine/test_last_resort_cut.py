"""The last-resort positional cut keeps exactly what its rule says (SPEC §5, issue 13 point 6):
lines from the top, in order, while the rendered list stays within the cap, stopping at the
first line that does not fit. Checked line by line, as a pure function and through real passes,
so that a cut keeping fewer lines than fit (only the first, say) fails.

The expected lists are computed here from ``list_tokens`` (the cap's own measure), never by
calling the cut.
"""

import pytest

from memory.models import Memory, MemoryEvent
from memory.rules.budget import list_tokens, positional_cut
from tests.memory.helpers import answer, conversation_with, memory_with, payload, run_pass

HOBBIES = [
    "hiking",
    "sailing on the lake",
    "reading Italian crime novels",
    "jazz",
    "baking sourdough bread on Sundays",
    "chess",
    "restoring old bicycles with a friend",
    "swimming",
]


def varied_lines(count: int, start: int = 0) -> list[str]:
    """Distinct fact lines of uneven length, so that lines cost different numbers of tokens."""
    return [
        f"Fact {i}: the person enjoys {HOBBIES[i % len(HOBBIES)]} (item {i})"
        for i in range(start, start + count)
    ]


def longest_prefix_within(lines: list[str], limit: int) -> list[str]:
    """What the rule keeps: the lines from the top while the rendered list fits the limit,
    up to the first line that does not."""
    kept = 0
    while kept < len(lines) and list_tokens(lines[: kept + 1]) <= limit:
        kept += 1
    return lines[:kept]


# --- The pure function ------------------------------------------------------------------------


def test_last_resort_cut_keeps_every_line_that_fits():
    lines = ["Name is Anna", "Lives in Turin", "Likes jazz", "Has a dog named Rex"]
    three = list_tokens(lines[:3])
    assert positional_cut(lines, three) == ["Name is Anna", "Lives in Turin", "Likes jazz"]
    assert positional_cut(lines, three - 1) == ["Name is Anna", "Lives in Turin"]
    assert positional_cut(lines, list_tokens(lines)) == lines
    assert positional_cut(lines, list_tokens(lines[:1])) == ["Name is Anna"]


def test_last_resort_cut_keeps_the_longest_prefix_under_each_limit():
    lines = varied_lines(120)
    for limit in (50, 137, 400, 999, 2_000):
        expected = longest_prefix_within(lines, limit)
        assert len(expected) > 1, limit
        assert positional_cut(lines, limit) == expected, limit


def test_last_resort_cut_fills_the_cap_up_to_the_first_line_that_does_not_fit():
    lines = varied_lines(300)
    cut = positional_cut(lines, 2_000)
    assert cut == lines[: len(cut)]
    assert list_tokens(cut) <= 2_000
    # Not one line fewer than fits: the next line is what would go over.
    assert list_tokens(lines[: len(cut) + 1]) > 2_000
    assert len(cut) > 100


def test_last_resort_cut_stops_at_a_long_line_even_when_shorter_ones_after_it_would_fit():
    lines = [
        "Name is Anna",
        "Lives in Turin",
        "Works as " + "a very " * 60 + "busy nurse",
        "Likes jazz",
    ]
    limit = list_tokens(["Name is Anna", "Lives in Turin", "Likes jazz"])
    assert positional_cut(lines, limit) == ["Name is Anna", "Lives in Turin"]


# --- Through a real pass ----------------------------------------------------------------------


def run(memory: Memory) -> Memory:
    run_pass(memory, expect="ok")
    memory.refresh_from_db()
    return memory


@pytest.mark.django_db
def test_a_condense_answer_still_over_the_cap_is_stored_as_its_cut_line_by_line(
    account, memory_model, settings
):
    conversation_with(account, "lots about me", "ok")
    memory = memory_with(account)
    rewritten = varied_lines(400)
    # The condense answer differs from the rewrite (other lines, other order) and is still over.
    condensed = varied_lines(250, start=1_000)
    assert list_tokens(rewritten) > settings.MEMORY_TOKEN_LIMIT
    assert list_tokens(condensed) > settings.MEMORY_TOKEN_LIMIT
    memory_model.answer(answer(*rewritten), answer(*condensed))

    memory = run(memory)

    expected = longest_prefix_within(condensed, settings.MEMORY_TOKEN_LIMIT)
    assert len(expected) > 100
    assert len(memory.lines) == len(expected)
    assert memory.lines == expected
    assert memory.tokens == list_tokens(expected)
    assert list_tokens([*expected, condensed[len(expected)]]) > settings.MEMORY_TOKEN_LIMIT
    cut = MemoryEvent.objects.get(kind=MemoryEvent.Kind.CUT)
    assert (cut.lines_before, cut.lines_after) == (len(condensed), len(expected))
    assert MemoryEvent.objects.get(kind=MemoryEvent.Kind.PASS).lines_after == len(expected)


@pytest.mark.django_db
def test_a_failed_condense_stores_the_cut_of_the_rewrite_line_by_line(
    account, memory_model, settings
):
    conversation_with(account, "lots about me", "ok")
    memory = memory_with(account)
    rewritten = varied_lines(400)
    memory_model.answer(answer(*rewritten), "{not json")

    memory = run(memory)

    expected = longest_prefix_within(rewritten, settings.MEMORY_TOKEN_LIMIT)
    assert len(expected) > 100
    assert memory.lines == expected
    assert memory.tokens == list_tokens(expected)
    cut = MemoryEvent.objects.get(kind=MemoryEvent.Kind.CUT)
    assert (cut.lines_before, cut.lines_after) == (len(rewritten), len(expected))


@pytest.mark.django_db
def test_a_rewrite_over_one_calls_limit_goes_to_condense_as_its_cut_to_the_calls_room(
    account, memory_model, settings
):
    # One model call's input is capped (SPEC §2); the rules take 3,000 tokens of it.
    settings.MEMORY_CALL_TOKEN_LIMIT = 6_000
    room = settings.MEMORY_CALL_TOKEN_LIMIT - 3_000
    conversation_with(account, "lots about me", "ok")
    memory = memory_with(account)
    rewritten = varied_lines(400)
    assert list_tokens(rewritten) > room
    condensed = varied_lines(60, start=2_000)
    memory_model.answer(answer(*rewritten), answer(*condensed))

    memory = run(memory)

    condense_input = payload(memory_model.calls[1]["messages"])
    assert condense_input["task"] == "condense"
    expected = longest_prefix_within(rewritten, room)
    assert len(expected) > 100
    assert condense_input["memory"] == expected
    assert memory.lines == condensed
