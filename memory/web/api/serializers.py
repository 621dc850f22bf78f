"""Serializers the chat API shares with memory's (a receipt's changed lines)."""

from rest_framework import serializers


class ChangedLineSerializer(serializers.Serializer):
    """``{"from", "to"}``: ``from`` is a Python keyword, so the fields are named here."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {"from": serializers.CharField(), "to": serializers.CharField()}
