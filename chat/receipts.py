"""Memory receipts: what the pass that read a person's turn did to their memory list, shown with
that turn ("Memory updated" in the web chat, ``memory_updated`` / ``memory_change`` in the API).

A pass marks every turn it reads with whether it changed the list and the version it made
(``chat.turns.ChatTurns.mark_read``), so a receipt is read from the message row and its version
in one join: no query per message. The texts are the person's own data and only reach them. A
version that was pruned, cleared or scrubbed of what the person forgot shows what is left of it
(nothing, for a pruned or cleared one: the message still says the list changed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from chat.models import Conversation, Message
from memory.models import Memory, MemoryVersion
from memory.turns import TurnState

# "from" is a keyword: only the functional form of TypedDict can name it.
ChangedLine = TypedDict("ChangedLine", {"from": str, "to": str})


class Change(TypedDict):
    version: int
    added: list[str]
    changed: list[ChangedLine]
    removed: list[str]


def with_receipts(messages: QuerySet[Message]) -> QuerySet[Message]:
    """``messages`` with the version their pass made, in the same query (its lines, the whole
    list, are left behind: a receipt needs only the change)."""
    return messages.select_related("memory_version").defer("memory_version__lines")


def load_messages(conversation: Conversation) -> None:
    """Fetch the conversation's messages with their receipts (``conversation.messages.all()``
    then reads them from memory): one query, however many messages."""
    prefetch_related_objects(
        [conversation], Prefetch("messages", queryset=with_receipts(Message.objects.all()))
    )


def memory_updated(message: Message) -> bool | None:
    """True: the pass that read this turn changed the list; False: it read it and changed
    nothing; None: no pass read it (not yet, or never: memory off, a temporary chat, a skipped
    turn). A turn longer than a pass's transcript cap is read in parts: a part that changed
    the list says so at once, and the last such part's version is the one shown. The
    assistant's turns are never a source of facts: always None."""
    if message.role != Message.Role.USER:
        return None
    return message.memory_changed


def change_of(message: Message) -> Change | None:
    """What the pass that read this turn changed, as much of it as its version still holds;
    None when it changed nothing or its version is gone."""
    version: MemoryVersion | None = message.memory_version
    if memory_updated(message) is not True or version is None:
        return None
    return Change(
        version=version.version,
        added=list(version.added),
        changed=[{"from": old, "to": new} for old, new in version.changed],
        removed=list(version.removed),
    )


@dataclass(frozen=True)
class Receipt:
    """A "Memory updated" line of the chat page: the change, and whether Undo can still revert
    it (its version is the list's current one, the ``If-Match`` an undo needs)."""

    change: Change
    undoable: bool

    @property
    def items(self) -> list[tuple[str, str]]:
        """The change as the chat says it: "+ added", "from → to", "− removed"."""
        return [
            *(("added", f"+ {line}") for line in self.change["added"]),
            *(("changed", f"{line['from']} → {line['to']}") for line in self.change["changed"]),
            *(("removed", f"− {line}") for line in self.change["removed"]),
        ]


def receipts_in(messages: Iterable[Message], *, owner_id: int) -> dict[int, Receipt]:
    """The receipts to show among ``messages`` (one conversation's, oldest first), by message
    id: each change under the newest of the person's turns its pass read here, and only a
    change something is left of to show (a pruned or cleared version shows nothing)."""
    newest: dict[int, tuple[int, Change]] = {}
    for message in messages:
        change = change_of(message)
        if change is not None and (change["added"] or change["changed"] or change["removed"]):
            newest[change["version"]] = (message.pk, change)
    if not newest:
        return {}
    current = Memory.objects.filter(owner_id=owner_id).values_list("version", flat=True).first()
    return {
        message_id: Receipt(change, undoable=change["version"] == current)
        for message_id, change in newest.values()
    }


@dataclass(frozen=True)
class Watch:
    """What the chat page's script learns while it waits for a pass after a reply."""

    receipts: dict[int, Receipt]
    # A turn of these is still unread and the memory owes a pass: a receipt may still come.
    waiting: bool


def receipts_after(conversation: Conversation, *, after_id: int) -> Watch:
    """The receipts of the person's turns of ``conversation`` from ``after_id`` on, and whether
    to keep asking (at most three small queries)."""
    turns = list(
        with_receipts(
            conversation.messages.filter(role=Message.Role.USER, id__gte=after_id).order_by("id")
        )
    )
    waiting = any(turn.memory_state == TurnState.UNREAD for turn in turns) and (
        Memory.objects.filter(owner_id=conversation.owner_id, pass_requested=True).exists()
    )
    return Watch(receipts_in(turns, owner_id=conversation.owner_id), waiting=waiting)
