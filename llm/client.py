"""The one seam to litellm (re-exported as ``llm``).

Every model call, chat or memory, offline or hosted, goes through ``complete`` or ``stream``.
litellm is imported lazily (it costs seconds) and never fetches its price list. It enforces
no timeout on a custom provider, so each call runs in a thread abandoned at its deadline.
Errors become ``ModelError``: a content-free code and whether a retry may help.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from core.logs import DropAll

OFFLINE_PROVIDER = "offline"

Messages = list[dict[str, Any]]


class ModelError(Exception):
    """A model call failed; the message is a fixed code, never prompt or answer text.

    ``code`` is what a client is told, ``kind`` what operators see; ``about_content`` means the
    request itself may be the cause (refused or too long) and will fail again."""

    def __init__(
        self, code: str, *, retryable: bool, kind: str | None = None, about_content: bool = False
    ) -> None:
        super().__init__(f"model call failed: {code}")
        self.code = code
        self.retryable = retryable
        self.kind = kind or code
        self.about_content = about_content


@dataclass(frozen=True)
class Completion:
    text: str
    model: str
    tokens_in: int
    tokens_out: int
    latency_ms: int
    # Stopped at ``max_tokens``: the text is cut short.
    truncated: bool = False


@cache
def _pool() -> ThreadPoolExecutor:
    # Per process (built on first use); roomy, as an abandoned call keeps its thread.
    return ThreadPoolExecutor(max_workers=32, thread_name_prefix="llm")


@cache
def litellm() -> ModuleType:
    """Import litellm once, offline, with the built-in models registered as a provider."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    import litellm as _litellm

    # Here: importing the provider imports litellm.
    from llm.provider import OfflineProvider

    _litellm.telemetry = False
    _litellm.suppress_debug_info = True
    _litellm.set_verbose = False
    # litellm logs whole requests (message text, memory lines): drop all its records, whatever
    # LOG_LEVEL or Celery's logging setup say.
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).addFilter(DropAll())
    _litellm.drop_params = True
    _litellm.custom_provider_map = [
        *[p for p in _litellm.custom_provider_map if p["provider"] != OFFLINE_PROVIDER],
        {"provider": OFFLINE_PROVIDER, "custom_handler": OfflineProvider()},
    ]
    return _litellm


@cache
def max_input_tokens(model: str) -> int | None:
    """The model's input window from litellm's local map, or None for an unknown model."""
    try:
        info = litellm().get_model_info(model)
    except Exception:  # noqa: BLE001 - litellm raises a bare Exception for an unmapped model
        return None
    value = info.get("max_input_tokens") or info.get("max_tokens")
    return int(value) if value else None


@cache
def _provider(model: str) -> str | None:
    try:
        return str(litellm().get_llm_provider(model)[1])
    except Exception:  # noqa: BLE001 - litellm raises a bare Exception for a provider it lacks
        return None


@cache
def _answer_formats(model: str) -> tuple[bool, bool]:
    """(JSON schema, JSON mode): what litellm's local map says the model supports."""
    lib = litellm()
    try:
        schema = bool(lib.supports_response_schema(model=model))
    except Exception:  # noqa: BLE001 - unknown to the map: ask for nothing special
        schema = False
    try:
        params = lib.get_supported_openai_params(model=model) or []
    except Exception:  # noqa: BLE001
        params = []
    return schema, "response_format" in params


# Providers that serve a model of one's own behind an OpenAI-compatible API: vLLM, llama.cpp's
# server and LM Studio honour a JSON schema; litellm turns it into Ollama's ``format``.
SELF_HOSTED_PROVIDERS = frozenset(
    {"hosted_vllm", "ollama", "ollama_chat", "lm_studio", "llamafile"}
)


def structured_output(
    model: str,
    *,
    name: str,
    schema: dict[str, Any],
    mode: str = "auto",
    api_base: str = "",
) -> dict[str, Any]:
    """The ``response_format`` for ``schema`` by ``mode`` (``MEMORY_MODEL_RESPONSE_FORMAT``).
    ``auto``: the schema where litellm's map says the provider enforces one or the server is
    self-hosted (an ``api_base`` or a self-hosted provider), else JSON mode, else nothing."""
    spec = {"name": name, "schema": schema, "strict": True}
    by_schema = {"response_format": {"type": "json_schema", "json_schema": spec}}
    json_object = {"response_format": {"type": "json_object"}}
    if mode == "none":
        return {}
    if mode == "json_object":
        return json_object
    if mode == "json_schema":
        return by_schema
    schema_known, json_mode = _answer_formats(model)
    if schema_known or api_base or _provider(model) in SELF_HOSTED_PROVIDERS:
        return by_schema
    return json_object if json_mode else {}


def refused_format(error: ModelError) -> bool:
    """A 400 that names the answer format: the server does not take the schema."""
    return error.kind == "response_format"


def cache_prefix(model: str, messages: Messages) -> list[dict[str, Any]]:
    """Mark the leading system messages (the stable prefix: rules, instructions, memory) as
    cacheable for Anthropic, on the last of them; OpenAI, Gemini and DeepSeek cache a repeated
    prefix themselves."""
    prefix = 0
    while prefix < len(messages) and messages[prefix]["role"] == "system":
        prefix += 1
    if not prefix or _provider(model) != "anthropic":
        return list(messages)
    last = {
        "role": "system",
        "content": [
            {
                "type": "text",
                "text": messages[prefix - 1]["content"],
                "cache_control": {"type": "ephemeral"},
            }
        ],
    }
    return [*messages[: prefix - 1], last, *messages[prefix:]]


