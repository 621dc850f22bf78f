"""Accounts' side of memory's owner port (``memory.owners``). Plugged in by
``AccountsConfig.ready``."""

from __future__ import annotations

from accounts.models import User


class AccountDirectory:
    """``memory.owners.OwnerDirectory`` over ``User.merging_into`` (a deferred guest merge)."""

    def guests_merging_into(self, owner_id: int) -> list[int]:
        return list(
            User.objects.filter(merging_into_id=owner_id, is_guest=True).values_list(
                "pk", flat=True
            )
        )

    def drop_guests_merging_into(self, owner_id: int) -> None:
        User.objects.filter(merging_into_id=owner_id, is_guest=True).delete()
