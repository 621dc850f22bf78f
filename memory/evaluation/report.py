"""The harness's output: plain-text tables and a machine-readable dict.

Pure module. Nothing here prints a turn or a memory line, only ids and labels, except
`replay_table(show_lines=True)`, which an operator asks for to read their own replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.evaluation.replay import ReplayReport
from memory.evaluation.scenarios import CATEGORIES
from memory.evaluation.scoring import Report, Spread, Tally


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _spread(spread: Spread, unit: str = "") -> str:
    return f"median {spread.median:g}{unit}, p90 {spread.p90:g}{unit}"


def _rows(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    out = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(
            zip(row, widths, strict=True))]  # fmt: skip
        out.append("  ".join(cells).rstrip())
    return out


def _tally_row(name: str, t: Tally) -> list[str]:
    return [
        name,
        str(t.scenarios),
        str(t.passed),
        f"{t.kept}/{t.facts}",
        _ratio(t.recall),
        str(t.wrong_form),
        str(t.violations),
        _ratio(t.verbatim),
        str(t.errors),
    ]


def table(report: Report, *, token_limit: int, line_max_chars: int, failures: bool = True) -> str:
    """One model's table: a row per category, the totals, cap, cost and the failed scenarios."""
    header = [
        "category",
        "scenarios",
        "passed",
        "facts",
        "recall",
        "wrong form",
        "violations",
        "verbatim",
        "errors",
    ]
    rows = [_tally_row(name, t) for name, t in report.by_category.items()]
    rows.append(_tally_row("all", report.total))
    lines = [f"memory_eval: {report.model}, {report.total.scenarios} scenarios", ""]
    lines += _rows(header, rows)
    lines += [
        "",
        f"cap compliance: {_ratio(report.cap_compliance)} ({report.within_cap}/{report.passes}"
        f" passes within {token_limit} tokens and {line_max_chars} characters a line)",
        f"model tokens in per pass: {_spread(report.tokens_in)}",
        f"model tokens out per pass: {_spread(report.tokens_out)}",
        f"latency per pass: {_spread(report.latency_ms, ' ms')}",
    ]
    order = {category: i for i, category in enumerate(CATEGORIES)}
    failed = sorted(
        (s for s in report.scores if not s.passed),
        key=lambda s: (order[s.category], s.scenario_id),
    )
    if failures and failed:
        lines += ["", f"failed scenarios ({len(failed)}):"]
        lines += [f"  {s.scenario_id}: {'; '.join(s.failures())}" for s in failed]
    return "\n".join(lines)


def comparison(reports: Sequence[Report]) -> str:
    """Several models side by side: the totals, then recall per category."""
    header = ["", *(r.model for r in reports)]
    rows = [
        ["recall", *(_ratio(r.total.recall) for r in reports)],
        ["violations", *(str(r.total.violations) for r in reports)],
        ["verbatim", *(_ratio(r.total.verbatim) for r in reports)],
        ["cap compliance", *(_ratio(r.cap_compliance) for r in reports)],
        ["scenarios passed", *(f"{r.total.passed}/{r.total.scenarios}" for r in reports)],
        ["failed passes", *(str(r.total.errors) for r in reports)],
        ["tokens in (median)", *(f"{r.tokens_in.median:g}" for r in reports)],
        ["tokens out (median)", *(f"{r.tokens_out.median:g}" for r in reports)],
        ["latency ms (median)", *(f"{r.latency_ms.median:g}" for r in reports)],
        ["latency ms (p90)", *(f"{r.latency_ms.p90:g}" for r in reports)],
    ]
    categories = list(dict.fromkeys(c for r in reports for c in r.by_category))
    for category in categories:
        rows.append(
            [
                f"recall {category}",
                *(
                    _ratio(r.by_category[category].recall) if category in r.by_category else "-"
                    for r in reports
                ),
            ]
        )
    return "\n".join(["models side by side", "", *_rows(header, rows)])


