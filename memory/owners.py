"""Memory's port to the people who own memories; the accounts app implements it.

Memory keys on owner ids and never imports accounts. Accounts answers three questions here
(from ``AccountsConfig.ready``): is the owner still there (held while memory writes, so a clear
never claims a just-merged guest's lines); which guests still merge into an account (a deleted
line must leave them too); and what to do after a clear (drop guests on their way in).
"""

from __future__ import annotations

from typing import Protocol

from core.slots import Slot


class OwnerDirectory(Protocol):
    def guests_merging_into(self, owner_id: int) -> list[int]:
        """The guests whose merge into this owner is still to be finished."""
        ...

    def hold(self, owner_id: int) -> bool:
        """Lock the owner for the transaction, as merges and deletions do; False once deleted
        or merged (or merging) into an account."""
        ...

    def memory_cleared(self, owner_id: int) -> None:
        """The owner's memory was just cleared (same transaction): nothing may bring lines back."""
        ...


_slot: Slot[OwnerDirectory] = Slot("owner directory", "the accounts app")
# Plug in the implementation (``AppConfig.ready`` of the accounts app), and get it.
use = _slot.fill
directory = _slot.get
