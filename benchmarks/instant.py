"""The benchmark's models, answering at once (served over HTTP by ``benchmarks.model_server``).

Chat calls get a short fixed reply. Memory calls answer edits against the numbered list they
were given: none twice out of three (the usual result of a pass, SPEC §3), the last line
replaced by a shorter one the third time (a list that changes, still under the cap).
"""

from __future__ import annotations

import json
from typing import Any

from memory.rules.prompts import read_data

_memory_calls = [0]


def answer(model: str, messages: list[dict[str, Any]]) -> str:
    """What the instant ``model`` ("chat" or "memory") answers ``messages``."""
    if model != "memory":
        return "Sure."
    # The contract of ``memory.rules.prompts``: the numbered list in, edits against it out.
    shown = list(read_data(messages[-1]["content"])["memory"])
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
    return json.dumps({"edits": edits, "forget": []})
