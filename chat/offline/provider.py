"""The built-in offline models as a litellm custom provider ("offline/<name>").

Registered by ``chat.llm`` so the product's code path is the same for offline and hosted models.
``offline/whizi-memory`` is the pattern-based memory extractor; every other name is the simple
chat responder. litellm requires all four entry points of a custom provider.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from litellm import CustomLLM
from litellm.types.utils import Choices, GenericStreamingChunk, ModelResponse, Usage
from litellm.types.utils import Message as LiteMessage

from chat.offline import extractor, responder

MEMORY_MODEL_NAME = "whizi-memory"
OFFLINE_MEMORY_MODEL = f"offline/{MEMORY_MODEL_NAME}"


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
        words = list(responder.stream_words(text)) or [""]
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

    async def astreaming(
        self, model: str, messages: list, *args: Any, **kwargs: Any
    ) -> AsyncIterator[GenericStreamingChunk]:
        for chunk in self.streaming(model, messages):
            yield chunk


class OfflineProvider(TextProvider):
    """The built-in models: the memory extractor, or the chat responder."""

    def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
        if model.split("/", 1)[-1] == MEMORY_MODEL_NAME:
            return extractor.answer(messages)
        from django.conf import settings  # the provider runs inside the product

        offline_memory = settings.MEMORY_MODEL == OFFLINE_MEMORY_MODEL
        return responder.reply(messages, offline_memory=offline_memory)
