from __future__ import annotations

import threading
from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started

import llm


def _warm_up_litellm(**kwargs: Any) -> None:
    """litellm takes seconds to import: start it beside the process's first request rather than
    in front of its first model call. On the first request, not at import, so a server that
    forks workers after loading the app (gunicorn --preload) never forks mid-import."""
    request_started.disconnect(_warm_up_litellm)
    threading.Thread(target=llm.litellm, name="litellm-warm-up", daemon=True).start()


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        # Imported once the app registry is ready, as Django asks of modules that use it.
        from chat.offline import responder
        from chat.turns import ChatTurns
        from llm import offline as offline_models
        from memory import turns

        request_started.connect(_warm_up_litellm)
        offline_models.register(responder.MODEL_NAME, responder.answer, default=True)
        turns.use(ChatTurns())
