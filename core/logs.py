"""Logging pieces referenced from ``settings.LOGGING``."""

from __future__ import annotations

import logging


class DropAll(logging.Filter):
    """Drops every record: for libraries that log request bodies (message text never is)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def event(
    logger: logging.Logger, name: str, level: int = logging.WARNING, **fields: object
) -> None:
    """An operator event: a fixed ``name`` and content-free ``fields``, never message text."""
    text = " ".join([name, *(f"{key}={value}" for key, value in fields.items())])
    logger.log(level, "%s", text, extra={"event": name, "fields": fields})
