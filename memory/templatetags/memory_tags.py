"""Template filters of the memory section (django.contrib.humanize is not installed)."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    """``2000`` → "2,000" in English, "2.000" in Italian, "2 000" in French."""
    return number_format(value, force_grouping=True)


@register.filter
def percent_of(value: int, limit: int) -> int:
    """How full the memory is, 0–100, for the usage bar's width."""
    if not limit:
        return 0
    return max(0, min(100, round(100 * value / limit)))
