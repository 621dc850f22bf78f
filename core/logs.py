"""Logging pieces referenced from ``settings.LOGGING``."""

from __future__ import annotations

import logging


class DropAll(logging.Filter):
    """Drops every record. For loggers of libraries that log request bodies (litellm logs whole
    prompts at debug level and may quote them in errors): message text must never reach logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False
