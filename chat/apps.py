from __future__ import annotations

import threading
from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started


def _warm_up_litellm(**kwargs: Any) -> None:
    """litellm takes seconds to import: start it beside the process's first request rather than
    in front of its first model call. On the first request, not at import, so a server that
    forks workers after loading the app (gunicorn --preload) never forks mid-import."""
    request_started.disconnect(_warm_up_litellm)
    from chat import llm

    threading.Thread(target=llm.litellm, name="litellm-warm-up", daemon=True).start()


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        request_started.connect(_warm_up_litellm)
