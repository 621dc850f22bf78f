"""A slot a lower box declares and a higher box fills as it loads: how a dependency is
inverted here (memory's turn store is chat's, its owner directory is accounts')."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Slot(Generic[T]):
    """Holds one implementation of a port, filled once by the box that provides it."""

    def __init__(self, port: str, provider: str) -> None:
        self._port = port
        self._provider = provider
        self._filled: list[T] = []

    def fill(self, implementation: T) -> None:
        self._filled[:] = [implementation]

    def get(self) -> T:
        if not self._filled:
            raise LookupError(f"no {self._port}: {self._provider} fills it as it loads")
        return self._filled[0]
