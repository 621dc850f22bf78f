"""What a server loads before it serves, so no first request or pass waits for it."""

from __future__ import annotations

import logging

import llm
from memory import facade

log = logging.getLogger(__name__)


# A closed port on the loopback (discard): a hosted provider's request to it fails at once.
NOWHERE = "http://127.0.0.1:9/v1"


def warm_up(*, urls: bool = False) -> None:
    """Before a server forks: import litellm, each hosted model's provider and the tokenizer,
    with ``urls`` the URLconf and translation catalogs. No connection or thread, so the forked
    children share it all."""
    llm.litellm()
    _load_hosted_providers()
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


def _load_hosted_providers() -> None:
    """One request per hosted model to a closed port: its SDK, client and request
    transformation load here, once, not in every worker's first reply (a hosted first message
    took twice the tenth's time). Nothing is sent anywhere."""
    from django.conf import settings

    lib = llm.litellm()
    ours = {provider["provider"] for provider in lib.custom_provider_map}
    for model in sorted({*settings.CHAT_MODELS, settings.MEMORY_MODEL}):
        if model.split("/", 1)[0] in ours:
            continue
        try:
            lib.completion(
                model=model,
                messages=[{"role": "user", "content": "Hello"}],
                api_base=NOWHERE,
                api_key="warm-up",
                max_retries=0,
                timeout=2,
            )
        except Exception:  # noqa: BLE001 - refused on purpose: loading was the point
            log.debug("warmup.provider_loaded")
