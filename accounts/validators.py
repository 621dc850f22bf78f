"""The project's own password rules where Django's words fall short.

Django's Italian catalogue has no translation for the plural "too short" message, so an Italian
sign-up said it in English; this validator says the same in ``ngettext`` with the project's own
translations (``locale/``), in every language the site speaks.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's minimum length, its messages translated by the project."""

    def validate(self, password: str, user: Any = None) -> None:
        if len(password) < self.min_length:
            raise ValidationError(
                ngettext(
                    "This password is too short. It must contain at least %(min_length)d "
                    "character.",
                    "This password is too short. It must contain at least %(min_length)d "
                    "characters.",
                    self.min_length,
                ),
                code="password_too_short",
                params={"min_length": self.min_length},
            )

    def get_help_text(self) -> str:
        return ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
