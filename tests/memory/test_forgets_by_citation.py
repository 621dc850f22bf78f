"""Everyday forgets, measured on phrasings written by a helper who saw neither the code nor the
phrase table (tests/memory/data/fresh_forgets.json: 48 in six languages). A careful model cites
the person's turn; code checks the citation, not the words, so every one is carried out and
tombstoned, whether or not the phrase table knows the phrasing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.models import ForgottenLine, Memory
from tests.memory.helpers import conversation_with, memory_with, raw_payload, run_pass

pytestmark = pytest.mark.django_db

FRESH = json.loads((Path(__file__).parent / "data" / "fresh_forgets.json").read_text())["items"]
OTHERS = ["Name is Sam", "Likes jazz", "Plays chess on Sundays", "Drinks green tea"]


def citing(line: str | None):
    """A careful model: removes the line asked about (or all), citing the person's turn."""

    def respond(messages):
        data = raw_payload(messages)
        (turn,) = [t["turn"] for t in data["transcript"] if t["role"] == "user"]
        shown = data["memory"]
        targets = [item for item in shown if line is None or item["text"] == line]
        removals = [
            {"op": "remove", "line": t["line"], "was": t["text"], "text": None, "turn": None}
            for t in targets
        ]
        what = "all" if line is None else [t["line"] for t in targets]
        return json.dumps({"edits": removals, "forget": [{"turn": turn, "what": what}]})

    return respond


@pytest.mark.parametrize(
    "item", FRESH, ids=[f"{i['language']}-{i['kind']}-{n}" for n, i in enumerate(FRESH)]
)
def test_a_fresh_everyday_forget_is_carried_out_when_the_model_cites_it(
    account, memory_model, item
):
    lines = [*OTHERS, item["line"]] if item["kind"] == "one" else OTHERS
    memory = memory_with(account, *lines)
    conversation_with(account, item["message"], "OK")
    memory_model.answer(citing(item["line"]))

    run_pass(memory, expect="ok")

    memory.refresh_from_db()
    assert memory.lines == ([] if item["kind"] == "all" else OTHERS)
    forgotten = ForgottenLine.objects.filter(memory=memory).count()
    assert forgotten == (len(OTHERS) if item["kind"] == "all" else 1)
    assert Memory.objects.get(pk=memory.pk).version == 2
