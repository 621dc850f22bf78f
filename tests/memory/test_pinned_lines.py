"""Pinned lines (SPEC §10a): what the person added, edited or asked to remember is theirs. A
background pass or a condense never removes, merges or rewords it unless the person's own turn,
cited, corrects or forgets it; the positional cut takes unpinned lines first."""

from __future__ import annotations

import pytest
from django.test import Client

from memory.models import Memory
from memory.rules import budget
from memory.services import get_memory
from tests.memory.helpers import answer, conversation_with, edits_answer, memory_with, run_pass

pytestmark = pytest.mark.django_db


def add(api, *texts: str) -> None:
    for text in texts:
        assert api.post("/api/v1/memory/lines", {"text": text}, format="json").status_code == 201


def owed(account, *turns: str) -> Memory:
    conversation_with(account, *turns)
    memory = get_memory(owner_id=account.pk)
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    return memory


def test_a_pass_cannot_merge_away_or_reword_a_line_the_person_added(api, account, memory_model):
    add(api, "Prefers short answers", "Has a cat, Miso")
    memory = owed(account, "My cat Miso turned six", "Happy birthday, Miso!")
    memory_model.answer(
        edits_answer(
            {"op": "replace", "line": 2, "was": "Has a cat, Miso", "text": "Has a cat, Miso, 6"},
            {"op": "remove", "line": 1, "was": "Prefers short answers"},
        )
    )

    run_pass(memory, expect="unchanged")

    memory.refresh_from_db()
    assert memory.lines == ["Prefers short answers", "Has a cat, Miso"]


def test_the_persons_cited_turn_corrects_a_pinned_line(api, account, memory_model):
    add(api, "Lives in York")
    memory = owed(account, "We moved to Leeds last week", "Exciting!")
    memory_model.answer(answer("Lives in Leeds"))  # cites turn 1 for the correction

    run_pass(memory, expect="ok")

    memory.refresh_from_db()
    assert memory.lines == ["Lives in Leeds"]
    (item,) = api.get("/api/v1/memory").json()["items"]
    assert item["pinned"] is True  # still the person's: corrected by them


def test_a_line_a_pass_keeps_from_a_remember_request_is_pinned(api, account, memory_model):
    memory = owed(account, "Remember that I'm allergic to peanuts", "Noted.")
    memory_model.answer(answer("Is allergic to peanuts"))
    run_pass(memory, expect="ok")

    (item,) = api.get("/api/v1/memory").json()["items"]
    assert (item["kind"], item["pinned"]) == ("remembered", True)
    page = Client()
    page.force_login(account)
    assert "Pinned" in page.get("/settings/?memory=open").content.decode()


def test_the_positional_cut_takes_unpinned_lines_first(api, account, memory_model, settings):
    learned = [f"Fact {i}: enjoys activity number {i} at the weekend" for i in range(300)]
    memory_with(account, *learned[:100], owed=False)
    add(api, "Prefers short answers")  # the person's, after 100 learned lines
    memory = owed(account, "lots about me", "ok")
    # The condense makes the lines above the pinned one longer: alone they overflow the cap.
    longer = [f"{line}, rain or shine, with friends from the climbing club" for line in learned]
    memory_model.answer(
        answer(*learned[:100], "Prefers short answers", *learned[100:]),
        answer(*longer[:100], "Prefers short answers", *longer[100:]),
    )

    run_pass(memory, expect="ok")

    memory.refresh_from_db()
    assert budget.list_tokens(memory.lines) <= settings.MEMORY_TOKEN_LIMIT
    assert budget.list_tokens(longer[:100]) > settings.MEMORY_TOKEN_LIMIT
    assert "Prefers short answers" in memory.lines
    rest = [line for line in memory.lines if line != "Prefers short answers"]
    assert rest == longer[: len(rest)]  # the top of the rest, in order
