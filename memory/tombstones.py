"""Forgetting is final: a forgotten line never returns through a pass, a restore or a guest
merge, unless the person says it again and asks to remember it.

A tombstone is a keyed hash (``salted_hmac``, SECRET_KEY, SHA-256) of the normalised line,
never the text: a stolen row reveals nothing, and a guess cannot be checked without the key.
Those made with an older key (``TOMBSTONE_KEY_FALLBACKS``) are still matched.

It matches the line whatever its case, accents, punctuation and spacing, but not a paraphrase.
The source turns are not read again, so a paraphrase needs the person to say the fact again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from functools import cached_property
from typing import Final

from django.conf import settings
from django.utils.crypto import salted_hmac

from core import erasures
from memory.models import ForgottenLine, Memory
from memory.rules.lines import forget_key

_SALT: Final = "memory.tombstones.ForgottenLine"
# Per memory: years of deletions; beyond it the oldest go.
MAX_PER_MEMORY: Final = 2_000


def normal(line: str) -> str:
    """The text a tombstone hashes (``forget_key``), so burying and scrubbing match alike."""
    return forget_key(line)


def digest(line: str) -> str:
    return salted_hmac(_SALT, normal(line), algorithm="sha256").hexdigest()


def digests(line: str) -> set[str]:
    """The line's tombstone under the key and under every older one still matched."""
    keys = [settings.SECRET_KEY, *settings.TOMBSTONE_KEY_FALLBACKS]
    return {
        salted_hmac(_SALT, normal(line), secret=k, algorithm="sha256").hexdigest() for k in keys
    }


def bury(*, memory_id: int, lines: Iterable[str], unless_in: Iterable[str] = ()) -> None:
    """Record these lines as forgotten, unless still listed in another form (``unless_in``).
    Call inside the write's transaction."""
    staying = {normal(line) for line in unless_in}
    digests = {digest(line) for line in lines if normal(line) and normal(line) not in staying}
    if not digests:
        return
    bury_digests(memory_id=memory_id, digests=digests)
    # Kept apart from the database too, so no backup restored later brings them back.
    erasures.record(erasures.LINES, owner=owner_key(memory_id), digests=sorted(digests))


def owner_key(memory_id: int) -> erasures.Key | None:
    """The memory's owner as the erasure journal names a row (``erasures.key``)."""
    found = (
        Memory.objects.filter(pk=memory_id).values_list("owner_id", "owner__date_joined").first()
    )
    return None if found is None else erasures.key(*found)


def bury_digests(*, memory_id: int, digests: Iterable[str]) -> None:
    """Record these digests as forgotten (a replayed erasure has no line, only its digest)."""
    ForgottenLine.objects.bulk_create(
        [ForgottenLine(memory_id=memory_id, digest=d) for d in digests], ignore_conflicts=True
    )
    stale = ForgottenLine.objects.filter(memory_id=memory_id).order_by("-id")[MAX_PER_MEMORY:]
    stale_ids = list(stale.values_list("id", flat=True)[:1_000])
    if stale_ids:
        ForgottenLine.objects.filter(id__in=stale_ids).delete()


def lift_digests(*, memory_id: int, digests: Iterable[str]) -> None:
    ForgottenLine.objects.filter(memory_id=memory_id, digest__in=list(digests)).delete()


def buried(memory_id: int) -> frozenset[str]:
    """The digests of what this memory forgot (one query)."""
    return frozenset(
        ForgottenLine.objects.filter(memory_id=memory_id).values_list("digest", flat=True)
    )


class Buried(Collection[str]):
    """``buried(memory_id)``, read on first use: most passes add no line to check against it."""

    def __init__(self, memory_id: int) -> None:
        self.memory_id = memory_id

    @cached_property
    def digests(self) -> frozenset[str]:
        return buried(self.memory_id)

    def __contains__(self, item: object) -> bool:
        return item in self.digests

    def __iter__(self) -> Iterator[str]:
        return iter(self.digests)

    def __len__(self) -> int:
        return len(self.digests)


def unbury(*, memory_id: int, lines: Iterable[str]) -> None:
    """The person asked to remember these again: they may be kept."""
    found = {d for line in lines for d in digests(line)}
    rows = ForgottenLine.objects.filter(memory_id=memory_id, digest__in=found)
    lifted = sorted(rows.values_list("digest", flat=True))  # under whichever key made them
    if lifted:
        rows.delete()
        # So a restore's replay does not forget them again.
        erasures.record(erasures.UNBURY, owner=owner_key(memory_id), digests=lifted)


def is_buried(line: str, buried: Collection[str]) -> bool:
    return bool(buried) and not digests(line).isdisjoint(buried)


def move(*, from_memory_id: int, into_memory_id: int) -> None:
    """A guest's tombstones go with its memory into the account (the handover)."""
    digests = list(
        ForgottenLine.objects.filter(memory_id=from_memory_id).values_list("digest", flat=True)
    )
    ForgottenLine.objects.bulk_create(
        [ForgottenLine(memory_id=into_memory_id, digest=d) for d in digests], ignore_conflicts=True
    )
