"""CPU seconds spent by groups of processes, read from ``/proc`` (Linux).

Wall time on a shared machine moves with its load; the CPU a process group burns for the same
work moves much less, so the benchmark counts both. A group is a set of pids picked by a
predicate over each process's stat line: a server's process group, or every PostgreSQL process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Stat:
    pid: int
    comm: str
    pgrp: int
    cpu: float  # user + system seconds, its own and its ended children's


def processes() -> list[Stat]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        head, _, rest = raw.rpartition(")")
        fields = rest.split()
        # After "pid (comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt
        # cmajflt utime stime cutime cstime ...; the last two are its children's that ended
        # (a gunicorn worker replaced, a PostgreSQL backend gone), still the group's work.
        found.append(
            Stat(
                pid=int(entry.name),
                comm=head.partition("(")[2],
                pgrp=int(fields[2]),
                cpu=sum(int(value) for value in fields[11:15]) / TICKS,
            )
        )
    return found


Group = Callable[[Stat], bool]


def in_process_group(pgrp: int) -> Group:
    return lambda stat: stat.pgrp == pgrp


def named(*comms: str) -> Group:
    return lambda stat: stat.comm in comms


def cpu_seconds(groups: dict[str, Group]) -> dict[str, float]:
    """Each group's CPU seconds so far (of its live processes)."""
    totals = dict.fromkeys(groups, 0.0)
    for stat in processes():
        for name, member in groups.items():
            if member(stat):
                totals[name] += stat.cpu
    return totals


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"
