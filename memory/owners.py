"""Memory's view of the people who own memories: a narrow port the accounts app implements.

Memory keys everything on an owner id and never imports accounts. Two things of an owner's
life reach into memory's own rules, and accounts answers them here (``use``, from
``AccountsConfig.ready``): which guests are still waiting to merge into an account (their lines
would arrive later, so a line the person deletes must leave them too), and dropping those guests
when the account clears its memory (a clear is final, whatever was on its way in).
"""

from __future__ import annotations

from typing import Protocol

from core.slots import Slot


class OwnerDirectory(Protocol):
    def guests_merging_into(self, owner_id: int) -> list[int]:
        """The guests whose merge into this owner is still to be finished."""
        ...

    def drop_guests_merging_into(self, owner_id: int) -> None:
        """Delete those guests, memory and all; runs in the caller's transaction."""
        ...


_slot: Slot[OwnerDirectory] = Slot("owner directory", "the accounts app")
# Plug in the implementation (``AppConfig.ready`` of the accounts app), and get it.
use = _slot.fill
directory = _slot.get
