"""Serializers the chat API shares with memory's (a receipt's changed lines)."""

from rest_framework import serializers


class ChangedLineSerializer(serializers.Serializer):
    """``{"from", "to"}``, named here as ``from`` is a keyword."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {"from": serializers.CharField(), "to": serializers.CharField()}
