"""The environment litellm and tiktoken need to work without a network, set by the settings
before either is imported (servers, workers and CI may have no route out)."""

from __future__ import annotations

import importlib.util
import os


def bpe_dir() -> str:
    """Return the folder where litellm ships tiktoken's BPE files.

    Found without importing litellm, which is slow to import and would itself rewrite
    `TIKTOKEN_CACHE_DIR`.
    """
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("litellm is not installed; its BPE files are needed offline")
    return os.path.join(spec.submodule_search_locations[0], "litellm_core_utils", "tokenizers")


def point_tiktoken_at_bpe_files() -> None:
    # tiktoken downloads the BPE file unless it finds it in TIKTOKEN_CACHE_DIR; servers and tests
    # have no internet. litellm, when imported, overwrites TIKTOKEN_CACHE_DIR with its own folder
    # unless CUSTOM_TIKTOKEN_CACHE_DIR is set, so both variables must agree.
    tiktoken_dir = os.environ.get("TIKTOKEN_CACHE_DIR")
    custom_dir = os.environ.get("CUSTOM_TIKTOKEN_CACHE_DIR")
    if tiktoken_dir is None and custom_dir is None:
        tiktoken_dir = custom_dir = bpe_dir()
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", tiktoken_dir or custom_dir or "")
    os.environ.setdefault("CUSTOM_TIKTOKEN_CACHE_DIR", custom_dir or tiktoken_dir or "")


def use_offline_environment() -> None:
    """litellm fetches a price list from the network unless told not to, and tiktoken downloads
    its BPE file unless it finds it: point both at what the installed litellm ships."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    point_tiktoken_at_bpe_files()
