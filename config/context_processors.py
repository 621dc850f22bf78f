"""Template context shared by every page."""

from django.conf import settings
from django.http import HttpRequest


def product(request: HttpRequest) -> dict[str, object]:
    """The assistant's name, used in the product's strings ("What {assistant} remembers")."""
    return {"assistant": settings.ASSISTANT_NAME}
