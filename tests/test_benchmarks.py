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
        answer = edits.parse_answer(instant.answer("memory", messages))
        results.append(edits.apply_edits(lines, answer, refuse=lambda _: None).lines)

    assert results[0] == results[1] == lines
    assert results[2][0] == "Name is Anna"
    assert results[2][1].startswith("Likes tea ")


def test_the_benchmarks_model_server_answers_litellms_openai_provider_over_http() -> None:
    """``make bench`` reaches its models the way the product reaches a hosted provider."""
    import threading
    from http.server import ThreadingHTTPServer

    import llm
    from benchmarks.model_server import Handler

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/v1"
    messages = prompts.memory_messages(
        task="rewrite",
        lines=["Name is Anna"],
        transcript=[{"role": "user", "content": "hi"}],
        forget_requested=False,
        assistant="Whizi",
        target_tokens=1500,
    )
    try:
        chat = llm.complete(
            model="openai/gpt-4o-mini",
            messages=[{"role": "user", "content": "Hello"}],
            timeout=60,
            api_base=base,
            api_key="k",
        )
        memory = llm.complete(
            model="openai/gpt-4.1-mini",
            messages=messages,
            timeout=60,
            api_base=base,
            api_key="k",
            response_format={"type": "json_object"},
        )
    finally:
        server.shutdown()
        server.server_close()

    assert chat.text == "Sure." and chat.tokens_in > 0
    assert edits.parse_answer(memory.text).edits is not None
    assert memory.tokens_in > 100  # the rules and the list, counted as a provider bills
