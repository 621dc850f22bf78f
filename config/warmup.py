"""What a server loads before it serves, so no first request or pass waits for it."""

from __future__ import annotations

import logging

import llm
from memory import facade

log = logging.getLogger(__name__)


def warm_up(*, urls: bool = False) -> None:
    """Before a server forks: import litellm (seconds) and load the o200k tokenizer (about a
    second); with ``urls``, the URLconf with every view behind it and the translation catalogs
    too (a web server's first request would load them). Opens no connection and starts no
    thread: what is loaded here is shared by the forked children."""
    llm.litellm()
    facade.load_tokenizer()
    if urls:
        from django.conf import settings
        from django.urls import get_resolver
        from django.utils import translation

        get_resolver().url_patterns  # noqa: B018 - imports the URLconf and its views
        for code, _ in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Memory")


def warm_up_process() -> None:
    """In a freshly forked worker process, before it serves: one call of the offline chat model
    through the model seam, which starts the thread pools litellm and ``llm`` keep (threads
    do not survive a fork, so this cannot happen before it) and fills litellm's first-call
    caches. Never fatal: a failure here only leaves the first request to pay for it."""
    try:
        llm.complete(
            model=f"{llm.OFFLINE_PROVIDER}/whizi-chat",
            messages=[{"role": "user", "content": "Hello"}],
            timeout=10,
        )
    except llm.ModelError as error:
        log.warning("warmup.model_call_failed code=%s", error.code)
