"""The benchmark's instant model speaks the memory contract the passes read, so ``make bench``
measures passes that succeed (its old whole-list answer made every pass fail, unnoticed)."""

from __future__ import annotations

from benchmarks import instant
from memory.rules import edits, prompts


def test_the_instant_memory_model_answers_edits_the_pass_applies() -> None:
    lines = ["Name is Anna", "Likes jazz"]
    messages = prompts.memory_messages(
        task="rewrite",
        lines=lines,
        transcript=[{"role": "user", "content": "hi"}],
        forget_requested=False,
        assistant="Whizi",
        target_tokens=1500,
    )
    instant._memory_calls[0] = 0
    results = []
    for _ in range(3):
        answer = edits.parse_answer(instant._answer("memory", messages))
        results.append(edits.apply_edits(lines, answer, refuse=lambda _: None).lines)

    assert results[0] == results[1] == lines
    assert results[2][0] == "Name is Anna"
    assert results[2][1].startswith("Likes tea ")
