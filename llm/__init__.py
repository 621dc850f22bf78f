"""The model seam, shared by chat and memory and importing neither: every model call of the
product goes through ``complete`` or ``stream``; the built-in offline models are a litellm
custom provider (``llm.provider``) serving the models each app registers (``llm.offline``)."""

from llm.client import (
    OFFLINE_PROVIDER,
    Completion,
    Messages,
    ModelError,
    cache_prefix,
    complete,
    litellm,
    max_input_tokens,
    refused_format,
    stream,
    structured_output,
)

__all__ = [
    "OFFLINE_PROVIDER",
    "Completion",
    "Messages",
    "ModelError",
    "cache_prefix",
    "complete",
    "litellm",
    "max_input_tokens",
    "refused_format",
    "stream",
    "structured_output",
]
