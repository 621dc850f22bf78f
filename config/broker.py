"""The embedded broker: kombu's filesystem transport, with its message files made atomic.

kombu's filesystem transport opens a message file under its final name and writes it afterwards,
while a consumer lists the folder, moves the file away and reads it. A consumer that comes in
between reads an empty file and its worker crashes on the JSON (kombu issue #1551, open). Here a
message is written under a name no queue matches and renamed into place (``os.replace`` is atomic
on one filesystem), so a consumer only ever sees whole messages; and a consumer moves a file into
the processed folder next to the queue (same filesystem: a rename, never a copy to /tmp) before
reading it. A file that cannot be a message (truncated, empty, not JSON, JSON that is no
message kombu can deliver, a body that does not decode, a directory) would stop the worker when
delivered: it is moved whole into the ``unreadable`` folder beside the processed one and said to
the operator, with no content (the log names the file and the count so far), and the worker goes
on. Nothing is lost with it: the pass a lost task message stood for is still owed in the
database, and the sweeper sends it again (``MEMORY_PASS_RESEND_AFTER_SECONDS``). Only ``make
run`` uses this: production runs on Redis.
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
    # kombu's stubs name this argument ``payload`` here and ``message`` in the virtual base
    # class (kombu calls it positionally): no signature satisfies both.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{_now_ms()}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # No queue name in it: kombu's own size and purge match queues by substring.
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
                # The rename is the claim: of two consumers, one wins, the other moves on.
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
        """The message a file holds, or None when delivering it would fail: kombu builds a
        message of it (and Celery reads our JSON bodies) in the worker's consumer, where an
        error stops the worker."""
        try:
            with open(path, "rb") as f:
                payload = loads(f.read().decode())
            message = self.Message(payload, channel=self)
            if message.content_type == "application/json":
                loads(message.body or "")  # a task message always has a body
        except (OSError, ValueError, LookupError, TypeError, AttributeError):
            # Unreadable, not UTF-8, not JSON, not base64 (all ValueError); a field missing or
            # an unknown body encoding (LookupError); JSON of the wrong shape.
            return None
        return payload

    def _set_aside(self, path: str, queue: str) -> None:
        """Keep an unreadable file whole for the operator, and say so: its name, where it is
        and how many are there, never what it holds. No failure here may stop the worker."""
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
        # Beside the processed folder: the same filesystem, so setting aside is a rename.
        folder = os.path.join(os.path.dirname(self._taken_folder.rstrip(os.sep)), "unreadable")
        os.makedirs(folder, exist_ok=True)
        return folder


class FilesystemTransport(filesystem.Transport):
    Channel = Channel


def _now_ms() -> int:
    # kombu's own naming: a file's name starts with when it was written.
    return int(time.monotonic() * 1000)


def _in_order_written(name: str) -> tuple[int, str]:
    """Oldest first, by the number a name starts with: in name order '999_…' came after
    '1000_…' (kombu's own transport sorts names, so a message written as the clock gained a
    digit waited behind every later one). A name without a number comes first, to be set
    aside."""
    written, _, _ = name.partition("_")
    return (int(written) if written.isdecimal() else -1, name)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
