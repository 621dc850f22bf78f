"""The embedded product's secret key: its own, made on the data folder's first start.

A key written in the code is a key anyone can read: tombstones and the erasure journal are
keyed hashes of forgotten lines, and a public key lets a guess be checked. Production sets
``SECRET_KEY`` itself.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

# The key every embedded install used before it had its own: only tombstones made then are
# still matched with it (``TOMBSTONE_KEY_FALLBACKS``), never anything signed.
LEGACY_EMBEDDED_KEY = "embedded-insecure-dev-key"  # public on purpose, see above


def embedded_secret_key(data_dir: Path) -> str:
    """``DATA_DIR/secret_key``, made readable by its owner alone if missing. Made whole under
    a name of its own and linked in, so processes starting at once agree on one key."""
    path = data_dir / "secret_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        draft = data_dir / f".secret_key.{secrets.token_hex(8)}"
        _write_new(draft, key)
        try:
            os.link(draft, path)  # fails if another process made it first: theirs stands
        except FileExistsError:
            pass
        except OSError:  # a filesystem without hard links: made in place, if still missing
            with contextlib.suppress(FileExistsError):
                _write_new(path, key)
        finally:
            draft.unlink(missing_ok=True)
        folder = os.open(data_dir, os.O_RDONLY)
        try:
            os.fsync(folder)  # the name survives a crash, as the tombstones made with it do
        finally:
            os.close(folder)
    key = path.read_text().strip()
    if not key:
        raise ValueError(f"{path} is empty: restore it from a backup of DATA_DIR")
    return key


def _write_new(path: Path, text: str) -> None:
    """``path`` made with ``text`` and synced; FileExistsError if it is there."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as written:
        written.write(text)
        written.flush()
        os.fsync(written.fileno())
