"""Our memory's open format (docs/MEMORY_FORMAT.md, docs/memory-format.schema.json): the
``memory`` part of the data export, which an import reads back without loss.

Pure module. Written from the lines and their sources; read from the whole export or from its
``memory`` object. What it reads is checked again like any other import: a tampered file meets
the gate, the tombstones and the cap.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

from memory.rules import provenance

FORMAT: Final = "whizi-memory"
VERSION: Final = 1
# Products a line may name (``memory.rules.imports.PRODUCTS``, kept here to stay pure of it).
_PRODUCTS: Final = frozenset({"chatgpt", "claude", "gemini", "other"})


# A document in this format may be a whole export: far longer than a paste of lines.
MAX_DOCUMENT_CHARS: Final = 2_000_000
# ...and its list may hold more lines than a paste offers (short lines, up to the cap).
MAX_ITEMS: Final = 1_000
# No line was learned before this.
EARLIEST: Final = datetime(2000, 1, 1, tzinfo=UTC)


def is_json(text: str) -> bool:
    """Whether ``text`` is a JSON document: ours or not, it is never read as lines of prose.
    An object, or an array that parses ("[2025-03-04] Likes figs" is a dated line)."""
    head = text.lstrip()[:1]
    if head != "[":
        return head == "{"
    try:
        return isinstance(json.loads(text), list)
    except (ValueError, RecursionError):
        return False


def read(text: str) -> list[tuple[str, provenance.Source]] | None:
    """The lines of a document in this format and each one's source, in order; None when
    ``text`` is not JSON. Any other JSON, another version of the format included, offers no
    line. A conversation is never carried: its id is the exporting account's."""
    if not is_json(text):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    if isinstance(data, dict) and isinstance(data.get("memory"), dict):
        data = data["memory"]  # the whole export
    # An export from before the format was named has its items, and no format.
    if not isinstance(data, dict) or data.get("format", FORMAT) != FORMAT:
        return []
    items = data.get("items")
    if not isinstance(items, list) and isinstance(data.get("lines"), list):
        items = [{"text": line} for line in data["lines"]]  # lines alone, as hand-made
    if data.get("version", VERSION) != VERSION or not isinstance(items, list):
        return []
    found = []
    for item in items[:MAX_ITEMS]:
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            found.append((item["text"], _source(item)))
    return found


def _source(item: Mapping[str, Any]) -> provenance.Source:
    """An item's source as it was, where each field is one we write; a made-up one is not."""
    now = datetime.now(UTC)
    learned = _moment(item.get("learned_at"), now) or now
    changed = _moment(item.get("changed_at"), now) or learned
    kind = item.get("kind")
    made = provenance.Source(
        kind=kind if kind in provenance.KINDS else provenance.Kind.IMPORTED,
        conversation=None,
        learned_at=provenance.stamp(learned),
        changed_at=provenance.stamp(max(changed, learned)),
    )
    if item.get("pinned") is True and not provenance.is_pinned(made):
        made["pinned"] = True
    if item.get("product") in _PRODUCTS:
        made["product"] = item["product"]
    return made


def _moment(value: object, now: datetime) -> datetime | None:
    """A moment in UTC, from 2000 to ``now``; None for anything else (it becomes now)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return moment if EARLIEST <= moment <= now else None
