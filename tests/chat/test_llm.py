"""The litellm seam: timeouts we enforce ourselves (litellm enforces none on custom providers)."""

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest

import llm
from llm.provider import TextProvider


def chunk(text: str) -> dict[str, Any]:
    return {
        "text": text,
        "tool_use": None,
        "is_finished": False,
        "finish_reason": "",
        "index": 0,
        "usage": None,
    }


class Drip(TextProvider):
    """Streams a word every 0.3 s, forever: each chunk is on time, the whole never ends."""

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        return "word"

    def streaming(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for i in itertools.count():
            time.sleep(0.3)
            yield chunk(f"word{i} ")


class Gush(Drip):
    """Streams words as fast as it can, forever (all different: litellm stops repeated ones)."""

    def streaming(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for i in itertools.count():
            yield chunk(f"word{i} ")


@pytest.fixture
def drip() -> Iterator[None]:
    lib = llm.litellm()
    saved = list(lib.custom_provider_map)
    lib.custom_provider_map = [
        *saved,
        {"provider": "drip", "custom_handler": Drip()},
        {"provider": "gush", "custom_handler": Gush()},
    ]
    yield
    lib.custom_provider_map = saved


def test_a_stream_whose_chunks_are_on_time_still_ends_at_its_total_deadline(drip):
    received = []
    with pytest.raises(llm.ModelError) as failure:
        for chunk in llm.stream(
            model="drip/x", messages=[{"role": "user", "content": "hi"}], timeout=2, total_timeout=1
        ):
            received.append(chunk)
    assert failure.value.code == "timeout"
    assert failure.value.retryable
    assert 0 < len(received) < 10


def test_a_model_error_says_nothing_of_the_prompt(scripted):
    scripted.answer(RuntimeError("secret prompt text"))
    with pytest.raises(llm.ModelError) as failure:
        llm.complete(
            model="scripted/x",
            messages=[{"role": "user", "content": "secret prompt text"}],
            timeout=2,
        )
    assert "secret" not in str(failure.value)
    assert failure.value.__cause__ is None


def test_a_stream_that_never_stops_ends_at_its_total_deadline_even_when_chunks_keep_coming(drip):
    received = 0
    with pytest.raises(llm.ModelError) as failure:
        for _ in llm.stream(
            model="gush/x",
            messages=[{"role": "user", "content": "hi"}],
            timeout=2,
            total_timeout=0.5,
        ):
            received += 1
            time.sleep(0.001)  # a reader slower than the model
    assert failure.value.code == "timeout"
    assert received > 0
