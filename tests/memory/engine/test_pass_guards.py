"""A careful hosted model's answers, as edits, through a real pass: the guards never lose a
fact, and a wipe the person asked for in everyday words is carried out."""

from __future__ import annotations

import json

import pytest

from chat.models import Message
from memory.engine import passes
from memory.models import ForgottenLine, MemoryEvent
from memory.turns import TurnState
from tests.memory.helpers import (
    conversation_with,
    edits_answer,
    memory_with,
    payload,
    raw_payload,
)

LIST = ["Name is Anna", "Lives in Turin", "Works at Acme", "Has a cat, Miso", "Likes jazz"]


def run(memory):
    result = passes.run_pass(memory_id=memory.pk)
    memory.refresh_from_db()
    return result


def remove_all(messages):
    """A careless model that removes every line its request numbered, citing nothing."""
    shown = raw_payload(messages)["memory"]
    return edits_answer(
        *({"op": "remove", "line": item["line"], "was": item["text"]} for item in shown)
    )


def wipe_cited(messages):
    """A careful model that removes every line, citing the person's turn that asked."""
    data = raw_payload(messages)
    (turn,) = [t["turn"] for t in data["transcript"] if t["role"] == "user"]
    removals = json.loads(remove_all(messages))["edits"]
    return json.dumps({"edits": removals, "forget": [{"turn": turn, "what": "all"}]})


@pytest.mark.parametrize(
    "request_text",
    [
        "please wipe everything you know about me",
        "Delete everything you know about me.",
        "clear your memory",
        "Can you erase all you know about me?",
        "forget all that, actually forget everything",
        "Oublie tout ce que tu sais sur moi.",
        "Vergiss alles über mich.",
        "Cancella tutto quello che sai su di me",
        "Borra todo lo que sabes de mí, por favor",
        "Apaga tudo o que você sabe sobre mim",
    ],
)
def test_a_wipe_asked_for_in_everyday_words_is_carried_out(account, memory_model, request_text):
    conversation_with(account, request_text, "Done.")
    memory = memory_with(account, *LIST)
    memory_model.answer(wipe_cited)

    assert run(memory).outcome == "ok"
    assert memory.lines == []
    assert payload(memory_model.calls[0]["messages"])["forget_requested"] is True


@pytest.mark.parametrize(
    "request_text",
    [
        "could you clear out your memory of me? start fresh",
        "wipe everything you know about me pls",
        "ok new rule: you know nothing about me from now on",
        "tabula rasa, per favore: niente di quello che sai su di me",
    ],
)
def test_a_wipe_the_phrase_table_misses_is_carried_out_when_the_model_cites_it(
    account, memory_model, request_text
):
    conversation_with(account, request_text, "Sure.")
    memory = memory_with(account, *LIST)
    memory_model.answer(wipe_cited)

    assert run(memory).outcome == "ok"
    assert memory.lines == []
    assert ForgottenLine.objects.filter(memory=memory).count() == len(LIST)


def test_a_wipe_nobody_asked_for_is_refused_and_keeps_every_line(account, memory_model):
    conversation_with(account, "What's a good jazz album?", "Kind of Blue.")
    memory = memory_with(account, *LIST)
    memory_model.answer(*[remove_all] * 10)

    assert run(memory).outcome == "wipe_refused"
    assert memory.lines == LIST


def test_a_wipe_disguised_as_rewrites_into_one_line_is_refused(account, memory_model):
    conversation_with(account, "What's a good jazz album?", "Kind of Blue.")
    memory = memory_with(account, *LIST)
    memory_model.answer(
        *[
            edits_answer(
                *(
                    {"op": "replace", "line": n, "was": LIST[n - 1], "text": "Likes jazz"}
                    for n in (1, 2, 3, 4)
                )
            )
        ]
        * 10
    )

    assert run(memory).outcome == "wipe_refused"
    assert memory.lines == LIST


