"""``manage.py memory_eval``: the memory quality harness (docs/MEMORY_EVAL.md).

Runs the scenarios (or ``--replay FILE``) through ``memory.engine.rewriting.propose_rewrite``,
a real pass without the database, per model, and prints a table. ``--recorded`` answers each
call with a hosted model's recorded text at the one seam. Thresholds make it a gate.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

import llm
from llm.provider import TextProvider
from memory import evaluation
from memory.engine.rewriting import PassFailed, propose_rewrite
from memory.filters.gate import MAX_CHARS
from memory.rules import prompts, provenance
from memory.rules.budget import count_tokens
from memory.rules.triggers import is_remember_request


def run_pass(
    model: str,
    *,
    lines: list[str],
    transcript: Sequence[dict[str, str]],
    context: Sequence[dict[str, str]] = (),
    task: str = "rewrite",
    pinned: Sequence[int] = (),
    learned: Sequence[str] = (),
) -> evaluation.PassOutcome:
    """One real pass, outside the database. A failed pass is an outcome, never a crash.
    ``pinned`` (indexes) and ``learned`` (dates) are the lines' sources, as stored."""
    today = datetime.now(tz=UTC)
    sources = {
        line: provenance.source(
            provenance.Kind.ADDED if index in pinned else provenance.Kind.LEARNED,
            datetime.fromisoformat(learned[index]).replace(tzinfo=UTC) if learned else today,
        )
        for index, line in enumerate(lines)
    }

    def numbered(turns: Sequence[dict[str, str]]) -> list[dict[str, Any]]:
        return [{**turn, "conversation": 1} for turn in turns]

    try:
        rewrite = propose_rewrite(
            lines=list(lines),
            transcript=numbered(transcript),
            context=numbered(context),
            task="voice" if task == "voice" else "rewrite",
            model=model,
            sources=sources,
        )
    except PassFailed as failure:
        return evaluation.PassOutcome(lines=None, error=failure.code)
    return evaluation.PassOutcome(
        lines=tuple(rewrite.lines),
        tokens=rewrite.tokens,
        model_tokens_in=rewrite.model_tokens_in,
        model_tokens_out=rewrite.model_tokens_out,
        latency_ms=rewrite.latency_ms,
    )


RECORDED_PROVIDER = "recorded"


