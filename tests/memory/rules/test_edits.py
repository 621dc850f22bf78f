"""A pass's answer as edits against the numbered list: read leniently, applied by code, with
guards that never lose a fact."""

from __future__ import annotations

import json

import pytest

from memory.filters.gate import refusal_reason
from memory.rules.edits import (
    Answer,
    Edit,
    Evidence,
    apply_edits,
    edits_between,
    parse_answer,
)
from memory.rules.lines import MalformedAnswer

LIST = ["Name is Anna", "Lives in Turin", "Works at Acme", "Has a cat, Miso", "Likes jazz"]


def edits(*items: dict) -> str:
    return json.dumps({"edits": list(items)})


def apply(lines: list[str], text: str):
    return apply_edits(lines, parse_answer(text), refuse=refusal_reason)


# --- Reading the answer ------------------------------------------------------------------------


def test_an_empty_edit_list_means_unchanged():
    assert parse_answer('{"edits": []}') == Answer(edits=[], forgets=[])
    assert apply(LIST, '{"edits": []}').lines == LIST


@pytest.mark.parametrize(
    "wrapped",
    [
        'Here are the edits:\n{"edits": [{"op": "remove", "line": 2, "was": "Lives in Turin"}]}',
        '```json\n{"edits": [{"op": "remove", "line": 2, "was": "Lives in Turin"}]}\n```',
        '```\n{"edits": [{"op": "remove", "line": 2, "was": "Lives in Turin"}]}\n```\nLet me know.',
        '<think>The person moved; line 2 is wrong. {"edits": []}</think>\n'
        '{"edits": [{"op": "remove", "line": 2, "was": "Lives in Turin"}]}',
        '{"edits": [{"op": "remove", "line": 2, "was": "Lives in Turin"}]}\n\nNote: I moved it.',
        '  \n{"edits":[{"op":"remove","line":2,"was":"Lives in Turin"}]}  ',
    ],
)
def test_an_answer_wrapped_in_prose_fences_or_thinking_is_read(wrapped):
    assert parse_answer(wrapped).edits == [Edit("remove", line=2, was="Lives in Turin")]


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


@pytest.mark.parametrize(
    "item",
    [
        {"op": "add"},
        {"op": "replace", "line": "2", "was": "Lives in Turin", "text": "Lives in Milan"},
        {"op": "update", "line": 2, "was": "Lives in Turin", "text": "Lives in Milan"},
        {"op": "remove", "line": True, "was": "Lives in Turin"},
        {"op": "remove", "line": 2},  # no quote: nothing to check it against
        {"op": "replace", "line": 2, "was": "", "text": "Lives in Milan"},
        {"op": "add", "text": "Likes tea", "turn": "3"},
        "remove 3",
    ],
)
def test_an_edit_that_cannot_be_read_makes_the_whole_answer_malformed(item):
    with pytest.raises(MalformedAnswer) as caught:
        parse_answer(edits({"op": "add", "text": "Likes tea"}, item))
    assert caught.value.reason == "unreadable"


@pytest.mark.parametrize(
    "forget",
    [{"turn": "1", "what": "all"}, {"turn": 1, "what": "some"}, {"turn": 1, "what": []}, "all"],
)
def test_a_forget_that_cannot_be_read_makes_the_answer_malformed(forget):
    with pytest.raises(MalformedAnswer):
        parse_answer(json.dumps({"edits": [], "forget": [forget]}))


# --- Applying them -----------------------------------------------------------------------------


def replace(line: int, was: str, text: str, turn: int | None = None) -> dict:
    return {"op": "replace", "line": line, "was": was, "text": text, "turn": turn}


def remove(line: int, was: str, turn: int | None = None) -> dict:
    return {"op": "remove", "line": line, "was": was, "text": None, "turn": turn}


def test_untouched_lines_stay_verbatim_and_in_order():
    applied = apply(LIST, edits(replace(2, "Lives in Turin", "Lives in Milan")))
    assert applied.lines == [LIST[0], "Lives in Milan", *LIST[2:]]
    assert applied.replaced == 1


def test_additions_go_at_the_end_in_order():
    applied = apply(
        LIST[:2], edits({"op": "add", "text": "Likes tea"}, {"op": "add", "text": "Is vegan"})
    )
    assert applied.lines == [*LIST[:2], "Likes tea", "Is vegan"]


