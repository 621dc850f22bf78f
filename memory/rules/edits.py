"""A pass's answer as edits against the numbered list, checked against their evidence and
applied by code (SPEC §4, §10a).

Pure module. Every `replace` and `remove` quotes the line it targets (`was`); an edit is placed
by its quote, so a wrong or 0-based number never hits another fact. An edit that cannot be read
or placed, or two edits on one line, make the whole answer `MalformedAnswer` (retried, turns
stay unread), never a silent success. A forget cites the person's turn that asked for it.

No fact is lost to a careless answer: an unnamed line stays verbatim; new text goes through
`memory.filters.gate`; a merge that drops a fact of a line it removes is refused whole (its new
facts kept as a line of their own); a pinned line changes only by the person's cited turn.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from memory.rules import evidence
from memory.rules.lines import (
    MalformedAnswer,
    clean_line,
    copied,
    first_seen,
    fold,
    forget_key,
    line_key,
)

Op = Literal["add", "replace", "remove"]
OPS: Final = ("add", "replace", "remove")
ALL: Final = "all"

# The JSON schema of an answer (structured output, where the server honours one).
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
                    "was": {"type": ["string", "null"]},
                    "text": {"type": ["string", "null"]},
                    "turn": {"type": ["integer", "null"]},
                },
                "required": ["op", "line", "was", "text", "turn"],
                "additionalProperties": False,
            },
        },
        "forget": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "turn": {"type": "integer"},
                    "what": {
                        "anyOf": [
                            {"type": "string", "enum": [ALL]},
                            {"type": "array", "items": {"type": "integer"}},
                        ]
                    },
                },
                "required": ["turn", "what"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["edits", "forget"],
    "additionalProperties": False,
}

# Reasoning some models write before their answer, closed or cut off.
_THINK_RE: Final = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
# A bound on the places tried as the object's start: each try scans the rest.
_MAX_STARTS: Final = 64
# A quote that is not the line word for word still places the edit from this likeness, when
# no other line comes as close (a model that fixed a typo or dropped a comma).
_QUOTE_ALIKE: Final = 0.85
_QUOTE_MARGIN: Final = 0.1


@dataclass(frozen=True)
class Edit:
    op: Op
    line: int | None = None  # 1-based, for replace and remove
    text: str | None = None  # for add and replace
    was: str | None = None  # the quoted line, for replace and remove
    turn: int | None = None  # the person's turn the new text comes from, if cited

    def as_json(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "line": self.line,
            "was": self.was,
            "text": self.text,
            "turn": self.turn,
        }


@dataclass(frozen=True)
class Forget:
    """The person's turn that asked to forget, and the lines it names (None: everything)."""

    turn: int
    lines: tuple[int, ...] | None

    def as_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "what": ALL if self.lines is None else list(self.lines)}


@dataclass(frozen=True)
class Answer:
    edits: list[Edit]
    forgets: list[Forget] = field(default_factory=list)


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


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _edit(item: object) -> Edit:
    if not isinstance(item, dict):
        raise MalformedAnswer("unreadable")
    op, line, text, was, turn = (item.get(k) for k in ("op", "line", "text", "was", "turn"))
    if op not in OPS or (turn is not None and not _integer(turn)):
        raise MalformedAnswer("unreadable")
    if op in ("replace", "remove") and not (_integer(line) and isinstance(was, str) and was):
        raise MalformedAnswer("unreadable")
    if op in ("add", "replace") and not isinstance(text, str):
        raise MalformedAnswer("unreadable")
    if op == "add":
        return Edit("add", text=text, turn=turn)
    return Edit(op, line=line, was=was, text=text if op == "replace" else None, turn=turn)


def _forget(item: object) -> Forget:
    if not isinstance(item, dict) or not _integer(item.get("turn")):
        raise MalformedAnswer("unreadable")
    what = item.get("what")
    if what == ALL:
        return Forget(turn=item["turn"], lines=None)
    if isinstance(what, list) and what and all(_integer(n) for n in what):
        return Forget(turn=item["turn"], lines=tuple(what))
    raise MalformedAnswer("unreadable")


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
        items, forgets = value["edits"], value.get("forget") or []
        if not isinstance(items, list) or not isinstance(forgets, list):
            raise MalformedAnswer("wrong_shape")
        return Answer(edits=[_edit(item) for item in items], forgets=[_forget(f) for f in forgets])
    raise MalformedAnswer("wrong_shape" if shapes_seen else "not_json")


