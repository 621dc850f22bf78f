"""The chat models on offer (``CHAT_MODELS``) and the errors a person can fix."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext

import llm
from core.errors import Invalid


class InvalidInput(Invalid):
    """Input the person can fix (HTTP 400)."""


@dataclass(frozen=True)
class ModelOption:
    id: str
    label: str


def available_models() -> list[ModelOption]:
    """The chat models on offer (``CHAT_MODELS``), with their labels."""
    labels = settings.CHAT_MODEL_LABELS
    return [
        ModelOption(id=m, label=labels.get(m) or _default_label(m)) for m in settings.CHAT_MODELS
    ]


def _default_label(model: str) -> str:
    provider, _, name = model.partition("/")
    if provider == llm.OFFLINE_PROVIDER:
        return f"{name.replace('-', ' ').title()} (offline)"
    return name or model


def check_model(model: str) -> str:
    """``model`` if it is on offer, else InvalidInput."""
    if model not in settings.CHAT_MODELS:
        raise InvalidInput(
            "unknown_model", gettext("Unknown model. Pick one of the models on offer.")
        )
    return model
