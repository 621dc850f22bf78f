"""The embedded broker: kombu's filesystem transport, with its message files made atomic.

kombu's filesystem transport opens a message file under its final name and writes it afterwards,
while a consumer lists the folder, moves the file away and reads it. A consumer that comes in
between reads an empty file and its worker crashes on the JSON (kombu issue #1551, open). Here a
message is written under a name no queue matches and renamed into place (``os.replace`` is atomic
on one filesystem), so a consumer only ever sees whole messages; and a consumer moves a file into
the processed folder next to the queue (same filesystem: a rename, never a copy to /tmp) before
reading it, skipping a file it cannot parse instead of dying on it. Only ``make run`` uses this:
production runs on Redis.
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
        for name in sorted(os.listdir(self.data_folder_in)):
            if not name.endswith(suffix) or name.startswith("."):
                continue
            taken = os.path.join(self._taken_folder, name)
            try:
                # The rename is the claim: of two consumers, one wins, the other moves on.
                os.replace(os.path.join(self.data_folder_in, name), taken)
            except OSError:
                continue
            try:
                with open(taken, "rb") as f:
                    payload = f.read()
            finally:
                _remove(taken)
            try:
                return loads(payload.decode())
            except ValueError:
                log.warning("broker.unreadable_message queue=%s (skipped)", queue)
                continue
        raise Empty()

    @cached_property
    def _taken_folder(self) -> str:
        folder = str(self.processed_folder)
        os.makedirs(folder, exist_ok=True)
        return folder


class FilesystemTransport(filesystem.Transport):
    Channel = Channel


def _now_ms() -> int:
    # kombu's own naming: consumers take files in name order, oldest first.
    return int(time.monotonic() * 1000)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