def test_an_over_long_merge_keeps_the_lines_it_would_have_replaced(account, memory_model):
    conversation_with(account, "I've had Miso for six years now", "Lovely!")
    memory = memory_with(account, *LIST)
    merged = (
        "Name is Anna, lives in Turin, works at Acme as an engineer since 2019, has a cat named "
        "Miso whom she adopted six years ago, and likes jazz, especially Coltrane records"
    )
    memory_model.answer(
        *[
            edits_answer(
                {"op": "replace", "line": 1, "was": LIST[0], "text": merged},
                *({"op": "remove", "line": n, "was": LIST[n - 1]} for n in (2, 3, 4, 5)),
            )
        ]
        * 10
    )

    # Retried, never stored: the new fact inside it (six years) is not lost with the turn.
    assert run(memory).outcome == "malformed_overlong_merge"
    assert memory.lines == LIST
    assert Message.objects.filter(role="user", memory_state=TurnState.UNREAD).count() == 1


def test_a_refused_add_is_dropped_and_the_rest_of_the_answer_stands(account, memory_model):
    conversation_with(account, "I moved to Milan. My wifi password is Girasole2024", "Noted.")
    memory = memory_with(account, *LIST)
    memory_model.answer(
        edits_answer(
            {"op": "replace", "line": 2, "was": "Lives in Turin", "text": "Lives in Milan"},
            {"op": "add", "line": None, "text": "Wifi password is Girasole2024"},
        )
    )

    assert run(memory).outcome == "ok"
    assert memory.lines == ["Name is Anna", "Lives in Milan", *LIST[2:]]
    assert MemoryEvent.objects.get(kind="pass").refused_lines == 1


def test_edits_naming_lines_that_do_not_exist_change_nothing_and_are_retried(account, memory_model):
    conversation_with(account, "Hi", "Hello")
    memory = memory_with(account, *LIST)
    memory_model.answer(
        *[
            edits_answer(
                {"op": "remove", "line": 9, "was": "Likes tea"},
                {"op": "replace", "line": 0, "was": "Is vegan", "text": "Is vegan"},
            )
        ]
        * 10
    )

    assert run(memory).outcome == "malformed_unplaced"
    assert memory.lines == LIST


@pytest.mark.parametrize(
    "wrapped",
    [
        'Sure! Here are the edits:\n{"edits": [{"op": "add", "line": null, "text": "Is vegan"}]}',
        '```json\n{"edits": [{"op": "add", "line": null, "text": "Is vegan"}]}\n```',
        '<think>She said she is vegan.</think>{"edits": [{"op": "add", "line": null, '
        '"text": "Is vegan"}]}',
        '{"edits": [{"op": "add", "line": null, "text": "Is vegan"}]}\nLet me know!',
    ],
)
def test_a_chatty_answer_is_read(account, memory_model, wrapped):
    conversation_with(account, "I'm vegan, what should I cook tonight?", "Try a curry.")
    memory = memory_with(account, "Name is Anna")
    memory_model.answer(wrapped)

    assert run(memory).outcome == "ok"
    assert memory.lines == ["Name is Anna", "Is vegan"]


def test_an_answer_that_cannot_be_read_fails_the_pass_and_keeps_the_turns(account, memory_model):
    conversation = conversation_with(account, "I'm vegan", "Noted")
    memory = memory_with(account, "Name is Anna")
    # Every try (the whole work, the one turn alone twice, no turn at all) answers the same.
    memory_model.answer(*['{"lines": ["Name is Anna", "Is vegan"]}'] * 4)

    result = run(memory)
    assert result.outcome == "malformed_wrong_shape" and result.retry
    assert memory.lines == ["Name is Anna"]
    assert conversation.messages.filter(memory_state=0).count() == 2  # still unread


def test_the_pass_tells_the_model_the_configured_shape(account, memory_model, settings):
    settings.MEMORY_TARGET_LINES, settings.MEMORY_TARGET_LINE_CHARS = 42, 50
    conversation_with(account, "Hi", "Hello")
    memory = memory_with(account, "Name is Anna")
    memory_model.answer('{"edits": []}')

    run(memory)
    rules = memory_model.calls[0]["messages"][0]["content"]
    assert "about 42 lines of about 50 characters" in " ".join(rules.split())
