"""Template filters of the memory section (django.contrib.humanize is not installed)."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    """``2000`` → "2,000" in English, "2.000" in Italian, "2 000" in French."""
    return number_format(value, force_grouping=True)
