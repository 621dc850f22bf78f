"""The built-in offline models: a registry the apps fill as they load.

Memory registers its writer, chat its responder (the default). Like a hosted model, each
learns everything from the messages. No litellm import here (``llm.provider`` serves them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final

# An offline model: the messages of a call in, the answer's text out.
Answer = Callable[[list[dict[str, Any]]], str]

_models: dict[str, Answer] = {}
_default: list[Answer] = []


def register(name: str, answer: Answer, *, default: bool = False) -> None:
    """Serve ``offline/<name>`` with ``answer``; a ``default`` one answers any other name."""
    _models[name] = answer
    if default:
        _default[:] = [answer]


def answer_for(model: str) -> Answer:
    name = model.split("/", 1)[-1]
    if name in _models:
        return _models[name]
    if _default:
        return _default[0]
    raise LookupError(f"no offline model registered for {name!r}")


# A word with the spaces around it (leading ones only at the start), or only spaces.
_CHUNK_RE: Final = re.compile(r"\s*\S+\s*|\s+")


def stream_words(text: str) -> Iterator[str]:
    """Split a reply into word chunks for streaming; joined, they give the text back exactly."""
    for match in _CHUNK_RE.finditer(text):
        yield match.group(0)
