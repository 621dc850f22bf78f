"""A recorded set: scenarios with the raw answer a careful hosted model gave each.

Pure module. `manage.py memory_eval --recorded` replays each answer through the real pass
(`memory.engine.rewriting.propose_rewrite`), so the contract and the guards are measured on
hosted-style answers (preambles, fences, `<think>`, merges, secrets, wipes), not only on the
offline model. The shipped set lives in memory/eval_recorded/.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from memory.evaluation.scenarios import Scenario, load_scenarios

RECORDED_DIR: Final = Path(__file__).resolve().parent.parent / "eval_recorded"


@dataclass(frozen=True)
class Recording:
    scenarios: list[Scenario]
    # Scenario id → the answer text, exactly as the model wrote it.
    answers: dict[str, str]


def load_recorded(paths: Iterable[Path] | None = None) -> Recording:
    """Load a recorded set (default: the shipped one), each scenario with its raw `"answer"`."""
    answers: dict[str, str] = {}
    scenarios = load_scenarios(list(paths or [RECORDED_DIR]), answers=answers)
    return Recording(scenarios=scenarios, answers=answers)
