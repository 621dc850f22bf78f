"""The embedded broker: kombu's filesystem transport, with atomic message files.

kombu opens a message file under its final name before writing it, so a consumer can read it
empty and crash (kombu #1551). Here a message is written aside and renamed into place, and a
consumer claims a file by renaming it. An unreadable file is set aside and logged by name,
never content; its pass stays owed. Only ``make run`` uses this.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
import uuid
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

log = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    # The stubs name this argument differently here and in the base class.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{_now_ms()}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # No queue name in it: kombu's size and purge match queues by substring.
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as f:
                f.write(dumps(payload).encode())
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add a message to {self.data_folder_out}") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        suffix = f".{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in), key=_in_order_written):
            if not name.endswith(suffix) or name.startswith("."):
                continue
            taken = os.path.join(self._taken_folder, name)
            try:
                # The rename is the claim: of two consumers, one wins.
                os.replace(os.path.join(self.data_folder_in, name), taken)
            except OSError:
                continue
            payload = self._message_in(taken)
            if payload is None:
                self._set_aside(taken, queue)
                continue
            _remove(taken)
            return payload
        raise Empty()

    def _message_in(self, path: str) -> Any:
        """The file's message, or None when delivering it would stop the worker."""
        try:
            with open(path, "rb") as f:
                payload = loads(f.read().decode())
            message = self.Message(payload, channel=self)
            if message.content_type == "application/json":
                loads(message.body or "")  # a task message always has a body
        except (OSError, ValueError, LookupError, TypeError, AttributeError):
            # Not UTF-8, JSON or base64; a missing field or encoding; the wrong shape.
            return None
        return payload

    def _set_aside(self, path: str, queue: str) -> None:
        """Keep an unreadable file, logging its name, never its content; never raises."""
        try:
            kept = os.path.join(self._unreadable_folder, os.path.basename(path))
            os.replace(path, kept)
        except OSError:
            with contextlib.suppress(OSError):
                os.remove(path)
            log.warning("broker.unreadable_message queue=%s dropped (cannot be set aside)", queue)
            return
        try:
            count = str(len(os.listdir(self._unreadable_folder)))
        except OSError:
            count = "?"
        log.warning(
            "broker.unreadable_message queue=%s set aside in %s (%s so far)", queue, kept, count
        )

    @cached_property
    def _taken_folder(self) -> str:
        folder = str(self.processed_folder)
        os.makedirs(folder, exist_ok=True)
        return folder

    @cached_property
    def _unreadable_folder(self) -> str:
        # Beside the processed folder: same filesystem, so a rename.
        folder = os.path.join(os.path.dirname(self._taken_folder.rstrip(os.sep)), "unreadable")
        os.makedirs(folder, exist_ok=True)
        return folder


class FilesystemTransport(filesystem.Transport):
    Channel = Channel


def _now_ms() -> int:
    # kombu's naming: a file name starts with its write time.
    return int(time.monotonic() * 1000)


def _in_order_written(name: str) -> tuple[int, str]:
    """Oldest first by the leading number; a name without one first, to be set aside."""
    written, _, _ = name.partition("_")
    return (int(written) if written.isdecimal() else -1, name)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
