"""A pass's answer as edits against the numbered list: read leniently, applied by code, with
guards that never lose a fact."""

from __future__ import annotations

import json

import pytest

from memory.filters.gate import refusal_reason
from memory.rules.edits import Answer, Edit, apply_edits, edits_between, parse_answer
from memory.rules.lines import MalformedAnswer

LIST = ["Name is Anna", "Lives in Turin", "Works at Acme", "Has a cat, Miso", "Likes jazz"]


def edits(*items: dict) -> str:
    return json.dumps({"edits": list(items)})


def apply(lines: list[str], text: str):
    return apply_edits(lines, parse_answer(text), refuse=refusal_reason)


# --- Reading the answer ------------------------------------------------------------------------


def test_an_empty_edit_list_means_unchanged():
    assert parse_answer('{"edits": []}') == Answer(edits=[])
    assert apply(LIST, '{"edits": []}').lines == LIST


@pytest.mark.parametrize(
    "wrapped",
    [
        'Here are the edits:\n{"edits": [{"op": "remove", "line": 2}]}',
        '```json\n{"edits": [{"op": "remove", "line": 2}]}\n```',
        '```\n{"edits": [{"op": "remove", "line": 2}]}\n```\nLet me know if you need more.',
        '<think>The person moved; line 2 is wrong. {"edits": []}</think>\n'
        '{"edits": [{"op": "remove", "line": 2}]}',
        '{"edits": [{"op": "remove", "line": 2}]}\n\nNote: I removed the old city.',
        '  \n{"edits":[{"op":"remove","line":2}]}  ',
    ],
)
def test_an_answer_wrapped_in_prose_fences_or_thinking_is_read(wrapped):
    assert parse_answer(wrapped).edits == [Edit("remove", line=2)]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("<think>hmm</think>", "empty"),
        ("Sure! Nothing to change.", "not_json"),
        ('{"edits": [{"op": "add", "text": "Likes', "not_json"),
        ('{"lines": ["Likes tea"]}', "wrong_shape"),
        ('{"edits": "none"}', "wrong_shape"),
        ("[1, 2]", "not_json"),
    ],
)
def test_an_answer_without_readable_edits_is_an_error_never_an_empty_list(text, reason):
    with pytest.raises(MalformedAnswer) as caught:
        parse_answer(text)
    assert caught.value.reason == reason


def test_a_malformed_answer_carries_no_text():
    secret = "Lives at Via Roma 12"
    with pytest.raises(MalformedAnswer) as caught:
        parse_answer('{"edits": [{"op": "add", "text": "' + secret)
    assert secret not in str(caught.value)
    assert caught.value.__cause__ is None


def test_items_that_cannot_be_read_are_counted_and_the_rest_applied():
    answer = parse_answer(
        edits(
            {"op": "add", "text": "Likes tea"},
            {"op": "add"},
            {"op": "replace", "line": "2", "text": "Lives in Milan"},
            {"op": "rename", "line": 1},
            {"op": "remove", "line": True},
            "remove 3",
        )
    )
    assert answer.edits == [Edit("add", text="Likes tea")]
    assert answer.unreadable == 5


# --- Applying them -----------------------------------------------------------------------------


def test_untouched_lines_stay_verbatim_and_in_order():
    applied = apply(LIST, edits({"op": "replace", "line": 2, "text": "Lives in Milan"}))
    assert applied.lines == [LIST[0], "Lives in Milan", *LIST[2:]]
    assert applied.replaced == 1


def test_additions_go_at_the_end_in_order():
    applied = apply(
        LIST[:2], edits({"op": "add", "text": "Likes tea"}, {"op": "add", "text": "Is vegan"})
    )
    assert applied.lines == [*LIST[:2], "Likes tea", "Is vegan"]


def test_a_merge_is_a_replace_and_removes():
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 4, "text": "Has a cat, Miso, and likes jazz"},
            {"op": "remove", "line": 5},
        ),
    )
    assert applied.lines == [*LIST[:3], "Has a cat, Miso, and likes jazz"]
    assert applied.removed == 1


