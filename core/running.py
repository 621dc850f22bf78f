"""Whether ``make run`` is running on a data folder: its launcher holds an exclusive lock on
``DATA_DIR/run.lock`` for as long as it runs (the kernel lets go if it dies), so a restore can
refuse to replace the database under it, and a second run on the same folder is refused.

Pure module: the launcher imports it before Django starts.
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

LOCK_NAME = "run.lock"


def hold(data_dir: str | Path) -> IO[str] | None:
    """The held lock, kept open while the product runs; None if another run holds it."""
    held = Path(data_dir, LOCK_NAME).open("a")  # noqa: SIM115 - held open while it runs
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.close()
        return None
    return held


def running(data_dir: str | Path) -> bool:
    held = hold(data_dir)
    if held is None:
        return True
    held.close()
    return False