def _map_error(exc: BaseException) -> ModelError:
    """litellm's exception as a ``ModelError``; content errors first (they subclass 400)."""
    errors = litellm().exceptions
    for error_type, code, kind, retryable, about_content in (
        (errors.ContextWindowExceededError, "too_long", "context_window", False, True),
        (errors.ContentPolicyViolationError, "bad_request", "content_policy", False, True),
        # A 400 about a parameter, or a 402: the configuration or the bill.
        (errors.UnsupportedParamsError, "bad_request", "unsupported_params", False, False),
        (errors.PaymentRequiredError, "bad_request", "payment_required", False, False),
        (errors.AuthenticationError, "auth", "auth", False, False),
        (errors.PermissionDeniedError, "auth", "forbidden", False, False),
        (errors.NotFoundError, "bad_request", "unknown_model", False, False),
        # Any other 400/422 may be content: the caller tries less (passes split).
        (errors.BadRequestError, "bad_request", "bad_request", False, True),
        (errors.UnprocessableEntityError, "bad_request", "bad_request", False, True),
        (errors.RateLimitError, "rate_limited", "rate_limited", True, False),
        (errors.Timeout, "unavailable", "timeout", True, False),
        (errors.APIConnectionError, "unavailable", "unreachable", True, False),
        (errors.ServiceUnavailableError, "unavailable", "unavailable", True, False),
        (errors.BadGatewayError, "unavailable", "unavailable", True, False),
        (errors.InternalServerError, "unavailable", "unavailable", True, False),
    ):
        if isinstance(exc, error_type):
            if code == "bad_request" and _names_the_format(exc):
                # Configuration, not content: the caller asks again in JSON mode.
                return ModelError(code, retryable=False, kind="response_format")
            return ModelError(code, retryable=retryable, kind=kind, about_content=about_content)
    # Anything else (a provider bug, an odd response) may pass later.
    return ModelError("error", retryable=True)


def _names_the_format(exc: BaseException) -> bool:
    """The provider's error names the parameter (its own words, never our prompt's)."""
    text = str(exc).casefold()
    return "response_format" in text or "json_schema" in text


def complete(
    *, model: str, messages: list[dict[str, Any]], timeout: float, **params: Any
) -> Completion:
    """Ask ``model`` for a whole answer within ``timeout`` seconds."""
    lib = litellm()
    started = time.monotonic()
    future = _pool().submit(
        lib.completion, model=model, messages=messages, timeout=timeout, **params
    )
    try:
        response = future.result(timeout=timeout)
    except FutureTimeout:
        future.cancel()
        raise ModelError("timeout", retryable=True) from None
    except Exception as exc:  # noqa: BLE001 - mapped to a content-free error just below
        raise _map_error(exc) from None
    choice = response.choices[0] if response.choices else None
    usage = getattr(response, "usage", None)
    return Completion(
        text=(choice.message.content or "") if choice else "",
        model=model,
        tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
        tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
        latency_ms=int((time.monotonic() - started) * 1000),
        truncated=getattr(choice, "finish_reason", None) == "length",
    )


_DONE = object()
STREAM_BUFFER_CHUNKS = 256


def stream(
    *,
    model: str,
    messages: Messages,
    timeout: float,
    total_timeout: float | None = None,
    idle_every: float | None = None,
) -> Iterator[str]:
    """Yield the answer's chunks, each within ``timeout``, all within ``total_timeout`` (10×);
    with ``idle_every``, also an empty string after each such silence (a keep-alive, and a
    moment to look for a stop).

    Sync on purpose: under WSGI an async generator is buffered to the end.
    """
    deadline = time.monotonic() + (total_timeout or timeout * 10)
    lib = litellm()
    # Bounded: a model outrunning a slow reader waits rather than piling up text.
    chunks: queue.Queue[object] = queue.Queue(maxsize=STREAM_BUFFER_CHUNKS)
    abandoned = threading.Event()

    def hand_over(item: object) -> bool:
        while not abandoned.is_set():
            try:
                chunks.put(item, timeout=0.5)
                return True
            except queue.Full:
                continue
        return False

    def pump() -> None:
        try:
            for part in lib.completion(
                model=model, messages=messages, timeout=timeout, stream=True
            ):
                delta = part.choices[0].delta.content if part.choices else None
                if delta and not hand_over(delta):
                    return  # the reader is gone
            hand_over(_DONE)
        except Exception as exc:  # noqa: BLE001 - handed to the consumer, mapped there
            hand_over(exc)

    _pool().submit(pump)
    last_chunk = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            remaining = min(deadline, last_chunk + timeout) - now
            if remaining <= 0:  # checked before each chunk: a steady stream ends on time too
                raise ModelError("timeout", retryable=True)
            try:
                item = chunks.get(timeout=min(remaining, idle_every or remaining))
            except queue.Empty:
                if idle_every is None or time.monotonic() >= min(deadline, last_chunk + timeout):
                    raise ModelError("timeout", retryable=True) from None
                yield ""
                continue
            last_chunk = time.monotonic()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise _map_error(item) from None
            yield str(item)
    finally:
        abandoned.set()