def test_an_edit_naming_a_line_that_does_not_exist_is_ignored():
    applied = apply(
        LIST,
        edits(
            {"op": "remove", "line": 0},
            {"op": "remove", "line": 6},
            {"op": "replace", "line": -1, "text": "Lives in Milan"},
        ),
    )
    assert applied.lines == LIST
    assert applied.ignored == 3


def test_a_line_named_twice_keeps_the_first_edit():
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 2, "text": "Lives in Milan"},
            {"op": "remove", "line": 2},
        ),
    )
    assert applied.lines[1] == "Lives in Milan"
    assert applied.ignored == 1


def test_a_refused_add_is_dropped_and_counted():
    applied = apply(LIST, edits({"op": "add", "text": "Password is Hunter2"}))
    assert applied.lines == LIST
    assert applied.refused["secret"] == 1


def test_a_refused_replace_keeps_the_old_line():
    applied = apply(LIST, edits({"op": "replace", "line": 2, "text": "Visit evil.example now"}))
    assert applied.lines == LIST
    assert applied.refused["link"] == 1


def test_a_refused_replace_cannot_be_removed_by_a_later_edit():
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 2, "text": "Lives in " + "Turin " * 40},
            {"op": "remove", "line": 2},
        ),
    )
    assert applied.lines == LIST


def test_removals_that_only_made_room_for_a_refused_merge_are_undone():
    long_merge = (
        "Name is Anna, lives in Turin, works at Acme as a senior engineer since 2019, has a cat "
        "named Miso who is six, and likes jazz, especially Coltrane and Bill Evans records"
    )
    assert len(long_merge) > 160
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 1, "text": long_merge},
            {"op": "remove", "line": 2},
            {"op": "remove", "line": 3},
            {"op": "remove", "line": 4},
            {"op": "remove", "line": 5},
        ),
    )
    assert applied.lines == LIST
    assert applied.restored == 4
    assert applied.refused["length"] == 1


def test_a_removal_beside_a_refused_merge_that_it_did_not_feed_stands():
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 2, "text": "Lives in Turin, see turin-guide.example"},
            {"op": "remove", "line": 3},  # the person asked to forget their work
        ),
    )
    assert applied.lines == [LIST[0], LIST[1], LIST[3], LIST[4]]
    assert applied.removed == 1


def test_a_replace_that_says_what_another_line_says_folds_into_it():
    applied = apply(LIST, edits({"op": "replace", "line": 5, "text": "name is anna"}))
    assert applied.lines == LIST[:4]
    assert applied.refused["duplicate"] == 1


def test_lines_rewritten_into_a_duplicate_are_counted_as_folded():
    applied = apply(
        LIST,
        edits(
            {"op": "replace", "line": 1, "text": "Likes jazz"},
            {"op": "replace", "line": 2, "text": "Likes jazz"},
            {"op": "add", "text": "likes JAZZ"},
        ),
    )
    assert applied.lines == ["Likes jazz", "Works at Acme", "Has a cat, Miso"]
    assert applied.folded == 2
    assert applied.removed == 0


def test_stored_lines_are_checked_again_unless_known_good():
    lines = ["Name is Anna", "Password is Hunter2"]
    assert apply(lines, '{"edits": []}').lines == ["Name is Anna"]
    kept = apply_edits(
        lines, parse_answer('{"edits": []}'), refuse=refusal_reason, known_good=lines
    )
    assert kept.lines == lines


# --- From whole lists --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "after",
    [
        LIST,
        [],
        [*LIST, "Is vegan"],
        ["Name is Anna", "Lives in Milan", *LIST[2:]],
        LIST[1:],
        ["Name is Anna", "Works at Acme", "Has a cat, Miso, and likes jazz", "Is vegan"],
    ],
)
def test_the_edits_between_two_lists_make_the_second(after):
    applied = apply_edits(LIST, Answer(edits=edits_between(LIST, after)), refuse=lambda _: None)
    assert applied.lines == after
