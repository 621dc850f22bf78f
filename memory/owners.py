"""Memory's view of the people who own memories: a narrow port the accounts app implements.

Memory keys everything on an owner id and never imports accounts. Three things of an owner's
life reach into memory's own rules, and accounts answers them here (``use``, from
``AccountsConfig.ready``): whether the owner is still there, held so it stays so while memory
writes (a clear said to a guest that has just signed up must not claim the account's lines);
which guests are still waiting to merge into an account (their lines would arrive later, so a
line the person deletes must leave them too); and what accounts does when an owner's memory is
cleared (memory only says so; accounts drops the guests that were on their way in, since a
clear is final).
"""

from __future__ import annotations

from typing import Protocol

from core.slots import Slot


class OwnerDirectory(Protocol):
    def guests_merging_into(self, owner_id: int) -> list[int]:
        """The guests whose merge into this owner is still to be finished."""
        ...

    def hold(self, owner_id: int) -> bool:
        """Lock the owner until the caller's transaction ends, as a guest merge and a deletion
        do before they touch its memory, and say whether it is still there as itself: False
        once deleted, or once a guest has gone (or is going) into an account."""
        ...

    def memory_cleared(self, owner_id: int) -> None:
        """The owner's memory was just cleared, in the caller's transaction: nothing owned
        elsewhere may bring its lines back."""
        ...


_slot: Slot[OwnerDirectory] = Slot("owner directory", "the accounts app")
# Plug in the implementation (``AppConfig.ready`` of the accounts app), and get it.
use = _slot.fill
directory = _slot.get
