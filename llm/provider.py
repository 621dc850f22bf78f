"""The litellm custom provider ("offline/<name>") that serves the built-in models.

The seam (``llm.client``) registers it with litellm when it first imports litellm, so the
product's code path is the same for offline and hosted models. litellm requires all four entry
points of a custom provider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from litellm import CustomLLM
from litellm.types.utils import Choices, GenericStreamingChunk, ModelResponse, Usage
from litellm.types.utils import Message as LiteMessage

from llm.offline import answer_for, stream_words


def _approx_tokens(text: str) -> int:
    # The offline models bill nothing; a cheap estimate keeps the usage fields meaningful.
    return max(1, len(text) // 4)


class TextProvider(CustomLLM):
    """A litellm custom provider over a function that answers with text.

    litellm requires all four entry points (completion, acompletion, streaming, astreaming);
    subclasses only say what the answer is. The tests' scripted model builds on this too.
    """

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

    # An async generator, as litellm uses it (it iterates the result); litellm's base class
    # declares a coroutine whose body only raises.
    async def astreaming(  # type: ignore[override]
        self, model: str, messages: list, *args: Any, **kwargs: Any
    ) -> AsyncIterator[GenericStreamingChunk]:
        for chunk in self.streaming(model, messages):
            yield chunk


class OfflineProvider(TextProvider):
    """The built-in models, as the apps registered them."""

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        return answer_for(model)(messages)