def test_a_merge_that_keeps_every_fact_is_a_replace_and_removes():
    applied = apply(
        LIST,
        edits(
            replace(4, "Has a cat, Miso", "Has a cat, Miso, and likes jazz"),
            remove(5, "Likes jazz"),
        ),
    )
    assert applied.lines == [*LIST[:3], "Has a cat, Miso, and likes jazz"]
    assert applied.removed == 1


RUTH = ["Name is Ruth", "Retired teacher", "Lives in York", "Husband is Tom", "Likes crosswords"]


@pytest.mark.parametrize(
    "number",
    [
        2,  # the wrong line: "Retired teacher" must not be overwritten
        3,
        99,  # no such line
        0,  # 0-based numbering
        -1,
    ],
)
def test_an_edit_is_placed_by_its_quote_whatever_its_number(number):
    applied = apply(RUTH, edits(replace(number, "Lives in York", "Lives in Leeds", turn=1)))
    assert applied.lines == ["Name is Ruth", "Retired teacher", "Lives in Leeds", *RUTH[3:]]


def test_a_quote_off_by_a_typo_or_its_case_still_places_the_edit():
    applied = apply(RUTH, edits(replace(2, "lives in york.", "Lives in Leeds")))
    assert "Lives in Leeds" in applied.lines and "Lives in York" not in applied.lines
    applied = apply(RUTH, edits(replace(3, "Lives in Yrok", "Lives in Leeds")))
    assert "Lives in Leeds" in applied.lines and "Lives in York" not in applied.lines


@pytest.mark.parametrize("quote", ["Lives in Leeds", "Works at Acme", "Lives"])
def test_an_edit_whose_quote_is_no_line_makes_the_answer_malformed(quote):
    with pytest.raises(MalformedAnswer) as caught:
        apply(RUTH, edits(replace(3, quote, "Lives in Leeds")))
    assert caught.value.reason == "unplaced"


def test_two_edits_on_one_line_make_the_answer_malformed():
    with pytest.raises(MalformedAnswer) as caught:
        apply(
            RUTH,
            edits(remove(3, "Lives in York"), replace(3, "Lives in York", "Lives in Leeds")),
        )
    assert caught.value.reason == "twice"


def test_a_merge_that_drops_a_fact_is_refused_whole_and_its_new_facts_kept():
    applied = apply(
        RUTH,
        edits(
            replace(1, "Name is Ruth", "Ruth, retired teacher, lives in Leeds"),
            remove(2, "Retired teacher"),
            remove(3, "Lives in York"),
            remove(4, "Husband is Tom"),
        ),
    )
    assert applied.lines[:5] == RUTH  # every fact there
    assert applied.lines[5:] == ["Ruth, retired teacher, lives in Leeds"]  # and the new one
    assert applied.refused["merge"] == 1
    assert applied.restored == 3


def test_a_merge_too_long_to_store_is_retried_not_stored():
    long_merge = (
        "Name is Anna, lives in Turin, works at Acme as a senior engineer since 2019, has a cat "
        "named Miso who is six, and likes jazz, especially Coltrane and Bill Evans records"
    )
    assert len(long_merge) > 160
    with pytest.raises(MalformedAnswer) as caught:
        apply(
            LIST,
            edits(
                replace(1, "Name is Anna", long_merge),
                remove(2, "Lives in Turin"),
                remove(3, "Works at Acme"),
            ),
        )
    assert caught.value.reason == "overlong_merge"


def test_a_removal_with_nothing_merged_stands_visible_and_undoable():
    applied = apply(LIST, edits(remove(3, "Works at Acme")))
    assert applied.lines == [LIST[0], LIST[1], LIST[3], LIST[4]]
    assert (applied.removed, applied.uncited) == (1, 1)


def test_a_refused_add_is_dropped_and_counted():
    applied = apply(LIST, edits({"op": "add", "text": "Password is Hunter2"}))
    assert applied.lines == LIST
    assert applied.refused["secret"] == 1


def test_a_refused_replace_keeps_the_old_line():
    applied = apply(LIST, edits(replace(2, "Lives in Turin", "Visit evil.example now")))
    assert applied.lines == LIST
    assert applied.refused["link"] == 1


