"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in each app."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("whizi")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# /healthz and `make run` know a worker is there by its heartbeat (config/heartbeat.py).
app.steps["consumer"].add("config.heartbeat:Heartbeat")


@worker_init.connect
def _import_litellm_before_forking(**kwargs: Any) -> None:
    """Load litellm and the tokenizer once, before the pool forks."""
    from config.database import bound_waits_for_workers
    from config.warmup import warm_up

    bound_waits_for_workers()
    warm_up()


@worker_process_init.connect
def _warm_up_pool_process(**kwargs: Any) -> None:
    """Each pool process makes litellm's first call before its first task."""
    from config.warmup import warm_up_process

    warm_up_process()
