"""Import a memory pasted from another assistant (issue 30): read by code, never by a model.

Each candidate line (``memory.rules.imports``) meets the gate every line meets, is never added
twice and never brings back what the person deleted or asked to forget (the tombstones). New
lines go at the end in the paste's order while the list stays under its cap; those that do
not fit are left out and named, since they are the person's own words. No model call, no pass
and no chat reply follows an import, so a paste costs no tokens and cannot instruct a model.

The whole import is one version: Undo takes it back. Refused lines are counted by reason and
never echoed, logged or stored.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from memory import tombstones
from memory.filters import secrets
from memory.filters.gate import MAX_CHARS, refusal_reason
from memory.models import Memory, MemoryEvent, Outcome
from memory.rules import budget, imports, persons, provenance
from memory.rules.lines import clean_line, line_key
from memory.services import (
    MemoryView,
    StaleVersion,
    get_memory,
    record_event,
    view_memory,
    write_lines,
)

PRODUCTS = imports.PRODUCTS


@dataclass(frozen=True)
class Imported:
    """What an import did, or would do (``dry_run``)."""

    added: list[str]
    # The day the paste says each added line was learned, or None.
    dated: list[date | None]
    # Each added line's source in our own export, or None for any other paste.
    sources: list[provenance.Source | None]
    # Already in the list, or twice in the paste.
    known: int
    # By reason: the gate's ("secret", "instruction", …) and "forgotten".
    refused: dict[str, int]
    # The person's own lines that would pass the cap, left out.
    left_out: list[str]
    dry_run: bool
    memory: MemoryView = field(repr=False)


def import_paste(
    *,
    owner_id: int,
    text: str,
    product: str,
    expected_version: int | None,
    dry_run: bool = False,
    leave_out: Sequence[int] = (),
) -> Imported:
    """Import ``text`` at the version the person saw (``None``: any).

    ``leave_out``: positions in a preview's ``added`` that the person unticked. A lost race
    with ``None`` is read again, a bounded number of times; with a version it is StaleVersion.
    """
    candidates = imports.read_paste(text)
    unticked = set(leave_out)
    for _ in range(settings.MEMORY_CAS_ATTEMPTS):
        memory = get_memory(owner_id=owner_id)
        if expected_version is not None and memory.version != expected_version:
            raise StaleVersion
        plan = _plan(memory, candidates)
        plan.lines = [kept for i, kept in enumerate(plan.lines) if i not in unticked]
        if dry_run or not plan.lines:
            return plan.result(view_memory(owner_id=owner_id), dry_run=dry_run)
        after = [*memory.lines, *plan.kept]
        origin = _origin(product, plan.lines, timezone.now())
        with transaction.atomic():
            if write_lines(memory=memory, lines=after, kind=MemoryEvent.Kind.IMPORT, origin=origin):
                break
        if expected_version is not None:
            raise StaleVersion
    else:
        raise StaleVersion
    record_event(
        owner_id=owner_id,
        kind=MemoryEvent.Kind.IMPORT,
        outcome=Outcome.OK,
        before=memory.lines,
        after=after,
        refused_lines=sum(plan.refused.values()),
    )
    return plan.result(view_memory(owner_id=owner_id), dry_run=False)


@dataclass(frozen=True)
class _Added:
    line: str
    day: datetime | None
    # Its source in our own export, kept as it was.
    source: provenance.Source | None = None


@dataclass
class _Plan:
    lines: list[_Added] = field(default_factory=list)
    known: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    left_out: list[str] = field(default_factory=list)

    @property
    def kept(self) -> list[str]:
        return [added.line for added in self.lines]

    def result(self, memory: MemoryView, *, dry_run: bool) -> Imported:
        return Imported(
            added=self.kept,
            dated=[added.day.date() if added.day else None for added in self.lines],
            sources=[added.source for added in self.lines],
            known=self.known,
            refused=dict(sorted(self.refused.items())),
            left_out=self.left_out,
            dry_run=dry_run,
            memory=memory,
        )


def _plan(memory: Memory, candidates: list[imports.Candidate]) -> _Plan:
    """The lines to add, in order, after the gate, the list, the tombstones and the cap."""
    plan = _Plan()
    seen = {_key(line) for line in memory.lines}
    buried = tombstones.Buried(memory.pk)
    secret_runs = _secret_runs(candidates)
    limit = settings.MEMORY_TOKEN_LIMIT
    # Counted line by line (a list's size is within a token or two of its lines' sum), then
    # checked whole before the write below the cap.
    tokens = budget.list_tokens(memory.lines)
    read: dict[str, str | None] = {}
    for at, candidate in enumerate(candidates):
        line = clean_line(candidate.text)
        reason = "secret" if at in secret_runs else _refusal(line, candidate, read)
        if reason is not None:
            plan.refused[reason] += 1
            continue
        if _key(line) in seen:
            plan.known += 1
            continue
        seen.add(_key(line))
        if tombstones.is_buried(line, buried):
            plan.refused["forgotten"] += 1
            continue
        cost = budget.count_tokens(f"- {line}\n")
        if tokens + cost > limit:
            # The sum of lines overcounts a list by a token or two: near the cap, count whole.
            exact = budget.list_tokens([*memory.lines, *plan.kept, line])
            if exact > limit:
                plan.left_out.append(line)
                continue
            cost = exact - tokens
        tokens += cost
        plan.lines.append(_Added(line, _day(candidate), candidate.source))
    while plan.lines and budget.list_tokens([*memory.lines, *plan.kept]) > limit:
        plan.left_out.insert(0, plan.lines.pop().line)
    return plan


def _key(line: str) -> str:
    """A line as the list compares it (``line_key``), whatever its apostrophes or code marks:
    a paste's "Doesn’t" is the list's "Doesn't", but "Knows C++" is not "Knows C"."""
    return line_key(line.replace("\u2019", "'").replace("`", ""))


def _refusal(line: str, candidate: imports.Candidate, read: dict[str, str | None]) -> str | None:
    """The gate's reason for ``line``, or for what the paste said around it: rewriting may
    drop the very words that make an instruction or a secret ("You should always …").
    ``read``: what the gate said of each text already, as a paste's items share context."""
    if (reason := refusal_reason(line)) is not None:
        return reason

    def refused(said: str) -> str | None:
        if said not in read:
            read[said] = refusal_reason(_within(said))
        return read[said] if read[said] != "length" else None

    for said in candidate.context:
        found = refused(said)
        if found == "instruction" and persons.said_to_them(said):
            continue  # "You started a job": the paste's "you" is the person
        if found is not None:
            return found
    for span in candidate.spans:
        together = refused(". ".join(span))
        if together is not None and not any(refused(part) for part in span):
            return together
    return None


