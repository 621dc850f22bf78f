"""Template filters of the memory section (django.contrib.humanize is not installed)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone, translation
from django.utils.formats import date_format, number_format

from memory.rules.imports import PRODUCT_NAMES

register = template.Library()


@register.filter
def grouped(value: int) -> str:
    """``2000`` → "2,000" in English, "2.000" in Italian, "2 000" in French."""
    return number_format(value, force_grouping=True)


@register.filter
def line_date(value: datetime) -> str:
    """A date in the reader's language and time zone ("November 3"), with a past year's year."""
    moment = timezone.localtime(value)
    same_year = moment.year == timezone.localtime().year
    text = date_format(moment, "MONTH_DAY_FORMAT" if same_year else "DATE_FORMAT")
    if (translation.get_language() or "").split("-")[0] in LOWERCASE_MONTHS:
        month = date_format(moment, "F")  # Django's Italian names are capitalised
        text = text.replace(month, month.lower())
    return text


@register.filter
def product_name(value: str | None) -> str:
    """The assistant an imported line came from, by name ("ChatGPT"); "" when unknown."""
    return PRODUCT_NAMES.get(value or "", "")


# Languages that write a month in lower case mid-sentence ("4 dicembre", "4 décembre").
LOWERCASE_MONTHS = frozenset({"it", "fr", "es", "pt"})
