"""The recorded set (memory/eval_recorded/): answers written the way a careful hosted model
answers, replayed by ``memory_eval --recorded`` through the real pass — the prompt is built, the
answer read, applied, filtered and guarded — so the prompt's contract and the guards are
measured in CI on hosted-style answers, not only on the offline model.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from memory.evaluation import RECORDED_DIR, ScenarioError, load_recorded, load_scenarios
from memory.rules import edits
from memory.rules.budget import count_tokens, list_tokens
from memory.rules.lines import MalformedAnswer

FULL_LIST_PASS = "rec-en-full-list-two-changes"


def run(*args: str) -> str:
    out = StringIO()
    call_command("memory_eval", *args, stdout=out)
    return out.getvalue()


def recorded_json(*args: str) -> dict[str, Any]:
    return json.loads(run("--recorded", "--json", *args))["models"][0]


def test_the_recorded_set_holds_120_answers_or_more_of_every_kind() -> None:
    recording = load_recorded()
    answers = recording.answers
    assert len(recording.scenarios) >= 120
    assert set(answers) == {s.id for s in recording.scenarios}
    # Written as hosted models write them, not only as clean JSON.
    assert sum(a.lstrip().startswith("```") for a in answers.values()) >= 5
    assert sum("<think>" in a for a in answers.values()) >= 5
    assert sum(not a.lstrip().startswith(("{", "```", "<think>")) for a in answers.values()) >= 5
    assert sum(not a.rstrip().endswith(("}", "```")) for a in answers.values()) >= 2
    categories = {s.category for s in recording.scenarios}
    assert {"secret", "instruction", "forget", "correction", "drop", "voice"} <= categories
    assert {s.language for s in recording.scenarios} == {"en", "it", "fr", "es", "de", "pt"}


def test_every_recorded_answer_is_readable_edits_unless_it_is_refused_as_unreadable() -> None:
    recording = load_recorded()
    for scenario in recording.scenarios:
        try:
            edits.parse_answer(recording.answers[scenario.id])
        except MalformedAnswer:
            assert scenario.retried == "malformed_unreadable", scenario.id


CARELESS = [
    "wrong-line",
    "zero-based",
    "double-edit",
    "unreadable-edit",
    "merge-drops-a-fact",
    "overlong-merge",
    "uncited-wipe",
    "cited-wipe",
    "forget-one-thing",
    "plan-past-its-date",
    "pinned-line-merged",
]


def test_every_careless_answer_is_recorded_in_six_languages_and_loses_no_fact() -> None:
    ids = {s.id for s in load_recorded().scenarios}
    for kind in CARELESS:
        for language in ("en", "it", "fr", "es", "de", "pt"):
            assert f"ev-{language}-{kind}" in ids
    report = recorded_json(*(arg for kind in CARELESS for arg in ("--id", f"ev-en-{kind}")))
    assert all(s["passed"] for s in report["scenarios"])


def test_a_recorded_scenario_without_its_answer_is_refused(tmp_path: Path) -> None:
    item = {
        "id": "no-answer",
        "category": "drop",
        "language": "en",
        "transcript": [{"role": "user", "content": "Hi"}],
        "expect": {"max_new_lines": 0},
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"scenarios": [item]}), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"r.json#0: a recorded scenario needs its answer"):
        load_recorded([path])
    # The same file is an ordinary scenario set; a recorded set is not (its answers).
    assert load_scenarios([path])[0].id == "no-answer"
    with pytest.raises(ScenarioError, match="unknown keys"):
        load_scenarios([RECORDED_DIR])


def test_the_replay_builds_the_real_prompt_and_bills_it() -> None:
    report = recorded_json("--id", "rec-en-name")
    (scenario,) = report["scenarios"]
    assert scenario["passed"]
    # The rules alone are over a thousand tokens: the real prompt went to the model.
    assert scenario["model_tokens_in"] > 1_000
    answer = load_recorded().answers["rec-en-name"]
    assert scenario["model_tokens_out"] == count_tokens(answer)


def test_the_guards_are_what_the_recorded_answers_meet() -> None:
    """The set holds answers that only pass because code refuses part of them."""
    report = recorded_json("--category", "secret", "--category", "instruction")
    assert all(s["passed"] for s in report["scenarios"])
    merge = recorded_json("--id", "rec-en-over-long-merge")["scenarios"][0]
    assert merge["passed"] and merge["untouched_kept"] == merge["untouched"] == 5
    wipe = recorded_json("--id", "rec-en-wipe", "--id", "rec-es-wipe")["scenarios"]
    assert [s["lines"] for s in wipe] == [0, 0]


def test_a_full_list_pass_that_changes_two_lines_answers_in_under_100_tokens() -> None:
    recording = load_recorded()
    scenario = next(s for s in recording.scenarios if s.id == FULL_LIST_PASS)
    answer = recording.answers[FULL_LIST_PASS]
    assert 1_900 <= list_tokens(scenario.memory) <= 2_000  # a full list
    assert len(edits.parse_answer(answer).edits) == 2
    assert count_tokens(answer) < 100

    (result,) = recorded_json("--id", FULL_LIST_PASS)["scenarios"]
    assert result["passed"] and result["untouched_kept"] == len(scenario.memory) - 1
    assert result["model_tokens_out"] == count_tokens(answer) < 100
    assert result["model_tokens_in"] > list_tokens(scenario.memory)  # the whole list went in


def test_recorded_mode_refuses_a_model_of_its_own() -> None:
    with pytest.raises(CommandError, match="--recorded brings its own"):
        run("--recorded", "--model", "openai/gpt-4o-mini")


def test_final_gate_the_recorded_answers_meet_recall_0_9_with_no_violation() -> None:
    out = run("--recorded", "--min-recall", "0.9", "--max-violations", "0", "--max-errors", "0")
    recording = load_recorded()
    assert f"memory_eval: recorded, {len(recording.scenarios)} scenarios" in out
    assert "model tokens out per pass" in out
    # Like every report: ids and labels, never a turn or a line.
    assert "Girasole2024" not in out and "Tom Hargreaves" not in out
