"""The settings point litellm and tiktoken at what the installed litellm ships."""

import os

from config import offline

# sha1 of tiktoken's o200k_base URL: the name tiktoken looks for in its cache folder.
O200K_CACHE_FILE = "fb374d419588a4632f3f557e76b4b70aebbca790"


def test_bpe_dir_holds_the_o200k_file_shipped_with_litellm():
    assert os.path.isfile(os.path.join(offline.bpe_dir(), O200K_CACHE_FILE))


def test_tiktoken_cache_variables_agree_so_litellm_does_not_override_them():
    assert os.environ["TIKTOKEN_CACHE_DIR"]
    assert os.environ["TIKTOKEN_CACHE_DIR"] == os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"]


def test_a_set_cache_variable_is_copied_to_the_missing_one(monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "/somewhere")
    monkeypatch.delenv("CUSTOM_TIKTOKEN_CACHE_DIR")
    offline.point_tiktoken_at_bpe_files()
    assert os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"] == "/somewhere"


def test_unset_cache_variables_point_at_litellm_files(monkeypatch):
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR")
    monkeypatch.delenv("CUSTOM_TIKTOKEN_CACHE_DIR")
    offline.point_tiktoken_at_bpe_files()
    assert os.environ["TIKTOKEN_CACHE_DIR"] == offline.bpe_dir()
    assert os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"] == offline.bpe_dir()
