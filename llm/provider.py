"""The litellm custom provider ("offline/<name>") serving the built-in models, registered by
``llm.client`` so offline and hosted models share one code path."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from litellm import CustomLLM
from litellm.types.utils import Choices, GenericStreamingChunk, ModelResponse, Usage
from litellm.types.utils import Message as LiteMessage

from llm.offline import answer_for, stream_words


def _approx_tokens(text: str) -> int:
    # A cheap estimate keeps the usage fields meaningful.
    return max(1, len(text) // 4)


class TextProvider(CustomLLM):
    """litellm's four entry points over ``answer``; the tests' scripted model subclasses it."""

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        raise NotImplementedError

    def usage(self, messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
        prompt = sum(_approx_tokens(str(m.get("content") or "")) for m in messages)
        return prompt, _approx_tokens(text)

    def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> ModelResponse:
        text = self.answer(model, messages)
        prompt, completion = self.usage(messages, text)
        return ModelResponse(
            model=model,
            choices=[
                Choices(
                    index=0,
                    finish_reason="stop",
                    message=LiteMessage(role="assistant", content=text),
                )
            ],
            usage=Usage(
                prompt_tokens=prompt,
                completion_tokens=completion,
                total_tokens=prompt + completion,
            ),
        )

    async def acompletion(
        self, model: str, messages: list, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        return self.completion(model, messages)

    def streaming(
        self, model: str, messages: list, *args: Any, **kwargs: Any
    ) -> Iterator[GenericStreamingChunk]:
        text = self.answer(model, messages)
        words = list(stream_words(text)) or [""]
        prompt, completion = self.usage(messages, text)
        for i, word in enumerate(words):
            last = i == len(words) - 1
            yield GenericStreamingChunk(
                text=word,
                tool_use=None,
                is_finished=last,
                finish_reason="stop" if last else "",
                index=0,
                usage={
                    "prompt_tokens": prompt,
                    "completion_tokens": completion,
                    "total_tokens": prompt + completion,
                }
                if last
                else None,
            )

    # An async generator, as litellm iterates it (the base class declares a coroutine).
    async def astreaming(  # type: ignore[override]
        self, model: str, messages: list, *args: Any, **kwargs: Any
    ) -> AsyncIterator[GenericStreamingChunk]:
        for chunk in self.streaming(model, messages):
            yield chunk


class OfflineProvider(TextProvider):
    """The built-in models, as the apps registered them."""

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        return answer_for(model)(messages)
