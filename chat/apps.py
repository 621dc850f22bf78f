from __future__ import annotations

import threading
from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started

import llm


def _warm_up_litellm(**kwargs: Any) -> None:
    """Import litellm beside the first request, not at load: never fork mid-import."""
    request_started.disconnect(_warm_up_litellm)
    threading.Thread(target=llm.litellm, name="litellm-warm-up", daemon=True).start()


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        # Once the app registry is ready.
        from chat.offline import responder
        from chat.turns import ChatTurns
        from llm import offline as offline_models
        from memory import turns

        request_started.connect(_warm_up_litellm)
        offline_models.register(responder.MODEL_NAME, responder.answer, default=True)
        turns.use(ChatTurns())