@dataclass(frozen=True)
class Applied:
    """The list after the edits, and what happened to them."""

    lines: list[str]
    # Refused texts (adds dropped, replaces kept as they were), by reason; "duplicate" too.
    refused: Counter[str] = field(default_factory=Counter)
    # Removals that took effect: asked for by a cited turn (``forgotten``), or not (``removed``
    # counts both); lines rewritten into a duplicate; removals undone with a refused merge.
    removed: int = 0
    uncited: int = 0
    folded: int = 0
    restored: int = 0
    added: int = 0
    replaced: int = 0
    # Replaces citing no turn that keep nothing of their line: removals in disguise.
    rewritten: int = 0
    forgotten: list[str] = field(default_factory=list)
    # The person's turns a forget cited, and each new text's cited turn.
    forget_turns: frozenset[int] = frozenset()
    cited: dict[str, int] = field(default_factory=dict)


Refuse = Callable[[str], str | None]
# Whether a new text is a forgotten line its cited turn (or None) does not bring back.
Buried = Callable[[str, int | None], bool]


@dataclass(frozen=True)
class Evidence:
    """What code checks an answer against: the person's turns in this pass (their text by
    number), the pinned lines (1-based), and whether this is a condense (no turns; lines may
    be dropped)."""

    person_turns: Mapping[int, str] = field(default_factory=dict)
    pinned: frozenset[int] = frozenset()
    condense: bool = False
    # When each line was learned (ISO dates, by 1-based number; None: unknown).
    learned: Mapping[int, str | None] = field(default_factory=dict)


def _place(lines: Sequence[str], edit: Edit) -> int:
    """The 1-based line an edit targets, by its quote: its own number if the quote is that
    line, else the one line the quote is; `MalformedAnswer` if the quote is no line."""
    quote = forget_key(edit.was or "")
    number = edit.line or 0
    if 1 <= number <= len(lines) and forget_key(lines[number - 1]) == quote:
        return number
    same = [i for i, line in enumerate(lines, start=1) if forget_key(line) == quote]
    if len(same) == 1:
        return same[0]
    scores = sorted(
        (
            (difflib.SequenceMatcher(a=fold(edit.was or ""), b=fold(line)).ratio(), i)
            for i, line in enumerate(lines, start=1)
        ),
        reverse=True,
    )
    if scores and scores[0][0] >= _QUOTE_ALIKE:
        runner_up = scores[1][0] if len(scores) > 1 else 0.0
        if scores[0][0] - runner_up >= _QUOTE_MARGIN:
            return scores[0][1]
    raise MalformedAnswer("unplaced")


