"""WSGI entry point."""

import os
import threading

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _warm_up_litellm() -> None:
    # litellm takes seconds to import; do it beside the first requests, not in front of one.
    from chat import llm

    llm.litellm()


threading.Thread(target=_warm_up_litellm, name="litellm-warm-up", daemon=True).start()