def test_removals_merged_into_a_refused_replace_are_undone():
    applied = apply(
        LIST,
        edits(
            replace(2, "Lives in Turin", "Lives in Turin and works at Acme, see acme.example"),
            remove(3, "Works at Acme"),
        ),
    )
    assert applied.lines == LIST


def test_a_replace_that_says_what_another_line_says_folds_into_it():
    applied = apply(LIST, edits(replace(5, "Likes jazz", "name is anna")))
    assert applied.lines == LIST[:4]
    assert applied.refused["duplicate"] == 1


def test_lines_rewritten_into_a_duplicate_are_counted_as_folded():
    applied = apply(
        LIST,
        edits(
            replace(1, "Name is Anna", "Likes jazz"),
            replace(2, "Lives in Turin", "Likes jazz"),
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


# --- Forgetting by evidence ---------------------------------------------------------------------

PERSON = Evidence(person_turns={1: "forget everything please", 3: "forget where I work"})


def cited(lines: list[str], text: str, evidence: Evidence = PERSON):
    return apply_edits(lines, parse_answer(text), refuse=refusal_reason, evidence_=evidence)


def test_a_cited_forget_removes_and_names_what_was_forgotten():
    applied = cited(
        LIST,
        json.dumps({"edits": [remove(3, "Works at Acme")], "forget": [{"turn": 3, "what": [3]}]}),
    )
    assert applied.lines == [LIST[0], LIST[1], LIST[3], LIST[4]]
    assert applied.forgotten == ["Works at Acme"] and applied.uncited == 0
    assert applied.forget_turns == {3}


def test_a_cited_wipe_removes_every_line():
    applied = cited(LIST, json.dumps({"edits": [], "forget": [{"turn": 1, "what": "all"}]}))
    assert applied.lines == []
    assert applied.forgotten == LIST and applied.uncited == 0


@pytest.mark.parametrize("turn", [2, 4, 0])  # the assistant's turn, none, none
def test_a_forget_citing_a_turn_that_is_not_the_persons_is_malformed(turn):
    with pytest.raises(MalformedAnswer) as caught:
        cited(LIST, json.dumps({"edits": [], "forget": [{"turn": turn, "what": "all"}]}))
    assert caught.value.reason == "uncited"


def test_a_forget_naming_a_line_it_does_not_remove_is_malformed():
    with pytest.raises(MalformedAnswer) as caught:
        cited(
            LIST,
            json.dumps(
                {"edits": [remove(3, "Works at Acme")], "forget": [{"turn": 1, "what": [4]}]}
            ),
        )
    assert caught.value.reason == "unplaced"


def test_a_forget_names_a_removal_by_its_number_even_when_the_quote_moved_it():
    applied = cited(
        LIST,
        json.dumps({"edits": [remove(2, "Works at Acme")], "forget": [{"turn": 3, "what": [2]}]}),
    )
    assert applied.forgotten == ["Works at Acme"]


# --- Pinned lines -------------------------------------------------------------------------------

PINNED = Evidence(
    person_turns={1: "my cat is Mochi now, and forget my name"}, pinned=frozenset({1, 4})
)


def test_a_pass_cannot_remove_merge_or_reword_a_pinned_line():
    applied = cited(
        LIST,
        edits(
            replace(4, "Has a cat, Miso", "Has a cat"),
            remove(1, "Name is Anna"),
            replace(2, "Lives in Turin", "Lives in Turin; likes jazz"),
            remove(5, "Likes jazz"),
        ),
        PINNED,
    )
    assert applied.lines == [
        "Name is Anna",
        "Lives in Turin; likes jazz",
        "Works at Acme",
        "Has a cat, Miso",
    ]
    assert applied.refused["pinned"] == 2


def test_the_persons_cited_turn_corrects_or_forgets_a_pinned_line():
    applied = cited(
        LIST,
        json.dumps(
            {
                "edits": [
                    replace(4, "Has a cat, Miso", "Has a cat, Mochi", turn=1),
                    remove(1, "Name is Anna"),
                ],
                "forget": [{"turn": 1, "what": [1]}],
            }
        ),
        PINNED,
    )
    assert applied.lines == ["Lives in Turin", "Works at Acme", "Has a cat, Mochi", "Likes jazz"]


def test_a_condense_drops_unpinned_lines_to_fit():
    applied = cited(
        LIST,
        edits(
            replace(4, "Has a cat, Miso", "Has a cat, Miso; likes jazz"),
            remove(5, "Likes jazz"),
            remove(3, "Works at Acme"),  # dropped to fit, shares nothing with the merge
        ),
        Evidence(condense=True),
    )
    assert applied.lines == ["Name is Anna", "Lives in Turin", "Has a cat, Miso; likes jazz"]


# --- From whole lists --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "after",
    [
        LIST,
        [],
        [*LIST, "Is vegan"],
        ["Name is Anna", "Lives in Milan", *LIST[2:]],
        LIST[1:],
        ["Name is Anna", "Lives in Turin", "Works at Acme", "Has a cat, Miso, and likes jazz"],
    ],
)
def test_the_edits_between_two_lists_make_the_second(after):
    applied = apply_edits(LIST, Answer(edits=edits_between(LIST, after)), refuse=lambda _: None)
    assert applied.lines == after


@pytest.mark.parametrize(
    "text",
    [
        "I live in Turin",
        "my cat is Miso",
        "I'm vegan",
        "Io vivo a Torino",
        "Mi chiamo Giulia",
        "Je m'appelle Anna",
        "J'habite à Lyon",
        "Yo vivo en Madrid",
        "Ich wohne in Berlin",
        "Meine Katze heißt Miso",
        "Eu moro em Lisboa",
        "Moved to Lyon last month, loving it",  # turn 1, word for word
    ],
)
def test_a_line_that_is_the_persons_sentence_as_typed_is_refused(text):
    applied = cited(
        LIST,
        edits({"op": "add", "text": text}),
        Evidence(person_turns={1: "Moved to Lyon last month, loving it"}),
    )
    assert applied.lines == LIST
    assert applied.refused["first_person"] == 1


@pytest.mark.parametrize(
    "text",
    ["Lives in Turin", "Mikhail is his brother", "Ichthyology is a hobby", "Meets Eugene weekly"],
)
def test_a_third_person_line_is_not_taken_for_the_persons_sentence(text):
    applied = cited(LIST, edits({"op": "add", "text": text}), PERSON)
    assert applied.refused["first_person"] == 0


# --- The newer statement wins -------------------------------------------------------------------

HOMES = ["Name is Ruth", "Lives in York", "Likes crosswords", "Lives in Leeds"]
DATED = {1: "2024-02-01", 2: "2025-01-10", 3: "2025-03-01", 4: "2026-11-20"}


def test_a_replace_that_writes_an_older_statement_over_a_newer_one_is_refused():
    applied = cited(
        HOMES,
        edits(replace(4, "Lives in Leeds", "Lives in York"), remove(2, "Lives in York")),
        Evidence(person_turns={1: "what a week"}, learned=DATED),
    )
    assert "Lives in Leeds" in applied.lines
    assert applied.refused["older"] == 1


def test_a_replace_that_keeps_the_newer_statement_beside_the_older_one_is_applied():
    applied = cited(
        HOMES,
        edits(replace(4, "Lives in Leeds", "Lives in Leeds, moved from York")),
        Evidence(person_turns={1: "what a week"}, learned=DATED),
    )
    assert applied.lines[-1] == "Lives in Leeds, moved from York"
    assert not applied.refused


def test_the_persons_cited_turn_may_bring_an_older_statement_back():
    applied = cited(
        HOMES,
        edits(
            replace(4, "Lives in Leeds", "Lives in York", turn=1),
            remove(2, "Lives in York", turn=1),
        ),
        Evidence(person_turns={1: "We moved back to York"}, learned=DATED),
    )
    assert applied.lines == ["Name is Ruth", "Likes crosswords", "Lives in York"]


@pytest.mark.parametrize(
    "text",
    [
        "EU citizen",
        "MA in linguistics",
        "ME/CFS patient",
        "I.T. consultant",
        "Mon-Fri office hours",
    ],
)
def test_an_abbreviation_at_the_start_of_a_line_is_no_pronoun(text):
    applied = cited(LIST, edits({"op": "add", "text": text}), PERSON)
    assert applied.refused["first_person"] == 0 and text in applied.lines


# --- Seen in review: evidence that is no evidence ---------------------------------------------

ALLERGY = [
    "Name is Sam",
    "Likes jazz",
    "Works at Acme",
    "Allergic to peanuts",
    "Has a cat",
    "Plays chess",
]
SMALL_TALK = Evidence(person_turns={1: "hi, how are you?"}, pinned=frozenset({4}))


def test_a_turn_that_says_nothing_of_a_pinned_line_cannot_remove_or_reword_it():
    removed = cited(ALLERGY, edits(remove(4, "Allergic to peanuts", turn=1)), SMALL_TALK)
    assert "Allergic to peanuts" in removed.lines and removed.refused["pinned"] == 1
    reworded = cited(
        ALLERGY,
        edits(replace(4, "Allergic to peanuts", "Likes peanuts", turn=1)),
        SMALL_TALK,
    )
    assert "Allergic to peanuts" in reworded.lines and reworded.refused["pinned"] == 1


def test_removals_citing_a_turn_that_says_nothing_of_them_count_for_the_wipe_guard():
    applied = cited(
        ALLERGY,
        edits(*(remove(i, ALLERGY[i - 1], turn=1) for i in (1, 2, 3, 5, 6))),
        SMALL_TALK,
    )
    assert applied.uncited == 5


def test_a_refused_merge_keeps_the_correction_the_persons_turn_gave():
    lines = ["Is vegetarian", "Has a dog named Rex", "Has a cat named Tom"]
    applied = cited(
        lines,
        edits(
            replace(1, "Is vegetarian", "Is no longer vegetarian", turn=1),
            replace(2, "Has a dog named Rex", "Has pets"),
            remove(3, "Has a cat named Tom"),
        ),
        Evidence(person_turns={1: "I'm not vegetarian anymore"}),
    )
    assert applied.lines[:3] == [
        "Is no longer vegetarian",
        "Has a dog named Rex",
        "Has a cat named Tom",
    ]
    assert applied.refused["merge"] == 1


def test_a_merge_cannot_lean_on_a_line_it_removes_too_nor_drop_a_subject():
    lines = ["Has a dog named Rex", "Rex is a beagle", "Goes to a beagle club on Sundays"]
    applied = cited(
        lines,
        edits(
            replace(1, "Has a dog named Rex", "Has a dog"),
            remove(2, "Rex is a beagle"),
            remove(3, "Goes to a beagle club on Sundays", turn=1),
        ),
        Evidence(person_turns={1: "I stopped going to the club on Sundays"}),
    )
    assert "Rex is a beagle" in applied.lines


def test_a_forget_numbered_from_zero_forgets_only_the_line_it_names():
    lines = ["Name is Sam", "Likes jazz", "Works at Acme", "Plans a trip to Oslo"]
    applied = cited(
        lines,
        json.dumps(
            {
                "edits": [remove(2, "Works at Acme"), remove(3, "Plans a trip to Oslo")],
                "forget": [{"turn": 1, "what": [3]}],
            }
        ),
        Evidence(person_turns={1: "forget where I work"}),
    )
    # The line the removal was placed at names it: one line forgotten for good, not two.
    assert applied.forgotten == ["Works at Acme"]


def test_replaces_that_keep_nothing_of_their_lines_are_counted_as_removals():
    applied = cited(
        ALLERGY,
        edits(*(replace(i, ALLERGY[i - 1], f"Enjoys hobby number {i}") for i in (1, 2, 3, 5))),
        SMALL_TALK,
    )
    assert applied.rewritten == 4


def test_a_forget_citing_a_turn_that_never_mentions_the_line_is_an_ordinary_removal():
    applied = cited(
        ALLERGY,
        json.dumps(
            {"edits": [remove(4, "Allergic to peanuts")], "forget": [{"turn": 1, "what": [4]}]}
        ),
        Evidence(person_turns={1: "hi, how are you?"}),
    )
    assert "Allergic to peanuts" not in applied.lines  # shown and undoable
    assert applied.forgotten == [] and applied.uncited == 1  # but not forgotten for good
    pinned = cited(
        ALLERGY,
        json.dumps(
            {"edits": [remove(4, "Allergic to peanuts")], "forget": [{"turn": 1, "what": [4]}]}
        ),
        SMALL_TALK,
    )
    assert "Allergic to peanuts" in pinned.lines  # and a pinned line stays