# A seed phrase as a wallet shows it: a word or a few a line, 12 or 24 in all. Each line alone
# passes the gate, so runs of such lines are read together.
SEED_WORDS = 12
MAX_SEED_WORDS = 24
SHORT_WORDS = 6
_WORDS_ONLY_RE: Final = re.compile(r"[^\W\d_]+(?:[\s,;]+[^\W\d_]+)*[.,;]?")
_WORD_RE: Final = re.compile(r"[^\W\d_]+")


def _secret_runs(candidates: list[imports.Candidate]) -> set[int]:
    """Positions of lines that, read together with their neighbours, are a secret."""
    runs: list[list[int]] = [[]]
    for at, candidate in enumerate(candidates):
        words = _WORD_RE.findall(candidate.text)
        if (
            _WORDS_ONLY_RE.fullmatch(candidate.text)
            and len(words) <= SHORT_WORDS
            and all(secrets.is_seed_word(word) for word in words)
        ):
            runs[-1].append(at)
        elif runs[-1]:
            runs.append([])
    found: set[int] = set()
    for run in runs:
        # Words alone, in any case, as a wallet lists them ("Abandon, ability, able").
        texts = [" ".join(_WORD_RE.findall(candidates[at].text)).lower() for at in run]
        if sum(len(text.split()) for text in texts) >= SEED_WORDS:
            found.update(run[at] for at in _secret_lines(texts))
    return found


def _secret_lines(texts: list[str]) -> set[int]:
    """The fewest consecutive lines that are a secret together, each time one is: a short
    fact beside a seed phrase is not taken with it. A window holds at most a seed phrase's
    longest (24 words), so a long list of short facts costs a few reads a line."""
    found: set[int] = set()

    def secret(first: int, end: int) -> bool:
        return refusal_reason(_within(" ".join(texts[first:end]))) == "secret"

    start = 0
    while start < len(texts):
        end, words, hit = start, 0, None
        while end < len(texts) and words < MAX_SEED_WORDS:
            words += len(texts[end].split())
            end += 1
            if words >= SEED_WORDS and secret(start, end):
                hit = end
                break
        if hit is None:
            start += 1
            continue
        while start + 1 < hit and secret(start + 1, hit):
            start += 1
        found.update(range(start, hit))
        start = hit
    return found


def _within(text: str) -> str:
    """``text`` cut at a word to the longest a line may be, for the gate to read it whole."""
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS + 1].rsplit(" ", 1)[0]


def _day(candidate: imports.Candidate) -> datetime | None:
    return datetime.combine(candidate.dated, time(), tzinfo=UTC) if candidate.dated else None


def _origin(product: str, added: list[_Added], now: datetime) -> provenance.Origin:
    """Each new line imported now from ``product``, learned on its date if the paste gave one;
    a line of our own export keeps its source."""
    by_line = {entry.line: entry for entry in added}

    def source(line: str) -> provenance.Source:
        entry = by_line.get(line)
        if entry is not None and entry.source is not None:
            return entry.source
        made = provenance.source(provenance.Kind.IMPORTED, (entry and entry.day) or now)
        made["changed_at"] = provenance.stamp(now)
        made["product"] = product
        return made

    return provenance.Origin(new=source)