class RecordedProvider(TextProvider):
    """Answers ``recorded/<scenario id>`` with its recording, billed in o200k tokens; a
    condense call fails like a model error (recordings hold the pass's answer only)."""

    def __init__(self, answers: Mapping[str, str]) -> None:
        super().__init__()
        self.answers = answers

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        if prompts.read_data(messages[-1]["content"]).get("task") == "condense":
            raise LookupError("no recorded condense answer")
        return self.answers[model]

    def usage(self, messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
        return sum(count_tokens(str(m.get("content") or "")) for m in messages), count_tokens(text)


@contextmanager
def recorded_model(answers: Mapping[str, str]) -> Iterator[None]:
    """The recorded answers served as litellm's ``recorded/*`` models for the run."""
    lib: Any = llm.litellm()  # untyped module
    saved = list(lib.custom_provider_map)
    lib.custom_provider_map = [
        *(p for p in saved if p["provider"] != RECORDED_PROVIDER),
        {"provider": RECORDED_PROVIDER, "custom_handler": RecordedProvider(answers)},
    ]
    try:
        yield
    finally:
        lib.custom_provider_map = saved


class Command(BaseCommand):
    help = (
        "Score the memory model on the shipped scenarios (or replay a long conversation) "
        "through the real pass code; see docs/MEMORY_EVAL.md."
    )
    requires_system_checks: list[str] = []  # an operator tool: no database, no checks

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--model",
            action="append",
            default=[],
            help="a litellm model string; repeat to compare models (default: MEMORY_MODEL)",
        )
        parser.add_argument(
            "--scenarios",
            action="append",
            type=Path,
            default=[],
            help="a scenario file or directory instead of the shipped set; repeatable",
        )
        parser.add_argument("--category", action="append", default=[], help="only these")
        parser.add_argument("--language", action="append", default=[], help="only these")
        parser.add_argument("--id", action="append", default=[], help="only these scenario ids")
        parser.add_argument("--min-recall", type=float, help="fail when recall is below this")
        parser.add_argument("--max-violations", type=int, help="fail above this many violations")
        parser.add_argument("--max-errors", type=int, help="fail above this many failed passes")
        parser.add_argument("--jobs", type=int, default=1, help="passes run at once (hosted)")
        parser.add_argument("--json", action="store_true", help="print machine-readable results")
        parser.add_argument(
            "--recorded",
            action="append",
            type=Path,
            nargs="?",
            const=evaluation.RECORDED_DIR,
            default=[],
            metavar="PATH",
            help="replay a recorded set of hosted answers (default: the shipped one) instead",
        )
        parser.add_argument(
            "--replay", type=Path, help="replay a long conversation instead (JSON, see the docs)"
        )
        parser.add_argument("--turns-per-pass", type=int, default=settings.MEMORY_TURNS_PER_PASS)
        parser.add_argument(
            "--show-lines",
            action="store_true",
            help="with --replay: print the final list, marking lines no user turn supports",
        )
        parser.add_argument(
            "--quiet", action="store_true", help="leave out the list of failed scenarios"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        models = options["model"] or [settings.MEMORY_MODEL]
        recorded = options["recorded"]
        if recorded and (options["model"] or options["scenarios"] or options["replay"]):
            raise CommandError(
                "--recorded brings its own scenarios and answers: no --model, "
                "--scenarios or --replay"
            )
        if options["replay"] is not None:
            self._replay(models, options)
            return
        try:
            if recorded:
                recording = evaluation.load_recorded(recorded)
                scenarios, answers = recording.scenarios, recording.answers
            else:
                scenarios, answers = evaluation.load_scenarios(options["scenarios"] or None), {}
        except evaluation.ScenarioError as error:
            raise CommandError(str(error)) from None
        scenarios = [
            s
            for s in scenarios
            if (not options["category"] or s.category in options["category"])
            and (not options["language"] or s.language in options["language"])
            and (not options["id"] or s.id in options["id"])
        ]
        if not scenarios:
            raise CommandError("no scenario matches")
        limits = {"token_limit": settings.MEMORY_TOKEN_LIMIT, "line_max_chars": MAX_CHARS}
        reports = []
        for model in [RECORDED_PROVIDER] if recorded else models:

            def propose(s: evaluation.Scenario, model: str = model) -> evaluation.PassOutcome:
                return run_pass(
                    f"{RECORDED_PROVIDER}/{s.id}" if recorded else model,
                    lines=list(s.memory),
                    transcript=s.transcript,
                    context=s.context,
                    task=s.task,
                    pinned=s.pinned,
                    learned=s.learned,
                )

            with recorded_model(answers) if recorded else nullcontext():
                reports.append(
                    evaluation.evaluate(model, scenarios, propose, jobs=options["jobs"], **limits)
                )
        if options["json"]:
            out = {"models": [evaluation.as_dict(r) for r in reports]}
            self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
        else:
            tables = [evaluation.table(r, failures=not options["quiet"], **limits) for r in reports]
            if len(reports) > 1:
                tables.append(evaluation.comparison(reports))
            self.stdout.write("\n\n".join(tables))
        missed = [
            reason
            for r in reports
            for reason in evaluation.threshold_failures(
                r,
                min_recall=options["min_recall"],
                max_violations=options["max_violations"],
                max_errors=options["max_errors"],
            )
        ]
        if missed:
            raise CommandError("thresholds not met: " + "; ".join(missed))

    def _replay(self, models: list[str], options: dict[str, Any]) -> None:
        try:
            sessions = evaluation.load_replay(options["replay"])
        except evaluation.ScenarioError as error:
            raise CommandError(str(error)) from None
        show = options["show_lines"]
        reports = []
        for model in models:

            def propose(
                lines: list[str],
                transcript: list[dict[str, str]],
                context: list[dict[str, str]],
                model: str = model,
            ) -> evaluation.PassOutcome:
                return run_pass(model, lines=lines, transcript=transcript, context=context)

            reports.append(
                evaluation.replay(
                    model,
                    sessions,
                    propose,
                    is_remember_request=is_remember_request,
                    turns_per_pass=options["turns_per_pass"],
                )
            )
        if options["json"]:
            out = {"replays": [evaluation.replay_dict(r, show_lines=show) for r in reports]}
            self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
        else:
            self.stdout.write(
                "\n\n".join(evaluation.replay_table(r, show_lines=show) for r in reports)
            )
