"""Calling the offline memory model the way the memory pass does (the payload contract)."""

from __future__ import annotations

import json
from typing import Any

from memory.offline.extractor import answer


def call(payload: object) -> list[str]:
    messages = [
        {"role": "system", "content": "rules prose the extractor ignores"},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    return json.loads(answer(messages))["lines"]


def payload(
    *said: str,
    memory: list[str] | None = None,
    task: str = "rewrite",
    target_tokens: int = 1500,
    context: list[dict[str, Any]] | None = None,
    transcript: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A payload with every key of the contract, as memory.prompts builds it."""
    return {
        "task": task,
        "today": "2026-11-30",
        "memory": memory or [],
        "memory_tokens": 0,
        "target_tokens": target_tokens,
        "token_limit": 2000,
        "line_max_chars": 160,
        "forget_requested": False,
        "context": context or [],
        "transcript": transcript
        if transcript is not None
        else [{"role": "user", "content": text, "conversation": 1} for text in said],
    }


def run_pass(
    *said: str, memory: list[str] | None = None, task: str = "rewrite", target_tokens: int = 1500
) -> list[str]:
    return call(payload(*said, memory=memory, task=task, target_tokens=target_tokens))
