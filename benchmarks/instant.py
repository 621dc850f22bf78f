"""The benchmark's model: a litellm custom provider ("instant/...") that answers at once.

Chat calls get a short fixed reply. Memory calls answer edits against the numbered list they
were given: none twice out of three (the usual result of a pass, SPEC §3), the last line
replaced by a shorter one the third time (a list that changes, still under the cap). It times
itself, so a pass's own overhead can leave the model's time out; usage is reported as zero, so
nothing is counted that a hosted model would not count either.
"""

from __future__ import annotations

import json
import time
from typing import Any

# Seconds spent inside the provider (this process), and in llm.complete around it; and
# whether each memory call changed the list.
model_seconds: list[float] = []
seam_seconds: list[float] = []
changed: list[bool] = []
_memory_calls = [0]


def _answer(model: str, messages: list[dict[str, Any]]) -> str:
    if model != "memory":
        return "Sure."
    # The contract of ``memory.rules.prompts``: the numbered list in, edits against it out.
    shown = list(json.loads(messages[-1]["content"])["memory"])
    _memory_calls[0] += 1
    change = _memory_calls[0] % 3 == 0 and bool(shown)
    edits = (
        [
            {
                "op": "replace",
                "line": shown[-1]["line"],
                "was": shown[-1]["text"],
                "text": f"Likes tea {_memory_calls[0]}",
            }
        ]
        if change
        else []
    )
    changed.append(change)
    return json.dumps({"edits": edits, "forget": []})


def register() -> None:
    """Add the provider to litellm (importing it) and time llm.complete."""
    import llm
    from llm.provider import TextProvider

    class Instant(TextProvider):
        def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
            started = time.perf_counter()
            text = _answer(model, messages)
            model_seconds.append(time.perf_counter() - started)
            return text

        def usage(self, messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
            return 0, 0

    lib = llm.litellm()
    if not any(p["provider"] == "instant" for p in lib.custom_provider_map):
        lib.custom_provider_map = [
            *lib.custom_provider_map,
            {"provider": "instant", "custom_handler": Instant()},
        ]
    complete = llm.complete
    if getattr(complete, "timed", False):
        return

    def timed(**kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return complete(**kwargs)
        finally:
            seam_seconds.append(time.perf_counter() - started)

    timed.timed = True  # type: ignore[attr-defined]
    llm.complete = timed
