"""The environment litellm and tiktoken need without a network, set before either is imported."""

from __future__ import annotations

import importlib.util
import os


def bpe_dir() -> str:
    """The folder of litellm's BPE files, found without importing litellm (slow)."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("litellm is not installed; its BPE files are needed offline")
    return os.path.join(spec.submodule_search_locations[0], "litellm_core_utils", "tokenizers")


def point_tiktoken_at_bpe_files() -> None:
    # litellm overwrites TIKTOKEN_CACHE_DIR unless CUSTOM_TIKTOKEN_CACHE_DIR is set: both agree.
    tiktoken_dir = os.environ.get("TIKTOKEN_CACHE_DIR")
    custom_dir = os.environ.get("CUSTOM_TIKTOKEN_CACHE_DIR")
    if tiktoken_dir is None and custom_dir is None:
        tiktoken_dir = custom_dir = bpe_dir()
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", tiktoken_dir or custom_dir or "")
    os.environ.setdefault("CUSTOM_TIKTOKEN_CACHE_DIR", custom_dir or tiktoken_dir or "")


def use_offline_environment() -> None:
    """Keep litellm's price list and tiktoken's BPE file local: no download."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    point_tiktoken_at_bpe_files()