def apply_edits(
    lines: Sequence[str],
    answer: Answer,
    *,
    refuse: Refuse,
    known_good: Collection[str] = (),
    evidence_: Evidence = Evidence(),
    buried: Buried | None = None,
) -> Applied:
    """Apply `answer` to `lines` (numbered from 1), checking its evidence; lines not in
    `known_good` are checked again by `refuse`, so a rule change reaches every list. Duplicates
    fold into the first. Raises `MalformedAnswer` for an edit it cannot place."""
    refused: Counter[str] = Counter()
    placed: dict[int, Edit] = {}
    for edit in answer.edits:
        if edit.op == "add":
            continue
        index = _place(lines, edit)
        if index in placed:
            raise MalformedAnswer("twice")
        placed[index] = edit
    cited, forget_turns = _cited(lines, answer, placed, evidence_.person_turns)
    for index in cited:
        if index not in placed:
            placed[index] = Edit("remove", line=index, was=lines[index - 1])

    said = evidence_.person_turns
    # The turns that gave this answer new text: a removal citing one was superseded by it.
    giving = {
        e.turn
        for e in answer.edits
        if e.op != "remove"
        and e.turn is not None
        and e.turn in said
        and evidence.stems(e.text or "") & evidence.stems(said[e.turn])
    }

    def turn_of(edit: Edit) -> int | None:
        """The person's turn an edit cites, if it is evidence for it: a new text must carry
        words of that turn; a removal's turn must mention the line it quotes or give the
        answer a new text (a correction stated elsewhere)."""
        turn = edit.turn
        if turn is None or turn not in said:
            return None
        if edit.op == "remove":
            relevant = evidence.mentions(said[turn], edit.was or "") or turn in giving
        else:
            relevant = bool(evidence.stems(edit.text or "") & evidence.stems(said[turn]))
        return turn if relevant else None

    def check(text: str, turn: int | None) -> str | None:
        if buried is not None and buried(text, turn):
            return "forgotten"
        if copied(text, evidence_.person_turns.values()):
            return "first_person"
        return refuse(text)

    replacements: dict[int, str] = {}
    merging: list[str] = []  # every replace text proposed, stored or refused
    removals: set[int] = set()
    overlong = False
    for index, edit in sorted(placed.items()):
        if index in evidence_.pinned and index not in cited and turn_of(edit) is None:
            # The person's own line: only their cited turn changes it.
            refused["pinned"] += 1
            continue
        if edit.op == "remove":
            removals.add(index)
            continue
        text = clean_line(edit.text or "")
        if text == lines[index - 1]:
            continue
        merging.append(text)
        reason = check(text, turn_of(edit))
        if (
            reason is None
            and turn_of(edit) is None
            and _older_over_newer(lines, index, text, evidence_)
        ):
            reason = "older"
        if reason is None:
            replacements[index] = text
            continue
        refused[reason] += 1
        overlong = overlong or reason == "length"
    additions: list[tuple[str, int | None]] = []
    for edit in answer.edits:
        if edit.op != "add":
            continue
        text = clean_line(edit.text or "")
        reason = check(text, turn_of(edit))
        if reason is None:
            additions.append((text, turn_of(edit)))
        else:
            refused[reason] += 1
    # A removal is explained by a forget that names it or by the turn that made it obsolete.
    uncited = {i for i in removals - cited if turn_of(placed[i]) is None}
    restored: set[int] = set()
    if overlong and uncited:
        # A merge too long to store: the pass is retried rather than its new facts lost.
        raise MalformedAnswer("overlong_merge")
    merge = (
        set()
        if evidence_.condense
        else _merge_to_refuse(lines, replacements, merging, uncited, removals, additions)
    )
    if merge:
        # Refused whole: its lines stay; its text stays too where it says something new. A
        # correction the person's turn gave stands.
        restored = merge & uncited
        removals -= restored
        merged_into = {i for i in merge & set(replacements) if turn_of(placed[i]) is None}
        for index in merged_into:
            text = replacements.pop(index)
            if evidence.says_more(text, lines):
                additions.append((text, None))
        refused["merge"] += 1
    uncited -= restored
    result = _assemble(lines, replacements, removals, additions, refuse, known_good, refused)
    sources = {
        text: turn
        for text, turn in [
            *((replacements[i], turn_of(placed[i])) for i in replacements),
            *additions,
        ]
        if turn is not None
    }
    return Applied(
        lines=result.lines,
        refused=refused,
        removed=len(removals),
        uncited=len(uncited),
        folded=result.folded,
        restored=len(restored),
        added=len(additions),
        replaced=len(replacements),
        rewritten=sum(
            1
            for i, text in replacements.items()
            if turn_of(placed[i]) is None and not evidence.kept_in(lines[i - 1], [text])
        ),
        forgotten=[lines[i - 1] for i in sorted(cited & removals)],
        forget_turns=forget_turns,
        cited=sources,
    )


def _older_over_newer(lines: Sequence[str], index: int, text: str, found: Evidence) -> bool:
    """A replace, citing no turn of the person, that writes what an older line says over a
    newer one: the newer statement wins."""
    newer = found.learned.get(index)
    if not newer or evidence.restates(lines[index - 1], text):
        return False
    said = evidence.stems(text)
    return any(
        other != index
        and (found.learned.get(other) or newer) < newer
        and evidence.restated_by(line, said)
        for other, line in enumerate(lines, start=1)
    )


