"""What a server process loads before it forks, so no request or pass waits for it."""

from __future__ import annotations


def warm_up(*, urls: bool = False) -> None:
    """Import litellm (seconds) and load the o200k tokenizer (about a second); with ``urls``,
    the URLconf and every view behind it too (a web server's first request would load them).
    Opens no connection of any kind: what is loaded here is shared by the forked children."""
    from chat import llm
    from memory import budget

    llm.litellm()
    budget.load_encoding()
    if urls:
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018 - imports the URLconf and its views