def _tally_dict(t: Tally) -> dict[str, Any]:
    return {
        "scenarios": t.scenarios,
        "passed": t.passed,
        "errors": t.errors,
        "facts": t.facts,
        "kept": t.kept,
        "recall": t.recall,
        "wrong_form": t.wrong_form,
        "violations": t.violations,
        "untouched": t.untouched,
        "untouched_kept": t.untouched_kept,
        "verbatim": t.verbatim,
    }


def _spread_dict(spread: Spread) -> dict[str, float]:
    return {"median": spread.median, "p90": spread.p90}


def as_dict(report: Report) -> dict[str, Any]:
    """The machine-readable report of one model (ids and labels, no scenario text)."""
    return {
        "model": report.model,
        "total": _tally_dict(report.total),
        "categories": {name: _tally_dict(t) for name, t in report.by_category.items()},
        "cap_compliance": report.cap_compliance,
        "passes": report.passes,
        "within_cap": report.within_cap,
        "model_tokens_in": _spread_dict(report.tokens_in),
        "model_tokens_out": _spread_dict(report.tokens_out),
        "latency_ms": _spread_dict(report.latency_ms),
        "scenarios": [
            {
                "id": s.scenario_id,
                "category": s.category,
                "language": s.language,
                "passed": s.passed,
                "error": s.error,
                "facts": dict(s.facts),
                "violations": list(s.violations),
                "untouched": s.untouched,
                "untouched_kept": s.untouched_kept,
                "within_cap": s.within_cap,
                "lines": None if s.outcome.lines is None else len(s.outcome.lines),
                "model_tokens_in": s.outcome.model_tokens_in,
                "model_tokens_out": s.outcome.model_tokens_out,
                "latency_ms": s.outcome.latency_ms,
            }
            for s in report.scores
        ],
    }


def replay_table(report: ReplayReport, *, show_lines: bool = False) -> str:
    header = ["session", "date", "turns", "passes", "errors", "lines", "growth", "tokens"]
    rows = [
        [
            str(s.index),
            s.date or "-",
            str(s.turns),
            str(s.passes),
            str(s.errors),
            str(s.lines_after),
            f"{s.growth:+d}",
            str(s.tokens_after),
        ]
        for s in report.sessions
    ]
    out = [f"memory_eval --replay: {report.model}, {len(report.sessions)} sessions", ""]
    out += _rows(header, rows)
    out += [
        "",
        f"lines kept: {len(report.lines)} from {report.user_turns} user turns"
        f" in {report.passes} passes ({report.errors} failed)",
        f"lines no user turn supports: {len(report.unsupported)} of {len(report.lines)}",
        f"model tokens in per pass: {_spread(report.tokens_in)}",
        f"model tokens out per pass: {_spread(report.tokens_out)}",
        f"latency per pass: {_spread(report.latency_ms, ' ms')}",
    ]
    if show_lines:
        out += ["", "final list (* = no user turn supports it):"]
        unsupported = set(report.unsupported)
        out += [f"  {'*' if line in unsupported else ' '} {line}" for line in report.lines]
    return "\n".join(out)


def replay_dict(report: ReplayReport, *, show_lines: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "model": report.model,
        "sessions": [
            {
                "index": s.index,
                "date": s.date,
                "turns": s.turns,
                "passes": s.passes,
                "errors": s.errors,
                "lines": s.lines_after,
                "growth": s.growth,
                "tokens": s.tokens_after,
            }
            for s in report.sessions
        ],
        "lines_kept": len(report.lines),
        "unsupported": len(report.unsupported),
        "user_turns": report.user_turns,
        "passes": report.passes,
        "errors": report.errors,
        "model_tokens_in": _spread_dict(report.tokens_in),
        "model_tokens_out": _spread_dict(report.tokens_out),
        "latency_ms": _spread_dict(report.latency_ms),
    }
    if show_lines:
        data["final_lines"] = list(report.lines)
        data["unsupported_lines"] = list(report.unsupported)
    return data
