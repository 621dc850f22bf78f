"""What a server loads before it serves, so no first request or pass waits for it."""

from __future__ import annotations

import logging

import llm
from memory import facade

log = logging.getLogger(__name__)


def warm_up(*, urls: bool = False) -> None:
    """Before a server forks: import litellm and the tokenizer, with ``urls`` the URLconf and
    translation catalogs. No connection or thread, so the forked children share it all."""
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
    """In a forked worker: one offline model call starts the thread pools (threads do not
    survive a fork) and fills litellm's caches. Never fatal."""
    try:
        llm.complete(
            model=f"{llm.OFFLINE_PROVIDER}/whizi-chat",
            messages=[{"role": "user", "content": "Hello"}],
            timeout=10,
        )
    except llm.ModelError as error:
        log.warning("warmup.model_call_failed code=%s", error.code)
