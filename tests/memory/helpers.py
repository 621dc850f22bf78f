"""Helpers for memory tests: owners with turns, and memory model answers."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from django.db import connection

from chat.models import Conversation, Message
from memory.engine import passes
from memory.models import Memory
from memory.rules import changes, edits, evidence
from memory.rules.prompts import read_data
from memory.rules.triggers import is_forget_request, is_wipe_request
from memory.services import get_memory


def answer(*lines: str) -> Callable[[list[dict[str, Any]]], str]:
    """A memory model that wants the list to be ``lines``: it answers with the edits that turn
    the list its request shows into them, each quoting its line, and cites the person's last
    turn that asks to forget for what it removes (what a careful hosted model would send)."""

    def edits_to(messages: list[dict[str, Any]]) -> str:
        data = payload(messages)
        shown, transcript = data["memory"], data.get("transcript", [])
        found = _edits(shown, list(lines), transcript)
        asking = [
            turn["turn"]
            for turn in transcript
            if turn["role"] == "user" and is_forget_request(turn["content"])
        ]
        removed = [edit.line for edit in found if edit.op == "remove" and edit.line]
        wipe = any(is_wipe_request(t["content"]) for t in transcript if t["turn"] in asking)
        forgets = (
            [edits.Forget(asking[-1], None if wipe and not lines else tuple(removed))]
            if asking and removed
            else []
        )
        return edits.dump(found, forgets)

    return edits_to


def _edits(
    shown: list[str], wanted: list[str], transcript: list[dict[str, Any]]
) -> list[edits.Edit]:
    """The edits a careful model sends: a changed line replaced in place (paired by meaning, not
    position), each new text citing the person's turn it best comes from."""
    record = changes.diff(shown, wanted)
    found = [
        *(
            edits.Edit(
                "replace", line=shown.index(old) + 1, was=old, text=new, turn=_turn(new, transcript)
            )
            for old, new in record.changed
        ),
        *(edits.Edit("remove", line=shown.index(old) + 1, was=old) for old in record.removed),
        *(edits.Edit("add", text=new, turn=_turn(new, transcript)) for new in record.added),
    ]
    into = dict(record.changed)
    placed = [into.get(line, line) for line in shown if line not in record.removed]
    if [*placed, *record.added] != wanted:  # the list's order differs: the same by position
        found = [
            edits.Edit(
                e.op,
                line=e.line,
                was=e.was,
                text=e.text,
                turn=_turn(e.text or "", transcript) if e.op != "remove" else None,
            )
            for e in edits.edits_between(shown, wanted)
        ]
    return found


def _turn(text: str, transcript: list[dict[str, Any]]) -> int | None:
    """The person's turn sharing most content words with ``text``, else their last one."""
    users = [t for t in transcript if t["role"] == "user"]
    if not users:
        return None
    want = evidence.stems(text)
    score, turn = max((len(want & evidence.stems(t["content"])), t["turn"]) for t in users)
    return turn if score else users[-1]["turn"]


def edits_answer(*items: dict[str, Any]) -> str:
    """A memory model answer of these edits, as written."""
    return json.dumps({"edits": list(items)})


