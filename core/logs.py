"""Logging pieces referenced from ``settings.LOGGING``."""

from __future__ import annotations

import logging


class DropAll(logging.Filter):
    """Drops every record. For loggers of libraries that log request bodies (litellm logs whole
    prompts at debug level and may quote them in errors): message text must never reach logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def event(
    logger: logging.Logger, name: str, level: int = logging.WARNING, **fields: object
) -> None:
    """An operator event: a fixed ``name`` and content-free ``fields`` (codes, ids, counts,
    durations — never message or memory text), written ``name key=value …`` for plain logs and
    carried as the record's ``event`` and ``fields`` for structured handlers."""
    text = " ".join([name, *(f"{key}={value}" for key, value in fields.items())])
    logger.log(level, "%s", text, extra={"event": name, "fields": fields})
