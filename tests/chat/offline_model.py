"""Calling the offline memory model the way the memory pass does (the payload contract)."""

from __future__ import annotations

from typing import Any

from memory.offline.extractor import answer
from memory.rules import edits
from memory.rules.prompts import data_text


def call(payload: object) -> list[str]:
    """The list the offline model's edits make of the payload's memory, numbered as the pass
    numbers it (junk items, which a pass never sends, go along unnumbered). Its lines are not
    checked again: only what the model wrote is."""
    if not isinstance(payload, dict):
        return _answered(payload, [])
    data = dict(payload)
    memory = data.get("memory")
    lines = [m for m in memory if isinstance(m, str)] if isinstance(memory, list) else []
    if isinstance(memory, list):
        junk = [m for m in memory if not isinstance(m, str)]
        data["memory"] = [*edits.numbered(lines), *junk]
    return _answered(data, lines)


def _answered(data: object, lines: list[str]) -> list[str]:
    messages = [
        {"role": "system", "content": "rules prose the extractor ignores"},
        {"role": "user", "content": data_text(data)},
    ]
    parsed = edits.parse_answer(answer(messages))
    return edits.apply_edits(lines, parsed, refuse=lambda _: None).lines


def payload(
    *said: str,
    memory: list[str] | None = None,
    task: str = "rewrite",
    target_tokens: int = 1500,
    context: list[dict[str, Any]] | None = None,
    transcript: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A payload with every key of the contract, as memory.rules.prompts builds it."""
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
