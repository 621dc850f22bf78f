"""A pass's answer as edits against the numbered list, applied by code (SPEC §4).

Pure module. An unnamed line stays verbatim; new text goes through `memory.filters.gate`. No fact
is lost: a refused `replace` keeps the old line and undoes the removals made for it; refusals
are counted. No readable edits is `MalformedAnswer`, never an empty list.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from memory.rules.lines import MalformedAnswer, clean_line, dedupe, fold

Op = Literal["add", "replace", "remove"]
OPS: Final = ("add", "replace", "remove")

# The JSON schema of an answer (structured output, where the provider supports it).
SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "op": {"type": "string", "enum": list(OPS)},
                    "line": {"type": ["integer", "null"]},
                    "text": {"type": ["string", "null"]},
                },
                "required": ["op", "line", "text"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["edits"],
    "additionalProperties": False,
}

# Reasoning some models write before their answer, closed or cut off.
_THINK_RE: Final = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
# A bound on the places tried as the object's start: each try scans the rest.
_MAX_STARTS: Final = 64
# A refused merge undoes the removals of lines sharing this share of their words with it.
_MERGED_SHARE: Final = 0.5
_WORD_RE: Final = re.compile(r"\w+")


@dataclass(frozen=True)
class Edit:
    op: Op
    line: int | None = None  # 1-based, for replace and remove
    text: str | None = None  # for add and replace

    def as_json(self) -> dict[str, Any]:
        return {"op": self.op, "line": self.line, "text": self.text}


@dataclass(frozen=True)
class Answer:
    """The edits an answer proposes, and how many of its items could not be read at all."""

    edits: list[Edit]
    unreadable: int = 0


def _candidates(text: str) -> Iterator[Any]:
    """The JSON values starting at each "{" of the answer, outermost first."""
    decoder = json.JSONDecoder()
    for tried, match in enumerate(re.finditer(r"\{", text)):
        if tried == _MAX_STARTS:
            return
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        yield value


def _edit(item: object) -> Edit | None:
    if not isinstance(item, dict):
        return None
    op = item.get("op")
    line = item.get("line")
    text = item.get("text")
    if op not in OPS:
        return None
    if op in ("replace", "remove") and (isinstance(line, bool) or not isinstance(line, int)):
        return None
    if op in ("add", "replace") and not isinstance(text, str):
        return None
    return Edit(op=op, line=line if op != "add" else None, text=text if op != "remove" else None)


def parse_answer(text: str) -> Answer:
    """The first JSON object holding `edits`, else `MalformedAnswer` (retried, never stored)."""
    if not text or not text.strip():
        raise MalformedAnswer("empty")
    body = _THINK_RE.sub(" ", text)
    if not body.strip():
        raise MalformedAnswer("empty")
    shapes_seen = False
    for value in _candidates(body):
        if not isinstance(value, dict) or "edits" not in value:
            shapes_seen = shapes_seen or isinstance(value, dict | list)
            continue
        items = value["edits"]
        if not isinstance(items, list):
            raise MalformedAnswer("wrong_shape")
        edits = [edit for edit in (_edit(item) for item in items) if edit is not None]
        return Answer(edits=edits, unreadable=len(items) - len(edits))
    raise MalformedAnswer("wrong_shape" if shapes_seen else "not_json")


@dataclass(frozen=True)
class Applied:
    """The list after the edits, and what happened to them."""

    lines: list[str]
    # Refused texts (adds dropped, replaces kept as they were), by reason; "duplicate" too.
    refused: Counter[str] = field(default_factory=Counter)
    # Edits that named no line, or a line already edited, or could not be read.
    ignored: int = 0
    # Removals that took effect, lines rewritten into a duplicate, removals undone with a merge.
    removed: int = 0
    folded: int = 0
    restored: int = 0
    added: int = 0
    replaced: int = 0


Refuse = Callable[[str], str | None]


def _words(text: str) -> set[str]:
    return {w for w in _WORD_RE.findall(fold(text)) if len(w) > 2}


def _merged_into(line: str, text: str) -> bool:
    words = _words(line)
    return bool(words) and len(words & _words(text)) >= _MERGED_SHARE * len(words)


def apply_edits(
    lines: Sequence[str],
    answer: Answer,
    *,
    refuse: Refuse,
    known_good: Collection[str] = (),
) -> Applied:
    """Apply `answer` to `lines` (numbered from 1); lines not in `known_good` are checked again
    by `refuse`, so a rule change reaches every list. Duplicates fold into the first."""
    count = len(lines)
    refused: Counter[str] = Counter()
    ignored = answer.unreadable
    replacements: dict[int, str] = {}
    refused_merges: list[str] = []
    removals: set[int] = set()
    additions: list[str] = []
    for edit in answer.edits:
        if edit.op == "add":
            text = clean_line(edit.text or "")
            reason = refuse(text)
            if reason is not None:
                refused[reason] += 1
            else:
                additions.append(text)
            continue
        index = edit.line or 0
        if not 1 <= index <= count or index in replacements or index in removals:
            ignored += 1
            continue
        if edit.op == "remove":
            removals.add(index)
            continue
        text = clean_line(edit.text or "")
        reason = refuse(text)
        if reason is not None:
            refused[reason] += 1
            refused_merges.append(edit.text or "")
            # The old line stays: marking it edited keeps a later edit from removing it.
            replacements[index] = lines[index - 1]
        else:
            replacements[index] = text
    restored = {
        i for i in removals if any(_merged_into(lines[i - 1], text) for text in refused_merges)
    }
    removals -= restored
    # The new list in order, each text with whether it was checked already.
    proposed: list[tuple[str, bool]] = []
    for index, line in enumerate(lines, start=1):
        if index in removals:
            continue
        new = replacements.get(index)
        if new is not None and new != line:
            proposed.append((new, True))
        else:
            proposed.append((line, line in known_good))
    proposed.extend((text, True) for text in additions)
    allowed: list[str] = []
    kept_slots = 0  # how many of ``allowed`` hold a line of the list shown
    for position, (text, checked) in enumerate(proposed):
        reason = None if checked else refuse(text)
        if reason is None:
            allowed.append(text)
            kept_slots += position < len(proposed) - len(additions)
        else:
            refused[reason] += 1
    kept = dedupe(allowed)
    # Lines rewritten into what another line says are folded away: removals in disguise.
    folded = kept_slots - len(dedupe(allowed[:kept_slots]))
    if len(kept) < len(allowed):
        refused["duplicate"] += len(allowed) - len(kept)
    return Applied(
        lines=kept,
        refused=refused,
        ignored=ignored,
        removed=len(removals),
        folded=folded,
        restored=len(restored),
        added=len(additions),
        replaced=sum(1 for i, text in replacements.items() if text != lines[i - 1]),
    )


def edits_between(before: Sequence[str], after: Sequence[str]) -> list[Edit]:
    """The edits that turn `before` into `after`, for whole-list writers (offline, recordings).

    A line changed in place is a replace; the rest is removed or added."""
    edits: list[Edit] = []
    matcher = difflib.SequenceMatcher(a=list(before), b=list(after), autojunk=False)
    tail: list[Edit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old = range(i1, i2)
        new = list(after[j1:j2])
        paired = min(len(old), len(new)) if tag == "replace" else 0
        for offset in range(paired):
            edits.append(Edit("replace", line=old[offset] + 1, text=new[offset]))
        for i in old[paired:]:
            edits.append(Edit("remove", line=i + 1))
        tail.extend(Edit("add", text=text) for text in new[paired:])
    # Additions come after the kept lines, where apply_edits puts them: every fact is there,
    # if not at the place the model wanted.
    return edits + tail


def dump(edits: Sequence[Edit]) -> str:
    return json.dumps({"edits": [edit.as_json() for edit in edits]}, ensure_ascii=False)


def numbered(lines: Sequence[str]) -> list[dict[str, Any]]:
    """The list as the request shows it: each line with its number, from 1."""
    return [{"line": i, "text": line} for i, line in enumerate(lines, start=1)]
