"""Accounts' side of memory's owner port (``memory.owners``). Plugged in by
``AccountsConfig.ready``."""

from __future__ import annotations

from accounts.models import User
from core import db


class AccountDirectory:
    """``memory.owners.OwnerDirectory`` over ``User.merging_into`` (a deferred guest merge)."""

    def guests_merging_into(self, owner_id: int) -> list[int]:
        return list(
            User.objects.filter(merging_into_id=owner_id, is_guest=True).values_list(
                "pk", flat=True
            )
        )

    def hold(self, owner_id: int) -> bool:
        # No key update, as a guest merge takes it: rows of the owner's being written meanwhile
        # (a memory row a message creates) may still reference the person.
        still_here = User.objects.filter(pk=owner_id, merging_into__isnull=True)
        return bool(db.lock(still_here, no_key=True))

    def memory_cleared(self, owner_id: int) -> None:
        # Guests still waiting to merge into this owner would bring their lines in later.
        User.objects.filter(merging_into_id=owner_id, is_guest=True).delete()
