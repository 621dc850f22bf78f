"""Token counting, the last-resort positional cut and where a long turn's parts end.

Pure module. The cap is measured on the text the model sees (`render_block`, o200k_base).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME: Final = "o200k_base"


@functools.cache
def _encoding() -> tiktoken.Encoding:
    # Imported late so importing this module stays cheap. tiktoken finds its BPE file offline
    # because the settings point it there (config/offline.py).
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


def load_encoding() -> None:
    """Load the encoding now (about a second): servers call this before they fork."""
    _encoding()


def _encode(text: str) -> list[int]:
    # Ordinary encoding: "<|endoftext|>" counts as text instead of raising (the error would
    # quote it).
    return _encoding().encode_ordinary(text)


def count_tokens(text: str) -> int:
    """Return the number of `o200k_base` tokens in `text`."""
    return len(_encode(text)) if text else 0


def render_block(lines: Sequence[str]) -> str:
    """Render lines as the model sees them: "- line", one per row."""
    return "\n".join(f"- {line}" for line in lines)


def list_tokens(lines: Sequence[str]) -> int:
    """Return the token size of a memory list as rendered by `render_block`."""
    return count_tokens(render_block(lines)) if lines else 0


def positional_cut(
    lines: Sequence[str], limit: int, *, keep_first: Collection[str] = ()
) -> list[str]:
    """Keep lines from the top while within `limit` tokens: the net under the condense pass.
    Lines in `keep_first` (pinned) are kept before any other; the order stays."""
    if limit <= 0:
        return []
    if keep_first:
        first = [line for line in lines if line in keep_first]
        ranked = [*first, *(line for line in lines if line not in keep_first)]
        kept_set = set(positional_cut(ranked, limit))
        return [line for line in lines if line in kept_set]
    # Each line encoded once: linear for 10,000 lines; the sum is checked and corrected below.
    kept: list[str] = []
    total = 0
    for line in lines:
        cost = count_tokens(f"- {line}\n")
        if total + cost > limit:
            break
        kept.append(line)
        total += cost
    while kept and list_tokens(kept) > limit:
        kept.pop()
    # The estimate runs at most a token or two high: this adds at most a line or two.
    while len(kept) < len(lines) and list_tokens([*kept, lines[len(kept)]]) <= limit:
        kept.append(lines[len(kept)])
    return kept


def truncate_to_tokens(text: str, limit: int) -> str:
    """Return the start of `text` cut to at most `limit` tokens (whole text if it fits)."""
    if limit <= 0:
        return ""
    tokens = _encode(text)
    if len(tokens) <= limit:
        return text
    encoding = _encoding()
    cut = limit
    while cut > 0:
        # Decode bytes and drop a character split by the cut instead of emitting U+FFFD.
        head = encoding.decode_bytes(tokens[:cut]).decode("utf-8", errors="ignore")
        # Re-tokenizing a prefix can differ from the prefix of the tokens; check, then shrink.
        if count_tokens(head) <= limit:
            return head
        cut -= 1
    return ""


# Where a part of a long turn may end, best first: a line break, a sentence's end, a space.
_PART_ENDS: Final = (re.compile(r"\n"), re.compile(r"(?<=[.!?…])\s"), re.compile(r"\s"))
# ...looked for only in the last fifth of what fits, so a part is never much shorter than that.
_PART_END_WINDOW: Final = 5


def part_end(text: str, limit: int) -> int:
    """Characters of `text` its next part takes: the longest head within `limit` tokens, ended
    at a break in its last fifth; at least one, so reading moves on."""
    head = truncate_to_tokens(text, limit)
    if len(head) == len(text):
        return len(text)
    start = len(head) - len(head) // _PART_END_WINDOW
    for end_re in _PART_ENDS:
        ends = [match.end() for match in end_re.finditer(head, start)]
        if ends:
            return ends[-1]
    return max(1, len(head))
