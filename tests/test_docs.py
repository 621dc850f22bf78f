"""The docs agree with the code: every module, function or file they name exists, every link
stays inside the repository, the scenario counts they give are the shipped set's, and the README
stays short (issue 24: at most half its old prose, short sentences)."""

from __future__ import annotations

import importlib
import json
import re
import statistics
from pathlib import Path

import pytest
from celery import current_app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", *sorted(f"docs/{doc.name}" for doc in (ROOT / "docs").glob("*.md"))]
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


FOREIGN = {"locomo10.json"}  # a public data set's file the eval docs tell you to download
NOT_OURS = {".git", ".venv", "var", "node_modules", "__pycache__"}
EXTENSION = re.compile(r"\.[A-Za-z0-9]+$")


def _repository_files() -> set[str]:
    names = set()
    for path in ROOT.rglob("*"):
        if not NOT_OURS.intersection(path.relative_to(ROOT).parts):
            names.add(path.name)
    return names


def _named_paths(text: str) -> set[str]:
    """Backticked repository paths: a file with its extension, a folder with its slash, or
    anything under bin/ or .ci/. URL paths (`memory/lines`, `/api/v1/…`) and model strings
    (`offline/whizi-chat`) are neither."""
    found = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        if "/" not in token or "://" in token or token.startswith("/"):
            continue
        if re.search(r"[{}<>…*$]", token):
            continue
        first = token.split("/")[0]
        if first != ".." and not (ROOT / first).exists():
            continue
        if EXTENSION.search(token) or token.endswith("/") or first in ("..", "bin", ".ci"):
            found.add(token)
    return found


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_in_the_docs_exists(doc):
    text = (ROOT / doc).read_text()
    missing = sorted(
        p for p in _named_paths(text) if not (_inside(ROOT / p) and (ROOT / p).exists())
    )
    assert missing == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_file_name_in_the_docs_is_a_file_of_ours(doc):
    text = (ROOT / doc).read_text()
    names = set(re.findall(r"`([\w.-]+\.(?:py|md|html|js|css|json|txt|toml|lock|png))`", text))
    assert sorted(names - _repository_files() - FOREIGN) == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_link_in_the_docs_stays_in_the_repository(doc):
    text = (ROOT / doc).read_text()
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [t.split("#")[0] for t in targets if not re.match(r"(https?:|mailto:|#)", t)]
    base = (ROOT / doc).parent
    broken = sorted(t for t in local if not (_inside(base / t) and (base / t).exists()))
    assert broken == []


def prose_sentences(text: str) -> list[int]:
    """The word count of each sentence of a document's prose: code blocks, tables and headings
    left out, a list item its own paragraph, a sentence ending at . ! or ? before a capital,
    a digit, a quote, a bracket or code."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    paragraphs, current = [], []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("|", "#")):
            paragraphs.append(" ".join(current))
            current = []
            continue
        item = re.match(r"(?:[-*]|\d+\.)\s+", line)
        if item:
            paragraphs.append(" ".join(current))
            current = [line[item.end() :]]
        else:
            current.append(line)
    paragraphs.append(" ".join(current))
    counts = []
    for paragraph in paragraphs:
        paragraph = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", paragraph)
        paragraph = re.sub(r"\b(e\.g|i\.e|etc|vs)\.", r"\1", paragraph)
        for sentence in re.split(r"(?<=[.!?])[\"”)*]*\s+(?=[A-Z0-9\"“(`*\[])", paragraph):
            words = len(re.findall(r"\S*\w\S*", sentence))
            if words:
                counts.append(words)
    return counts


def test_the_sentence_counter_splits_where_a_reader_would():
    text = "# Title\n\nOne two three. Four five, e.g. six!\n\n- An item\n- `make run` runs it.\n"
    text += "\n```sh\nnot prose here\n```\n| a | table |\n"
    assert prose_sentences(text) == [3, 4, 2, 4]


def test_the_readme_is_short_and_plain():
    counts = prose_sentences((ROOT / "README.md").read_text())
    assert sum(counts) <= 2_800  # half the 5,595 words it had when issue 24 was filed
    assert statistics.median(counts) < 15
    assert max(counts) <= 60


@pytest.mark.parametrize("doc", DOCS)
def test_no_sentence_in_the_docs_runs_over_sixty_words(doc):
    assert max(prose_sentences((ROOT / doc).read_text()), default=0) <= 60


def test_the_docs_give_the_shipped_scenario_count():
    files = sorted((ROOT / "memory/eval_scenarios").glob("*.json"))
    count = sum(len(json.loads(f.read_text())["scenarios"]) for f in files)
    assert f"{count} scenarios" in (ROOT / "docs/MEMORY_EVAL.md").read_text()
    assert f"({count} scenarios" in (ROOT / "README.md").read_text()
