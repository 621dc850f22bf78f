"""The docs agree with the code: every module, function or file they name exists, and the
scenario counts they give are the shipped set's."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from celery import current_app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "docs/ARCHITECTURE.md", "docs/MEMORY_EVAL.md"]
OURS = ("config.", "accounts.", "chat.", "memory.", "llm.", "core.")


def _resolves(reference: str) -> bool:
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS)
def test_every_dotted_name_in_the_docs_is_in_the_code(doc):
    text = (ROOT / doc).read_text()
    names = set(re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)(?:\(\))?`", text))
    ours = {name for name in names if name.startswith(OURS)}
    tasks = set(current_app.tasks)
    missing = sorted(n for n in ours if not _resolves(n) and n not in tasks)
    assert missing == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_in_the_docs_exists(doc):
    text = (ROOT / doc).read_text()
    paths = set(re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.(?:py|json|md|html|js|css))`", text))
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_the_docs_give_the_shipped_scenario_count():
    files = sorted((ROOT / "memory/eval_scenarios").glob("*.json"))
    count = sum(len(json.loads(f.read_text())["scenarios"]) for f in files)
    assert f"{count} scenarios" in (ROOT / "docs/MEMORY_EVAL.md").read_text()
    assert f"({count} scenarios" in (ROOT / "README.md").read_text()
