"""Rate strings such as ``10/min`` (no Django import: the settings module reads them)."""

from __future__ import annotations

_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/min"`` → (10, 60), in DRF's form."""
    number, _, period = rate.partition("/")
    seconds = _SECONDS.get(period.strip()[:1].lower())
    if not number.strip().isdecimal() or not number.strip().isascii() or seconds is None:
        raise ValueError(f"not a rate: {rate!r} (expected e.g. 10/min)")
    return int(number), seconds
