"""A person is a ``User``: an account or a guest, so everything owned has one owner key."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils import timezone


class PersonManager(UserManager["User"]):
    def create_guest(self) -> User:
        guest = self.model(username=f"guest-{uuid.uuid4().hex}", is_guest=True)
        guest.set_unusable_password()
        guest.save()
        return guest


class User(AbstractUser):
    # Nullable, unlike AbstractUser's (a guest has none): ``str | None`` where it says ``str``.
    email = models.EmailField(unique=True, null=True, blank=True)  # type: ignore[assignment]
    is_guest = models.BooleanField(default=False)
    last_seen_at = models.DateTimeField(default=timezone.now, db_index=True)
    # A guest whose merge into this account waits for the memory model; deleted with it.
    merging_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="merging_guests"
    )

    objects: ClassVar[PersonManager] = PersonManager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(is_guest=True) | models.Q(email__isnull=False),
                name="account_has_email",
            )
        ]

    def __str__(self) -> str:
        return f"guest #{self.pk}" if self.is_guest else f"account #{self.pk}"
