"""Serializer fields stricter than DRF's, so a client's typo is a 400, not a guess."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictBooleanField(serializers.BooleanField):
    """JSON ``true`` or ``false`` only: DRF's also takes "no", "off", "f", 0 and 1."""

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid", input=data)
        raise AssertionError  # fail() raises


class StrictCount(serializers.IntegerField):
    """A whole number written in ASCII digits: DRF's also takes "1.0", " 1" and "٣"."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not (data.isascii() and data.isdigit()):
            self.fail("invalid")
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictText(serializers.CharField):
    """Text only: DRF's CharField would store ``{"text": 12345}`` as "12345"."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))
