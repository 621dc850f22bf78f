"""Start-up stays cheap and offline: litellm (seconds to import) is imported lazily, and when it
is, it reads its price list and tokenizer files from disk."""

import subprocess
import sys

from django.conf import settings

PROBE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.urls import resolve
import config.urls, chat.views, chat.api.views, memory.passes, memory.tasks  # the whole app
resolve("/api/v1/models")
print("litellm imported:", "litellm" in sys.modules)
print("offline:", os.environ["LITELLM_LOCAL_MODEL_COST_MAP"], os.environ["LITELLM_OFFLINE_MODE"])
print("bpe:", os.environ["TIKTOKEN_CACHE_DIR"] == os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"])
"""


def test_loading_the_app_does_not_import_litellm_and_pins_it_offline(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path), "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "litellm imported: False" in out
    assert "offline: True true" in out
    assert "bpe: True" in out
