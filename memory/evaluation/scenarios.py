"""The scenario set of the memory quality harness: what a scenario is, and loading it from JSON.

Pure module; the format is in docs/MEMORY_EVAL.md, the shipped set in memory/eval_scenarios/.
Loading fails on a malformed scenario, naming file and id (never text), so a broken set cannot
silently score 100%.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

SCENARIO_DIR: Final = Path(__file__).resolve().parent.parent / "eval_scenarios"

LANGUAGES: Final = ("en", "it", "fr", "es", "de", "pt")
Task = Literal["rewrite", "voice"]

# The categories, in the order the table shows them. "keep-*" are the eleven everyday facts.
KEEP_TOPICS: Final = (
    "name",
    "home",
    "work",
    "family",
    "pets",
    "health",
    "diet",
    "birthday",
    "hobbies",
    "languages",
    "style",
)
CATEGORIES: Final = (
    *(f"keep-{topic}" for topic in KEEP_TOPICS),
    "drop",
    "correction",
    "forget",
    "secret",
    "instruction",
    "roleplay",
    "echo",
    "context",
    "voice",
    "language",
)

_ID_RE: Final = re.compile(r"^[a-z0-9][a-z0-9-]{1,63}$")
_ROLES: Final = ("user", "assistant")
_ESCAPE_RE: Final = re.compile(r"\\.")
_DATE_RE: Final = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RETRIED_RE: Final = re.compile(r"^(?:malformed_[a-z_]+|wipe_refused)$")


class ScenarioError(ValueError):
    """A scenario file that cannot be read; the message names the file and scenario id only."""


@dataclass(frozen=True)
class Pattern:
    """Regular expressions searched in a folded line (lowercase, accents removed)."""

    label: str
    alternatives: tuple[re.Pattern[str], ...]

    def search(self, folded: str) -> bool:
        return any(p.search(folded) for p in self.alternatives)


@dataclass(frozen=True)
class Fact:
    """A fact that must be present: one line matches every group and none of `forbidden`."""

    label: str
    groups: tuple[Pattern, ...]
    forbidden: tuple[Pattern, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    category: str
    language: str
    task: Task
    memory: tuple[str, ...]
    context: tuple[dict[str, str], ...]
    transcript: tuple[dict[str, str], ...]
    present: tuple[Fact, ...] = ()
    absent: tuple[Pattern, ...] = ()
    # Indexes into ``memory`` of the lines that must come back byte for byte.
    untouched: tuple[int, ...] = ()
    # At most this many lines that were not in ``memory`` (None: no limit).
    max_new_lines: int | None = None
    # A careless answer the pass must refuse with this outcome, the list untouched (retried).
    retried: str | None = None
    # Checks of a fact's line against the scenario's language (see scoring.LANGUAGE_RULES).
    language_checks: bool = True
    # Indexes of memory lines the person wrote or asked to remember, and when each line was
    # learned (YYYY-MM-DD; empty: today), as a pass's request shows them.
    pinned: tuple[int, ...] = ()
    learned: tuple[str, ...] = ()
    # A good answer, for readers of the set; the tests check that it passes its own scenario.
    reference: tuple[str, ...] | None = None
    source: str = field(default="", compare=False)


def load_scenarios(
    paths: Iterable[Path] | None = None, *, answers: dict[str, str] | None = None
) -> list[Scenario]:
    """Load every `*.json` of the given files or directories (default: the shipped set).

    With `answers`, each scenario must carry the raw `"answer"` a model gave (a recorded set)."""
    files: list[Path] = []
    for path in paths or [SCENARIO_DIR]:
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    scenarios: list[Scenario] = []
    seen: set[str] = set()
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            kind = type(error).__name__
            raise ScenarioError(f"{file.name}: not readable as JSON ({kind})") from None
        items = data.get("scenarios") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ScenarioError(f'{file.name}: expected {{"scenarios": [...]}}')
        for index, item in enumerate(items):
            where, answer = f"{file.name}#{index}", ""
            if answers is not None:
                item, answer = _recorded(item, where=where)
            scenario = _scenario(item, where=where)
            if scenario.id in seen:
                raise ScenarioError(f"{file.name}: duplicate scenario id {scenario.id}")
            seen.add(scenario.id)
            scenarios.append(scenario)
            if answers is not None:
                answers[scenario.id] = answer
    return scenarios


def _recorded(item: Any, *, where: str) -> tuple[Any, str]:
    """A recorded scenario: the scenario itself, and the raw answer text it carries."""
    if not isinstance(item, dict) or not isinstance(item.get("answer"), str):
        raise ScenarioError(f"{where}: a recorded scenario needs its answer (a string)")
    rest = {key: value for key, value in item.items() if key != "answer"}
    return rest, item["answer"]


def _scenario(item: Any, *, where: str) -> Scenario:
    if not isinstance(item, dict):
        raise ScenarioError(f"{where}: a scenario must be an object")
    sid = item.get("id")
    if not isinstance(sid, str) or not _ID_RE.match(sid):
        raise ScenarioError(f"{where}: missing or invalid id")
    where = f"{where} ({sid})"
    unknown = set(item) - {
        "id",
        "category",
        "language",
        "task",
        "memory",
        "context",
        "transcript",
        "expect",
        "about",
        "reference",
        "pinned",
        "learned",
    }
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {sorted(unknown)}")
    category, language = item.get("category"), item.get("language")
    if category not in CATEGORIES:
        raise ScenarioError(f"{where}: unknown category")
    if language not in LANGUAGES:
        raise ScenarioError(f"{where}: unknown language")
    task = item.get("task", "rewrite")
    if task not in ("rewrite", "voice"):
        raise ScenarioError(f"{where}: task must be rewrite or voice")
    memory = item.get("memory", [])
    if not isinstance(memory, list) or not all(isinstance(x, str) and x for x in memory):
        raise ScenarioError(f"{where}: memory must be a list of lines")
    transcript = _turns(item.get("transcript"), where=f"{where} transcript")
    if not any(turn["role"] == "user" for turn in transcript):
        raise ScenarioError(f"{where}: the transcript needs a user turn")
    expect = item.get("expect", {})
    if not isinstance(expect, dict) or set(expect) - {
        "present",
        "absent",
        "untouched",
        "max_new_lines",
        "language_checks",
        "retried",
    }:
        raise ScenarioError(f"{where}: expect has unknown keys")
    untouched = expect.get("untouched", list(range(len(memory))))
    if not isinstance(untouched, list) or not all(
        isinstance(i, int) and 0 <= i < len(memory) for i in untouched
    ):
        raise ScenarioError(f"{where}: untouched must list indexes of memory lines")
    max_new = expect.get("max_new_lines")
    if max_new is not None and (not isinstance(max_new, int) or max_new < 0):
        raise ScenarioError(f"{where}: max_new_lines must be a non-negative integer")
    retried = expect.get("retried")
    if retried is not None and not (isinstance(retried, str) and _RETRIED_RE.match(retried)):
        raise ScenarioError(f"{where}: retried must be a refusal code (malformed_*, wipe_refused)")
    pinned = item.get("pinned", [])
    if not isinstance(pinned, list) or not all(
        isinstance(i, int) and 0 <= i < len(memory) for i in pinned
    ):
        raise ScenarioError(f"{where}: pinned must list indexes of memory lines")
    learned = item.get("learned", [])
    if (
        not isinstance(learned, list)
        or len(learned) not in (0, len(memory))
        or not all(isinstance(d, str) and _DATE_RE.match(d) for d in learned)
    ):
        raise ScenarioError(f"{where}: learned must give one YYYY-MM-DD date per memory line")
    reference = item.get("reference")
    if reference is not None and (
        not isinstance(reference, list) or not all(isinstance(x, str) for x in reference)
    ):
        raise ScenarioError(f"{where}: reference must be a list of lines")
    present = tuple(_fact(f, where=where) for f in _list(expect.get("present"), where))
    absent = tuple(_pattern(p, where=where) for p in _list(expect.get("absent"), where))
    if not present and not absent and max_new is None and not untouched and not retried:
        raise ScenarioError(f"{where}: a scenario must expect something")
    return Scenario(
        id=sid,
        category=category,
        language=language,
        task=task,
        memory=tuple(memory),
        context=tuple(_turns(item.get("context", []), where=f"{where} context", empty=True)),
        transcript=tuple(transcript),
        present=present,
        absent=absent,
        untouched=tuple(untouched),
        max_new_lines=max_new,
        retried=retried,
        language_checks=bool(expect.get("language_checks", True)),
        reference=None if reference is None else tuple(reference),
        pinned=tuple(pinned),
        learned=tuple(learned),
        source=where,
    )


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list")
    return value


def _turns(value: Any, *, where: str, empty: bool = False) -> list[dict[str, str]]:
    if not isinstance(value, list) or (not value and not empty):
        raise ScenarioError(f"{where}: expected a list of turns")
    turns = []
    for turn in value:
        if (
            not isinstance(turn, dict)
            or turn.get("role") not in _ROLES
            or not isinstance(turn.get("content"), str)
        ):
            raise ScenarioError(f'{where}: a turn is {{"role": "user"|"assistant", "content"}}')
        turns.append({"role": turn["role"], "content": turn["content"]})
    return turns


def _fact(value: Any, *, where: str) -> Fact:
    """`{"fact": label, "any": [...]}` or `{"fact": label, "all": [[...], ...]}`, maybe `"not"`."""
    if not isinstance(value, dict) or not isinstance(value.get("fact"), str):
        raise ScenarioError(f"{where}: a present fact needs a label")
    label = value["fact"]
    if ("any" in value) == ("all" in value):
        raise ScenarioError(f"{where}: fact {label} needs exactly one of any / all")
    groups = [value["any"]] if "any" in value else value["all"]
    if not isinstance(groups, list) or not groups:
        raise ScenarioError(f"{where}: fact {label} has no alternatives")
    forbidden = value.get("not")
    return Fact(
        label=label,
        groups=tuple(_compile(label, g, where=where) for g in groups),
        forbidden=(_compile(f"{label}/not", forbidden, where=where),) if forbidden else (),
    )


def _pattern(value: Any, *, where: str) -> Pattern:
    if not isinstance(value, dict) or not isinstance(value.get("label"), str):
        raise ScenarioError(f"{where}: an absent pattern needs a label")
    return _compile(value["label"], value.get("any"), where=where)


def _compile(label: str, alternatives: Any, *, where: str) -> Pattern:
    if (
        not isinstance(alternatives, list)
        or not alternatives
        or not all(isinstance(a, str) and a for a in alternatives)
    ):
        raise ScenarioError(f"{where}: {label} needs a list of patterns")
    compiled = []
    for alternative in alternatives:
        # Lines are folded before matching, so an accent or capital could never match: refuse
        # it rather than score a silent miss.
        literal = _ESCAPE_RE.sub("", alternative)  # \W, \S, \D stay allowed
        if not alternative.isascii() or literal != literal.lower():
            raise ScenarioError(f"{where}: {label} patterns must be lowercase ASCII (folded)")
        try:
            compiled.append(re.compile(alternative))
        except re.error as error:
            raise ScenarioError(f"{where}: {label} has an invalid pattern") from error
    return Pattern(label=label, alternatives=tuple(compiled))