def _cited(
    lines: Sequence[str],
    answer: Answer,
    placed: dict[int, Edit],
    person_turns: Mapping[int, str],
) -> tuple[set[int], frozenset[int]]:
    """The lines a forget cites, checked: its turn is the person's in this pass, and each line
    is one of the answer's removals (by number or quote); "all" cites every line. A line the
    turn does not mention at all stays an ordinary removal (shown, undoable, not forgotten
    for good): the model judges the words of a request, but not against no words at all."""
    cited: set[int] = set()
    turns: set[int] = set()
    removals = {i: e for i, e in placed.items() if e.op == "remove"}
    for forget in answer.forgets:
        if forget.turn not in person_turns:
            raise MalformedAnswer("uncited")
        turns.add(forget.turn)
        if forget.lines is None:
            everything = {
                i
                for i in range(1, len(lines) + 1)
                if placed.get(i) is None or placed[i].op == "remove"
            }
            cited |= everything
            continue
        for number in forget.lines:
            # The line a removal was placed at names it first; else the number it gave.
            match = [i for i in removals if i == number] or [
                i for i, e in removals.items() if e.line == number
            ]
            if len(match) != 1:
                raise MalformedAnswer("unplaced")
            cited.update(
                i for i in match if evidence.mentions(person_turns[forget.turn], lines[i - 1])
            )
    return cited, frozenset(turns)


def _merge_to_refuse(
    lines: Sequence[str],
    replacements: dict[int, str],
    merging: Sequence[str],
    uncited: set[int],
    removed: set[int],
    additions: Sequence[tuple[str, int | None]],
) -> set[int]:
    """The lines of a merge that drops a fact of a line it removes (empty: none to refuse).

    In a pass over turns, replaces beside removals that cite nothing are a merge: each removed
    line's content words must live on in the new list (not in a line removed too). A condense
    drops lines to fit by design: its removals are shown and undoable, pinned lines excepted."""
    if not merging or not uncited:
        return set()
    remaining = [
        *replacements.values(),
        *(text for text, _ in additions),
        *(
            line
            for i, line in enumerate(lines, start=1)
            if i not in removed and i not in replacements
        ),
    ]
    if all(evidence.kept_in(lines[i - 1], remaining) for i in uncited):
        return set()
    return uncited | set(replacements)


@dataclass(frozen=True)
class _Assembled:
    lines: list[str]
    folded: int


def _assemble(
    lines: Sequence[str],
    replacements: dict[int, str],
    removals: set[int],
    additions: Sequence[tuple[str, int | None]],
    refuse: Refuse,
    known_good: Collection[str],
    refused: Counter[str],
) -> _Assembled:
    """The new list in order; lines not checked yet go through `refuse`; duplicates fold."""
    proposed: list[tuple[str, bool]] = []
    for index, line in enumerate(lines, start=1):
        if index in removals:
            continue
        new = replacements.get(index)
        if new is not None:
            proposed.append((new, True))
        else:
            proposed.append((line, line in known_good))
    kept_count = len(proposed)
    proposed.extend((text, True) for text, _ in additions)
    allowed: list[str] = []
    kept_slots = 0  # how many of ``allowed`` hold a line of the list shown
    for position, (text, checked) in enumerate(proposed):
        reason = None if checked else refuse(text)
        if reason is None:
            allowed.append(text)
            kept_slots += position < kept_count
        else:
            refused[reason] += 1
    firsts = first_seen([line_key(text) for text in allowed])  # each key computed once
    kept = [text for text, first in zip(allowed, firsts, strict=True) if first]
    # Lines rewritten into what another line says are folded away: removals in disguise.
    folded = kept_slots - sum(firsts[:kept_slots])
    if len(kept) < len(allowed):
        refused["duplicate"] += len(allowed) - len(kept)
    return _Assembled(kept, folded)


def edits_between(
    before: Sequence[str], after: Sequence[str], *, turn: int | None = None
) -> list[Edit]:
    """The edits that turn `before` into `after`, for whole-list writers (offline, recordings),
    each quoting the line it targets; ``turn``: the person's turn they come from.

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
            i = old[offset]
            edits.append(Edit("replace", line=i + 1, was=before[i], text=new[offset], turn=turn))
        for i in old[paired:]:
            edits.append(Edit("remove", line=i + 1, was=before[i]))
        tail.extend(Edit("add", text=text, turn=turn) for text in new[paired:])
    # Additions come after the kept lines, where apply_edits puts them: every fact is there,
    # if not at the place the model wanted.
    return edits + tail


def dump(edits: Sequence[Edit], forgets: Sequence[Forget] = ()) -> str:
    return json.dumps(
        {"edits": [edit.as_json() for edit in edits], "forget": [f.as_json() for f in forgets]},
        ensure_ascii=False,
    )


def numbered(lines: Sequence[str]) -> list[dict[str, Any]]:
    """The list as the request shows it: each line with its number, from 1."""
    return [{"line": i, "text": line} for i, line in enumerate(lines, start=1)]
