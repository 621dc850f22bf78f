"""``manage.py gate_probe``: the code gate measured on probe sets written without sight of it.

Each set is a JSON file ``{"expect": "refuse" | "keep", "items": [{"language", "kind",
"line"}]}`` (the shipped ones are in ``memory/eval_gate/``). Every line goes through
``memory.filters.gate.refusal_reason``, the check every writer shares. The table comes first;
``--misses`` lists the missed lines after it, so figures are read before the misses are.
"""

from __future__ import annotations

import json
from argparse import ArgumentParser
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from memory.filters.gate import refusal_reason

PROBE_DIR = Path(__file__).resolve().parents[2] / "eval_gate"


def load(paths: list[Path]) -> list[tuple[str, dict[str, Any]]]:
    """(expectation, item) for every item of every set under ``paths``."""
    files = [f for p in paths for f in (sorted(p.rglob("*.json")) if p.is_dir() else [p])]
    if not files:
        raise CommandError("no probe set found")
    found: list[tuple[str, dict[str, Any]]] = []
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        expect = data.get("expect")
        if expect not in ("refuse", "keep") or not isinstance(data.get("items"), list):
            raise CommandError(f'{file.name}: expected {{"expect": "refuse"|"keep", "items"}}')
        found.extend((expect, item) for item in data["items"])
    return found


class Command(BaseCommand):
    help = "Measure the code gate on probe sets: risky lines refused, ordinary ones kept."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("paths", nargs="*", type=Path, help="sets (default: the shipped)")
        parser.add_argument("--misses", action="store_true", help="list the missed lines")
        parser.add_argument("--min-refused", type=float, help="fail below this share refused")
        parser.add_argument("--min-kept", type=float, help="fail below this share kept")

    def handle(self, *args: Any, **options: Any) -> None:
        probes = load(options["paths"] or [PROBE_DIR])
        totals: Counter[tuple[str, str]] = Counter()
        right: Counter[tuple[str, str]] = Counter()
        misses: list[tuple[str, dict[str, Any], str | None]] = []
        for expect, item in probes:
            reason = refusal_reason(item["line"])
            ok = (reason is not None) == (expect == "refuse")
            for key in ((expect, item["language"]), (expect, "all")):
                totals[key] += 1
                right[key] += ok
            if not ok:
                misses.append((expect, item, reason))
        languages = [*sorted({lang for _, lang in totals if lang != "all"}), "all"]
        self.stdout.write(f"{'':10}" + "".join(f"{lang:>10}" for lang in languages))
        for expect, label in (("refuse", "refused"), ("keep", "kept")):
            cells = [
                f"{right[expect, lang]}/{totals[expect, lang]}" if totals[expect, lang] else "-"
                for lang in languages
            ]
            self.stdout.write(f"{label:10}" + "".join(f"{cell:>10}" for cell in cells))
        if options["misses"]:
            self.stdout.write("\nmisses:")
            for _expect, item, refused_as in misses:
                said = "kept" if refused_as is None else f"refused ({refused_as})"
                line = f"  [{item['language']} {item.get('kind', '')}] {said}: {item['line']}"
                self.stdout.write(line)
        failed = []
        for expect, bound in (("refuse", options["min_refused"]), ("keep", options["min_kept"])):
            share = right[expect, "all"] / max(totals[expect, "all"], 1)
            if bound is not None and share < bound:
                failed.append(f"{expect}: {share:.3f} < {bound}")
        if failed:
            raise CommandError("gate below its bar: " + "; ".join(failed))
