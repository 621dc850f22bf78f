"""WSGI entry point."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Requests wait a bounded moment for the database (``config/database.py``).
from config.database import bound_waits_for_requests  # noqa: E402 - needs the settings loaded

bound_waits_for_requests()
