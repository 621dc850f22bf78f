"""The web application exactly as production serves it, plus the benchmark's instant model
(loaded in gunicorn's master, before it forks, like litellm itself)."""

from benchmarks.instant import register
from config.wsgi import application

register()

__all__ = ["application"]
