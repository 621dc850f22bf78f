"""Scoring a memory pass against a scenario, and adding scores up per category.

Pure module. A fact is kept when one new line matches it in the right form: the scenario's
language and third person, not the typed sentence ("I live in Turin"). Matching reads folded text,
so a good model's wording variations still count.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, Literal

from memory.evaluation.scenarios import CATEGORIES, Fact, Scenario
from memory.rules.lines import fold

# English wording on the line of a fact said in another language: the line was translated.
_ENGLISH_RE: Final = re.compile(
    r"\b(?:lives|living|works|worked|working|is|has|likes|loves|enjoys|plays|speaks|prefers"
    r"|born|birthday|wife|husband|married|allergic|doesn't|does not|eats|named|called"
    r"|sister|brother|daughter|cat|dog)\b"
)
# The person's own first-person wording on a line: the raw sentence, not a fact about them.
_FIRST_PERSON_RE: Final = {
    "en": re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b"),
    "it": re.compile(r"\b(?:io|mi chiamo|mio|mia|miei|mie|ho|vivo|abito)\b"),
    "fr": re.compile(r"(?:\b(?:je|moi|mon|ma|mes|suis)\b|\bj'|\bm'appelle\b)"),
    "es": re.compile(r"\b(?:yo|me llamo|mi|mis|soy|tengo)\b"),
    "de": re.compile(r"\b(?:ich|mein|meine|meinen|meinem|meiner|mich|mir)\b"),
    "pt": re.compile(r"\b(?:eu|meu|minha|meus|minhas|sou|tenho|moro|me chamo)\b"),
}

FactStatus = Literal["kept", "missing", "wrong_language", "first_person", "wrong_wording", "error"]


@dataclass(frozen=True)
class PassOutcome:
    """What one pass produced: the new list (None when the pass failed) and its cost."""

    lines: tuple[str, ...] | None
    tokens: int = 0
    model_tokens_in: int = 0
    model_tokens_out: int = 0
    latency_ms: int = 0
    error: str | None = None


# One pass on a scenario's inputs (the harness wraps memory.engine.rewriting.propose_rewrite).
Propose = Callable[[Scenario], PassOutcome]


@dataclass(frozen=True)
class ScenarioScore:
    scenario_id: str
    category: str
    language: str
    error: str | None
    facts: tuple[tuple[str, FactStatus], ...]
    violations: tuple[str, ...]
    untouched: int
    untouched_kept: int
    within_cap: bool | None
    outcome: PassOutcome = field(compare=False)

    @property
    def kept(self) -> int:
        return sum(status == "kept" for _, status in self.facts)

    @property
    def passed(self) -> bool:
        return not self.failures()

    def failures(self) -> list[str]:
        """What went wrong, by expectation label and status only (never line or turn text)."""
        reasons = [f"error: {self.error}"] if self.error else []
        reasons += [f"{label}: {status}" for label, status in self.facts if status != "kept"]
        reasons += [f"violation: {label}" for label in self.violations]
        if self.untouched_kept < self.untouched and not self.error:
            reasons.append(f"verbatim: {self.untouched_kept}/{self.untouched} untouched lines")
        if self.within_cap is False:
            reasons.append("over the cap")
        return reasons


def score(
    scenario: Scenario, outcome: PassOutcome, *, token_limit: int, line_max_chars: int
) -> ScenarioScore:
    """Score one pass. A failed pass (no lines) keeps no fact and is a failed scenario, unless
    the scenario is a careless answer the pass must refuse (``retried``)."""
    if scenario.retried is not None:
        refused = outcome.lines is None and outcome.error == scenario.retried
        return ScenarioScore(
            scenario.id,
            scenario.category,
            scenario.language,
            error=None,
            facts=(),
            violations=() if refused else (f"not refused as {scenario.retried}",),
            untouched=len(scenario.untouched),
            untouched_kept=len(scenario.untouched) if refused else 0,
            within_cap=True if refused else None,
            outcome=outcome,
        )
    if outcome.lines is None:
        return ScenarioScore(
            scenario.id,
            scenario.category,
            scenario.language,
            error=outcome.error or "failed",
            facts=tuple((fact.label, "error") for fact in scenario.present),
            violations=(),
            untouched=len(scenario.untouched),
            untouched_kept=0,
            within_cap=None,
            outcome=outcome,
        )
    lines = list(outcome.lines)
    folded = [fold(line) for line in lines]
    facts = tuple((fact.label, _fact_status(fact, folded, scenario)) for fact in scenario.present)
    violations = [p.label for p in scenario.absent if any(p.search(f) for f in folded)]
    new_lines = [line for line in lines if line not in scenario.memory]
    if scenario.max_new_lines is not None and len(new_lines) > scenario.max_new_lines:
        violations.append(f"new lines {len(new_lines)} > {scenario.max_new_lines}")
    kept = sum(scenario.memory[i] in lines for i in scenario.untouched)
    within_cap = outcome.tokens <= token_limit and all(len(x) <= line_max_chars for x in lines)
    return ScenarioScore(
        scenario.id,
        scenario.category,
        scenario.language,
        error=None,
        facts=facts,
        violations=tuple(violations),
        untouched=len(scenario.untouched),
        untouched_kept=kept,
        within_cap=within_cap,
        outcome=outcome,
    )


def _fact_status(fact: Fact, folded: list[str], scenario: Scenario) -> FactStatus:
    matching = [line for line in folded if all(group.search(line) for group in fact.groups)]
    if not matching:
        return "missing"
    statuses = [_form(line, fact, scenario) for line in matching]
    return "kept" if "kept" in statuses else statuses[0]


def _form(line: str, fact: Fact, scenario: Scenario) -> FactStatus:
    if any(pattern.search(line) for pattern in fact.forbidden):
        return "wrong_wording"
    if scenario.language_checks:
        if scenario.language != "en" and _ENGLISH_RE.search(line):
            return "wrong_language"
        if _FIRST_PERSON_RE[scenario.language].search(line):
            return "first_person"
    return "kept"


# --- Adding up ----------------------------------------------------------------------------------


@dataclass
class Tally:
    scenarios: int = 0
    passed: int = 0
    errors: int = 0
    facts: int = 0
    kept: int = 0
    wrong_form: int = 0
    violations: int = 0
    untouched: int = 0
    untouched_kept: int = 0

    def add(self, s: ScenarioScore) -> None:
        self.scenarios += 1
        self.passed += s.passed
        self.errors += s.error is not None
        self.facts += len(s.facts)
        self.kept += s.kept
        self.wrong_form += sum(st not in ("kept", "missing", "error") for _, st in s.facts)
        self.violations += len(s.violations)
        if s.error is None:  # a failed pass changed nothing: its lines count in no direction
            self.untouched += s.untouched
            self.untouched_kept += s.untouched_kept

    @property
    def recall(self) -> float | None:
        return self.kept / self.facts if self.facts else None

    @property
    def verbatim(self) -> float | None:
        return self.untouched_kept / self.untouched if self.untouched else None


@dataclass(frozen=True)
class Spread:
    median: float
    p90: float


@dataclass(frozen=True)
class Report:
    model: str
    scores: tuple[ScenarioScore, ...]
    by_category: dict[str, Tally]
    total: Tally
    passes: int  # passes that produced a list
    within_cap: int
    tokens_in: Spread
    tokens_out: Spread
    latency_ms: Spread

    @property
    def cap_compliance(self) -> float | None:
        return self.within_cap / self.passes if self.passes else None


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (0 for no values): the smallest value with ``share`` at or below."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def spread(values: Sequence[float]) -> Spread:
    return Spread(median=percentile(values, 0.5), p90=percentile(values, 0.9))


def summarize(model: str, scores: Iterable[ScenarioScore]) -> Report:
    scores = tuple(scores)
    by_category = {c: Tally() for c in CATEGORIES if any(s.category == c for s in scores)}
    total = Tally()
    for s in scores:
        by_category[s.category].add(s)
        total.add(s)
    ok = [s for s in scores if s.error is None]
    return Report(
        model=model,
        scores=scores,
        by_category=by_category,
        total=total,
        passes=len(ok),
        within_cap=sum(bool(s.within_cap) for s in ok),
        tokens_in=spread([s.outcome.model_tokens_in for s in ok]),
        tokens_out=spread([s.outcome.model_tokens_out for s in ok]),
        latency_ms=spread([s.outcome.latency_ms for s in ok]),
    )


def evaluate(
    model: str,
    scenarios: Sequence[Scenario],
    propose: Propose,
    *,
    token_limit: int,
    line_max_chars: int,
    jobs: int = 1,
) -> Report:
    """Run one pass per scenario (``jobs`` at a time, for slow hosted models) and score it."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        outcomes = list(pool.map(propose, scenarios))
    return summarize(
        model,
        (
            score(s, o, token_limit=token_limit, line_max_chars=line_max_chars)
            for s, o in zip(scenarios, outcomes, strict=True)
        ),
    )


def threshold_failures(
    report: Report,
    *,
    min_recall: float | None = None,
    max_violations: int | None = None,
    max_errors: int | None = None,
) -> list[str]:
    """The thresholds a report misses, as short content-free sentences (empty: all met)."""
    missed = []
    recall = report.total.recall
    if min_recall is not None and (recall or 0.0) < min_recall:
        missed.append(f"{report.model}: recall {recall or 0.0:.2f} < {min_recall:.2f}")
    if max_violations is not None and report.total.violations > max_violations:
        missed.append(f"{report.model}: {report.total.violations} violations > {max_violations}")
    if max_errors is not None and report.total.errors > max_errors:
        missed.append(f"{report.model}: {report.total.errors} failed passes > {max_errors}")
    return missed
