"""Forgetting is final: what the person made memory forget never comes back through a later pass,
a restore or a guest merge — unless they say it again and ask to remember it.

A tombstone is a keyed hash (Django's ``salted_hmac`` with the site's SECRET_KEY, SHA-256) of
the line's normalised text, never the text: a stolen database row says nothing of what it hides,
and without the key it cannot even be checked against a guess.

What it matches: the same line whatever its case, accents, punctuation and spacing ("Lives in
Denver." and "lives in denver" are one tombstone). What it does not: a paraphrase ("Lives in
Denver, CO", "Is based in Denver") — a model that rewords a forgotten fact is not caught here;
the turns it came from are not read again (a clear skips them, a pass reads each turn once), so
a paraphrase needs the person to say the fact again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final

from django.utils.crypto import salted_hmac

from memory.models import ForgottenLine
from memory.rules.lines import forget_key

_SALT: Final = "memory.tombstones.ForgottenLine"
# Per memory: enough for years of deletions; the oldest go first beyond it.
MAX_PER_MEMORY: Final = 2_000


def normal(line: str) -> str:
    """The text a tombstone is taken of: the line's words (``memory.rules.lines.forget_key``), so a
    tombstone and the scrubbing of stored versions match the same variants."""
    return forget_key(line)


def digest(line: str) -> str:
    return salted_hmac(_SALT, normal(line), algorithm="sha256").hexdigest()


def bury(*, memory_id: int, lines: Iterable[str], unless_in: Iterable[str] = ()) -> None:
    """Remember, as hashes, that these lines were forgotten; a line still on the list in another
    form (``unless_in``: an edit that only re-cased it) is not. Call inside the write's
    transaction."""
    staying = {normal(line) for line in unless_in}
    digests = {digest(line) for line in lines if normal(line) and normal(line) not in staying}
    if not digests:
        return
    ForgottenLine.objects.bulk_create(
        [ForgottenLine(memory_id=memory_id, digest=d) for d in digests], ignore_conflicts=True
    )
    stale = ForgottenLine.objects.filter(memory_id=memory_id).order_by("-id")[MAX_PER_MEMORY:]
    stale_ids = list(stale.values_list("id", flat=True)[:1_000])
    if stale_ids:
        ForgottenLine.objects.filter(id__in=stale_ids).delete()


def buried(memory_id: int) -> frozenset[str]:
    """The digests of what this memory forgot (one query)."""
    return frozenset(
        ForgottenLine.objects.filter(memory_id=memory_id).values_list("digest", flat=True)
    )


def unbury(*, memory_id: int, lines: Iterable[str]) -> None:
    """The person said these again and asked to remember them: they may be kept again."""
    digests = {digest(line) for line in lines}
    if digests:
        ForgottenLine.objects.filter(memory_id=memory_id, digest__in=digests).delete()


def is_buried(line: str, digests: Collection[str]) -> bool:
    return bool(digests) and digest(line) in digests


def move(*, from_memory_id: int, into_memory_id: int) -> None:
    """A guest's tombstones go with its memory into the account (the handover)."""
    digests = list(
        ForgottenLine.objects.filter(memory_id=from_memory_id).values_list("digest", flat=True)
    )
    ForgottenLine.objects.bulk_create(
        [ForgottenLine(memory_id=into_memory_id, digest=d) for d in digests], ignore_conflicts=True
    )
