"""Memory receipts: what the pass that read a turn did to the list, shown with that turn
("Memory updated" on the web, ``memory_updated`` / ``memory_change`` in the API).

A pass marks each turn it reads with whether it changed the list and the version it made, so
a receipt is one join, no query per message. The texts are the person's own and reach only
them. A pruned, cleared or scrubbed version shows what is left of it (perhaps nothing).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple, TypedDict

from django.db.models import QuerySet
from django.utils.translation import gettext

from chat.models import Conversation, Message
from memory import facade
from memory.models import Memory, MemoryVersion
from memory.turns import TurnState

# "from" is a keyword: only the functional TypedDict can name it.
ChangedLine = TypedDict("ChangedLine", {"from": str, "to": str})


class Change(TypedDict):
    version: int
    added: list[str]
    changed: list[ChangedLine]
    removed: list[str]
    forgotten: list[str]


def with_receipts(messages: QuerySet[Message]) -> QuerySet[Message]:
    """``messages`` with their pass's version in the same query (without its full lines)."""
    return messages.select_related("memory_version").defer("memory_version__lines")


def memory_updated(message: Message) -> bool | None:
    """True: the pass that read this turn changed the list; False: it changed nothing; None:
    no pass read it (yet, or ever). A long turn read in parts shows its last changing part's
    version. Assistant turns are never a source: always None."""
    if message.role != Message.Role.USER:
        return None
    return message.memory_changed


def forget_missed(message: Message) -> bool | None:
    """True: the person seems to ask to forget, and the pass that read this turn removed
    nothing, so the chat says so rather than stay silent. None for turns no pass has read."""
    updated = memory_updated(message)
    if updated is None or message.memory_state != TurnState.READ:
        return None
    # A pass that changed the list is told by its own receipt (what it forgot is scrubbed
    # from the record after the next change, so the record cannot say).
    return not updated and facade.may_ask_to_forget(message.content)


def current_version(memory_id: int) -> int | None:
    return Memory.objects.filter(pk=memory_id).values_list("version", flat=True).first()


def changes_since(owner_id: int, since: int, *, most: int = 200) -> tuple[list[dict], int, bool]:
    """The list's versions after ``since``, oldest first, each with the message whose reading
    made it and whether it was undone; the version now; whether more follow."""
    memory = Memory.objects.filter(owner_id=owner_id).values_list("pk", "version").first()
    if memory is None:
        return [], 0, False
    memory_id, now = memory
    rows = list(
        MemoryVersion.objects.filter(memory_id=memory_id, version__gt=since)
        .order_by("version")
        .only("pk", "version", "kind", "added", "changed", "removed", "forgotten", "created_at")[
            : most + 1
        ]
    )
    causes: dict[int, tuple[int | None, int | None]] = {}
    for version_id, cause, chat in (
        Message.objects.filter(memory_version__in=[row.pk for row in rows], role=Message.Role.USER)
        .values_list("memory_version_id", "pk", "conversation_id")
        .order_by("pk")
    ):
        causes[version_id] = (cause, chat)  # the newest turn the pass read
    changes = []
    for row, following in zip(rows[:most], [*rows[1:], None], strict=False):
        something = any((row.added, row.changed, row.removed, row.forgotten))
        message, conversation = causes.get(row.pk, (None, None))
        changes.append(
            {
                **_change(row),
                "kind": row.kind,
                "at": row.created_at,
                "message": message,
                "conversation": conversation,
                # Undo reverts only the newest version: its own version comes right after.
                "undone": following is not None and following.kind == MemoryVersion.Kind.UNDO,
                "undoable": something and row.version == now,
            }
        )
    more = len(rows) > most
    # Where to ask from next: past the last change given, or the list's version now.
    return changes, rows[most - 1].version if more else now, more


def undone_versions(memory_id: int, versions: Iterable[int] | None = None) -> set[int]:
    """Which of ``versions`` (all kept, with None) an Undo reverted: Undo reverts only the
    newest version, so the version right after one it reverted is the Undo's own."""
    wanted = None if versions is None else set(versions)
    if wanted is not None and not wanted:
        return set()
    rows = MemoryVersion.objects.filter(memory_id=memory_id)
    if wanted is not None:
        rows = rows.filter(version__gte=min(wanted))
    ordered = list(rows.order_by("version").values_list("version", "kind"))
    return {
        version
        for (version, _), (_, next_kind) in itertools.pairwise(ordered)
        if (wanted is None or version in wanted) and next_kind == MemoryVersion.Kind.UNDO
    }


def change_of(message: Message) -> Change | None:
    """What the turn's pass changed, as far as its version still holds; None otherwise."""
    version: MemoryVersion | None = message.memory_version
    if memory_updated(message) is not True or version is None:
        return None
    return _change(version)


def _standing(change: Change, lines: list[str]) -> tuple[bool, ...]:
    """Whether each line of ``change`` (in ``Receipt.items`` order) still stands in ``lines``."""
    record = facade.ChangeRecord(
        added=change["added"],
        changed=[(line["from"], line["to"]) for line in change["changed"]],
        removed=change["removed"],
        forgotten=change["forgotten"],
    )
    return facade.standing(lines, record)


