"""The memory quality harness (`manage.py memory_eval`, docs/MEMORY_EVAL.md).

Pure package: scenarios, scoring, replays of long conversations, tables. The command plugs the
real pass in as a callable.
"""

from memory.evaluation.recorded import RECORDED_DIR, Recording, load_recorded
from memory.evaluation.replay import ReplayReport, Session, load_replay, replay
from memory.evaluation.report import as_dict, comparison, replay_dict, replay_table, table
from memory.evaluation.scenarios import SCENARIO_DIR, Scenario, ScenarioError, load_scenarios
from memory.evaluation.scoring import (
    PassOutcome,
    Report,
    ScenarioScore,
    evaluate,
    score,
    summarize,
    threshold_failures,
)

__all__ = [
    "RECORDED_DIR",
    "SCENARIO_DIR",
    "PassOutcome",
    "Recording",
    "ReplayReport",
    "Report",
    "Scenario",
    "ScenarioError",
    "ScenarioScore",
    "Session",
    "as_dict",
    "comparison",
    "evaluate",
    "load_recorded",
    "load_replay",
    "load_scenarios",
    "replay",
    "replay_dict",
    "replay_table",
    "score",
    "summarize",
    "table",
    "threshold_failures",
]
