"""Versions of the memory list as clients send them back: ``If-Match`` and the form's ``version``.

Parsed with Django's entity-tag helpers. Any input yields a version, "any", "matches nothing"
or InvalidIfMatch (400), never a 500 (``²`` passes ``isdigit`` but not ``int``; huge numbers
exceed ``int``'s limit). If-Match compares strongly (RFC 9110 §13.1.1): ``W/"7"`` names none.
"""

from __future__ import annotations

from typing import Final

from django.utils.http import parse_etags, quote_etag

from core.errors import Invalid, ServiceError

# Memory.version is a PositiveBigIntegerField.
MAX_VERSION: Final = 2**63 - 1
# More than one client's version could mean; also bounds the work per request.
MAX_TAGS: Final = 8
MAX_HEADER_CHARS: Final = 1_000
# No list is ever at this version (they start at 1): a change asked at it is refused as stale,
# after the service checks that its target exists.
NO_VERSION: Final = -1


class InvalidIfMatch(Invalid):
    """The header holds no entity-tag (empty, unbalanced quotes, too long) (HTTP 400)."""

    code = "invalid_if_match"
    detail = 'If-Match must be the ETag you were given, such as "7", or *.'


class VersionRequired(ServiceError):
    """A change of the list came without the version it was made at (HTTP 428)."""

    code = "version_required"
    status = 428
    detail = "Send If-Match with the version you are looking at."


def etag_of(version: int) -> str:
    """The ``ETag`` of a version of the list: ``"7"``."""
    return quote_etag(str(version))


def version_of(tag: str) -> int | None:
    """The version a tag or field names (``"7"``, ``7`` → 7), or None (weak tags included)."""
    tag = tag.strip()
    if len(tag) >= 2 and tag[0] == tag[-1] == '"':
        tag = tag[1:-1]
    if not (tag.isascii() and tag.isdigit()) or len(tag) > len(str(MAX_VERSION)):
        return None
    version = int(tag)
    return version if version <= MAX_VERSION else None


def if_match_versions(header: str) -> list[int] | None:
    """Versions an ``If-Match`` accepts, in order; None for ``*``; [] matches none (412).
    A bare ``7`` stands for ``"7"``."""
    if len(header) > MAX_HEADER_CHARS:
        raise InvalidIfMatch
    if header.strip() == "*":
        return None
    parts = [part for part in (part.strip() for part in header.split(",")) if part]
    if "*" in parts:  # "*" or a list of entity-tags, never both (RFC 9110 §13.1.1)
        raise InvalidIfMatch
    tags = parse_etags(",".join(quote_etag(part) for part in parts))
    if not tags:
        raise InvalidIfMatch
    versions: list[int] = []
    for tag in tags:
        version = version_of(tag)
        if version is not None and version not in versions:
            versions.append(version)
    return versions[:MAX_TAGS]