def raw_payload(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The data a memory model call carried (its last message), read back as sent."""
    return read_data(messages[-1]["content"])


def payload(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The data a memory model call carried, its numbered memory read back as the lines."""
    data = raw_payload(messages)
    data["memory"] = [item["text"] for item in data["memory"]]
    return data


def conversation_with(owner, *turns: str, temporary: bool = False) -> Conversation:
    """A conversation whose turns alternate user / assistant, starting with the person."""
    conversation = Conversation.objects.create(
        owner=owner, model="scripted/chat-a", temporary=temporary
    )
    for i, text in enumerate(turns):
        Message.objects.create(
            conversation=conversation, role="user" if i % 2 == 0 else "assistant", content=text
        )
    return conversation


def ended_voice_session(owner, *turns: dict[str, str]):
    """A voice session of ``owner`` that ended with these turns, waiting for its pass."""
    from django.utils import timezone

    from chat.models import VoiceSession

    return VoiceSession.objects.create(
        owner=owner, model="scripted/chat-a", ended_at=timezone.now(), transcript=list(turns)
    )


def memory_with(owner, *lines: str, owed: bool = True) -> Memory:
    """A memory holding ``lines`` (bypassing passes and the gate, so stored under older rules)
    that owes a pass when ``owed``."""
    from django.utils import timezone

    from memory.rules.budget import list_tokens

    memory = get_memory(owner_id=owner.pk)
    Memory.objects.filter(pk=memory.pk).update(
        lines=list(lines),
        tokens=list_tokens(list(lines)),
        rules_version=0,
        pass_requested=owed,
        pass_requested_at=timezone.now() if owed else None,
    )
    memory.refresh_from_db()
    return memory


def run_pass(memory: Memory | int, *, expect: str, retry_in: int = 0) -> passes.PassResult:
    """Run the owed pass of ``memory`` and assert how it ended (an ``Outcome``). A test that a
    pass did not write something first knows the pass ran to the end it expects: a model that
    timed out ends it as ``timeout``, which leaves the list as it was too."""
    memory_id = memory if isinstance(memory, int) else memory.pk
    result = passes.run_pass(memory_id=memory_id, retry_in=retry_in)
    assert result.outcome == expect, f"the pass ended {result.outcome!r}, not {expect!r}"
    return result


def later(memory: Memory, seconds: float) -> None:
    """As if ``seconds`` had passed for ``memory``: every time it holds moves that far back."""
    from datetime import timedelta

    from django.db.models import F

    shift = timedelta(seconds=seconds)
    Memory.objects.filter(pk=memory.pk).update(
        **{
            name: F(name) - shift
            for name in (
                "pass_requested_at",
                "pass_claimed_at",
                "lease_until",
                "pass_not_before",
                "pass_resend_at",
            )
        }
    )


_NAME_RE = re.compile(r"\bmy name is (\w+)", re.IGNORECASE)
_LIKE_RE = re.compile(r"\bI like (\w+)", re.IGNORECASE)


class Keeper:
    """A scripted memory model that keeps every line it is given and adds "Name is X" and
    "Likes X" for what the person says in the NEW turns; it records every turn it was given as
    a source and as context, so tests can check that each turn is read exactly once."""

    def __init__(self) -> None:
        self.sources: list[str] = []
        self.context: list[str] = []

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        data = payload(messages)
        lines = list(data["memory"])
        self.context.extend(t["content"] for t in data["context"])
        for turn in data["transcript"]:
            if turn["role"] != "user":
                continue
            self.sources.append(turn["content"])
            found = [f"Name is {m[1]}" for m in _NAME_RE.finditer(turn["content"])]
            found += [f"Likes {m[1]}" for m in _LIKE_RE.finditer(turn["content"])]
            lines.extend(line for line in found if line not in lines)
        return answer(*lines)(messages)


def wait_for(predicate: Any, seconds: float = 30.0) -> bool:
    """Poll a condition (never a fixed sleep): True as soon as it holds, False at the deadline."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def migrate(targets):
    """Migrate the test database to ``targets``; the apps as they stand there."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def anna_and_bob(apps):
    """Two people, in the apps of a migration state."""
    User = apps.get_model("accounts", "User")
    return tuple(
        User.objects.create(email=f"{name}@example.com", username=f"{name}@example.com")
        for name in ("anna", "bob")
    )


def meanwhile(
    action: Callable[[], object], then_answer: Any
) -> Callable[[list[dict[str, Any]]], Any]:
    """A scripted answer that first does ``action`` (committed), as if another request did in
    the middle of the model call (which runs in a worker thread with its own connection)."""

    def respond(messages: list[dict[str, Any]]) -> Any:
        try:
            action()
        finally:
            connection.close()  # this runs in the model's worker thread
        return then_answer(messages) if callable(then_answer) else then_answer

    return respond
