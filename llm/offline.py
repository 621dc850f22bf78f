"""The built-in offline models: a registry the apps fill as they load.

The seam knows no model: each app registers the one it stands in for (``register``), memory
its writer (``offline/whizi-memory``), chat its responder (the default, for every other name).
Like a hosted model, an offline model learns the call's data from the messages it is sent. The
litellm provider that serves them is ``llm.provider``; this module imports no litellm, so an
app can register its model without paying for litellm's import.
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
    """Serve ``offline/<name>`` with ``answer``; a ``default`` model answers every name that
    no model was registered for. Called once per app as it loads (``AppConfig.ready``)."""
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
    """Split a reply into chunks (words with their trailing spaces) for streaming.

    Joining the chunks gives back the text exactly, leading whitespace and newlines included.
    """
    for match in _CHUNK_RE.finditer(text):
        yield match.group(0)
