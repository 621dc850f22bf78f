"""The front door's cost: the JSON checks that run before parsing, against body size.

    .venv/bin/python benchmarks/front_door.py [--runs N]

For bodies built to be slow (escaped quotes left unterminated, backslashes, brackets between
strings, ``[`` × n, ``[]`` × n, objects), from 32 KB to the 2.5 MB body limit, it times the
API's parser (``core.parsers.JSONParser.parse``: size check, nesting check, then ``json.loads``
when the body is shallow enough) and, beside it, ``json.loads`` alone on the same body, the
path without the checks. Each size runs ``--runs`` times interleaved; it prints the median and
range in milliseconds and the time per megabyte, so a curve that bends (quadratic) shows as a
per-MB figure that grows with size. The previous check (a backtracking string pattern) is timed
on a login body of escaped quotes at 4 and 8 KB only: it doubled in size, it quadrupled in time
(32 KB took 28 s).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from rest_framework import exceptions  # noqa: E402

from core.errors import ServiceError  # noqa: E402
from core.parsers import JSONParser  # noqa: E402

SIZES = (32_000, 128_000, 512_000, 1_000_000, 2_500_000)


def shapes(size: int) -> dict[str, bytes]:
    return {
        "escaped quotes, unterminated": ("[" * 401 + '"' + '\\"' * (size // 2)).encode()[:size],
        "backslashes, unterminated": ("[" * 401 + '"' + "\\" * size).encode()[:size],
        "strings between brackets": ('["",' * (size // 4)).encode(),
        "[ × n": ("[" * size).encode(),
        "[] × n": ("[]" * (size // 2)).encode(),
        "a long string in a login": ('{"email": "' + "a" * size + '"}').encode(),
    }


def parse(body: bytes) -> None:
    with contextlib.suppress(ServiceError, exceptions.ParseError):
        JSONParser().parse(io.BytesIO(body), "application/json", {})


def loads_only(body: bytes) -> None:
    with contextlib.suppress(ValueError, RecursionError):
        json.loads(body)


_OLD_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def old_check(body: bytes) -> None:
    depth = 0
    for token in _OLD_STRING_OR_BRACKET.finditer(body.decode()):
        if token.group() in "[{":
            depth += 1
            if depth > settings.JSON_MAX_DEPTH:
                return
        elif token.group() in "]}":
            depth -= 1


def timed(fn, body: bytes) -> float:
    start = time.perf_counter()
    fn(body)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"front door: the API's JSON parser against body size, {args.runs} interleaved runs")
    print(f"{'body':32} {'size':>9} {'parser ms (range)':>26} {'ms/MB':>8} {'json.loads ms':>14}")
    worst = 0.0
    for size in SIZES:
        for name, body in shapes(size).items():
            ours, plain = [], []
            for _ in range(args.runs):
                ours.append(timed(parse, body))
                plain.append(timed(loads_only, body))
            median = statistics.median(ours)
            worst = max(worst, max(ours)) if size == SIZES[-1] else worst
            spread = f"{median:.1f} ({min(ours):.1f}–{max(ours):.1f})"
            per_mb = median / (len(body) / 1_000_000)
            print(
                f"{name:32} {len(body):>9,} {spread:>26} {per_mb:>8.1f} "
                f"{statistics.median(plain):>14.1f}"
            )
    for size in (4_000, 8_000):
        body = ('{"email": "' + '\\"' * (size // 2)).encode()
        ours = timed(parse, body)
        print(
            f"login body of escaped quotes, {size // 1000} KB: previous check "
            f"{timed(old_check, body):,.0f} ms, this parser {ours:.2f} ms"
        )
    print(f"slowest 2.5 MB body through the parser: {worst:.0f} ms")


if __name__ == "__main__":
    main()