def receipt_of(conversation: Conversation, version: int) -> Receipt | None:
    """The receipt of the turn of ``conversation`` whose pass made ``version``, as it is now."""
    turns = with_receipts(
        conversation.messages.filter(role=Message.Role.USER, memory_version__version=version)
    )
    shown = receipts_in(turns, owner_id=conversation.owner_id)
    return next(iter(shown.values()), None)


def _change(version: MemoryVersion) -> Change:
    return Change(
        version=version.version,
        added=list(version.added),
        changed=[{"from": old, "to": new} for old, new in version.changed],
        removed=list(version.removed),
        forgotten=list(version.forgotten),
    )


@dataclass(frozen=True)
class Receipt:
    """A "Memory updated" line, and whether Undo can still revert it (its version is current);
    or, with ``forget_missed``, the note that nothing was forgotten (``change`` may be None)."""

    change: Change | None
    undoable: bool
    forget_missed: bool = False
    undone: bool = False  # an Undo reverted it: the receipt says so, on every load
    # Per line of ``items``: its change still stands in the list.
    standing: tuple[bool, ...] = ()
    # The change's record names every line it was made with: each can be undone alone.
    by_line: bool = False

    @property
    def items(self) -> list[tuple[str, str]]:
        """The change as the chat says it: "+ added", "from → to", "− removed"."""
        return [(line.kind, line.text) for line in self._said()]

    @property
    def lines(self) -> list[ReceiptLine]:
        """Each line of the change with its number (what ``undo_line`` takes), the name of its
        own Undo, whether it alone can be undone (in a change of several lines: else Undo says
        it), and whether it no longer stands (undone, or changed since)."""
        said = self._said()
        known = not self.undone and len(self.standing) == len(said)
        alone = known and self.by_line and len(said) > 1
        return [
            line._replace(
                undoable=alone and self.standing[line.item],
                gone=known and not self.standing[line.item],
            )
            for line in said
        ]

    def _said(self) -> list[ReceiptLine]:
        if self.change is None:
            return []
        said = [
            *(
                ("added", f"+ {line}", gettext("Undo adding “%(line)s”") % {"line": line})
                for line in self.change["added"]
            ),
            *(
                (
                    "changed",
                    f"{line['from']} → {line['to']}",
                    gettext("Undo changing “%(from)s” to “%(to)s”") % line,
                )
                for line in self.change["changed"]
            ),
            *(
                ("removed", f"− {line}", gettext("Undo removing “%(line)s”") % {"line": line})
                for line in self.change["removed"]
            ),
            *(
                (
                    "forgotten",
                    gettext("Forgot: %(line)s") % {"line": line},
                    gettext("Undo forgetting “%(line)s”") % {"line": line},
                )
                for line in self.change["forgotten"]
            ),
        ]
        return [ReceiptLine(item, *line) for item, line in enumerate(said)]


class ReceiptLine(NamedTuple):
    item: int
    kind: str
    text: str
    undo_label: str
    undoable: bool = False
    gone: bool = False


def receipts_in(messages: Iterable[Message], *, owner_id: int) -> dict[int, Receipt]:
    """Receipts among one conversation's ``messages``, by message id: each change under the
    newest turn its pass read, and only changes with something left to show."""
    newest: dict[int, tuple[int, Change]] = {}
    intact: set[int] = set()  # versions whose record names every line it was made with
    missed: set[int] = set()
    for message in messages:
        change = change_of(message)
        if change is not None and any(
            change[key] for key in ("added", "changed", "removed", "forgotten")
        ):
            newest[change["version"]] = (message.pk, change)
            if message.memory_version and facade.change_intact(message.memory_version):
                intact.add(change["version"])
        if forget_missed(message):
            missed.add(message.pk)
    if not newest and not missed:
        return {}
    memory_id, current, lines = Memory.objects.filter(owner_id=owner_id).values_list(
        "pk", "version", "lines"
    ).first() or (None, None, [])
    undone = undone_versions(memory_id, newest) if memory_id is not None else set()
    shown = {}
    for message_id, change in newest.values():
        standing = _standing(change, lines)
        shown[message_id] = Receipt(
            change,
            undoable=change["version"] == current,
            forget_missed=message_id in missed,
            undone=change["version"] in undone and not any(standing),
            standing=standing,
            # Lines of a record a later delete rewrote are not undone one by one.
            by_line=change["version"] in intact,
        )
    for message_id in missed - set(shown):
        shown[message_id] = Receipt(None, undoable=False, forget_missed=True)
    return shown


@dataclass(frozen=True)
class Watch:
    """What the chat page's script learns while it waits for a pass after a reply."""

    receipts: dict[int, Receipt]
    # Still an unread turn and an owed pass: a receipt may come.
    waiting: bool


def receipts_after(conversation: Conversation, *, after_id: int) -> Watch:
    """Receipts of the person's turns from ``after_id`` on, and whether to keep asking."""
    turns = list(
        with_receipts(
            conversation.messages.filter(role=Message.Role.USER, id__gte=after_id).order_by("id")
        )
    )
    # A pending turn waits for the sweeper to tell memory.
    waiting = any(turn.memory_state == TurnState.PENDING for turn in turns) or (
        any(turn.memory_state == TurnState.UNREAD for turn in turns)
        and Memory.objects.filter(owner_id=conversation.owner_id, pass_requested=True).exists()
    )
    return Watch(receipts_in(turns, owner_id=conversation.owner_id), waiting=waiting)
