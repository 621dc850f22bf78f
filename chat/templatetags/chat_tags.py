"""Template filters of the chat pages."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from chat import markdown

register = template.Library()


@register.filter
def reply_html(text: str) -> SafeString:
    """A reply's Markdown as sanitised HTML (``chat.markdown``, as the stream)."""
    return mark_safe(markdown.render(text))  # noqa: S308 - sanitised by nh3 just before
