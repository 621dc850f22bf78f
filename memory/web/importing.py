"""Settings → Memory → Import (issue 30): the prompt to paste into ChatGPT, Claude or Gemini,
a box for its answer, a preview with a tick per line, then the ticked lines saved as one
version. Plain forms; the script only adds the Copy buttons.
"""

from __future__ import annotations

import json
import re
from datetime import date

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from core.people import acting_person, person_of, person_optional, person_required
from core.throttling import MemoryImportThrottle, refuse_page
from memory import importing, services, texts
from memory.rules import portable, provenance
from memory.rules.imports import PRODUCT_NAMES, PRODUCTS, bound_of
from memory.versions import version_of

# What to send each assistant: our words, so its answer comes back in a form code reads well.
PROMPT = _(
    "List every fact you remember about me, from your memory and our past chats. Write one "
    'fact per line, starting with "- ", as a short phrase without me as the subject (for '
    'example "- Lives in Turin" or "- Has a dog named Rex"). Keep each fact in the language '
    "it was saved in, and names and numbers exactly. When you know the day you learned a fact, "
    "put it first as [YYYY-MM-DD]. Write only the list."
)
WHERE = {
    "chatgpt": _("In ChatGPT, start a new chat, paste this and send it:"),
    "claude": _("In Claude, start a new chat, paste this and send it:"),
    "gemini": _("In Gemini, start a new chat, paste this and send it:"),
}
TOO_LONG = _("That is too long to import: paste at most %(count)s characters.")
NOTHING_FOUND = _("No fact was found in that text. Paste the assistant's answer as it came.")
CHANGED = _("Your memory changed in the meantime. Here is the preview again; nothing was imported.")
TAG = "memory"


@require_GET
@person_optional
def import_page(request: HttpRequest) -> HttpResponse:
    return _form(request)


@require_POST
@sensitive_post_parameters("text")
@person_required
def preview(request: HttpRequest) -> HttpResponse:
    """What the paste would add, each line ticked; nothing stored."""
    if (refused := refuse_page(request, MemoryImportThrottle)) is not None:
        return refused
    text, product = _pasted(request)
    if len(text) > (bound := bound_of(text)):
        limit = number_format(bound, force_grouping=True)
        return _form(request, text, product, error=TOO_LONG % {"count": limit})
    return _preview(request, text, product)


@require_POST
@sensitive_post_parameters("line")
@person_required
def save(request: HttpRequest) -> HttpResponse:
    """The lines ticked in the preview, at the version it was made at. They come back as a
    paste of their own and meet every check again; the person's paste itself never returns
    to a page, since it may hold what the checks refused."""
    if (refused := refuse_page(request, MemoryImportThrottle)) is not None:
        return refused
    product = _product(request)
    ticked = request.POST.getlist("line")[: portable.MAX_ITEMS]
    if not ticked:
        return _nothing_imported(request)
    text = _as_paste(ticked)
    version = version_of(request.POST.get("version", ""))
    try:
        done = importing.import_paste(
            owner_id=acting_person(request).pk,
            text=text,
            product=product,
            expected_version=-1 if version is None else version,
        )
    except services.StaleVersion:
        return _preview(request, text, product, warning=str(CHANGED))
    count = len(done.added)
    if count:
        messages.success(
            request,
            ngettext(
                "Imported %(count)d fact. To take it back, restore the version before it in "
                "History.",
                "Imported %(count)d facts. To take them back, restore the version before them "
                "in History.",
                count,
            )
            % {"count": count},
            extra_tags=TAG,
        )
        return redirect(reverse("accounts:settings") + "?memory=open#memory")
    return _nothing_imported(request)


def _nothing_imported(request: HttpRequest) -> HttpResponse:
    messages.info(request, _("Nothing was imported."), extra_tags=TAG)
    return redirect(reverse("accounts:settings") + "?memory=open#memory")


def _ticked(line: str, day: date | None, source: provenance.Source | None) -> str:
    """What a tick sends back: the line and its date, or its source in our own format."""
    if source is not None:
        return json.dumps({"text": line, **source})
    return f"{day.isoformat() if day else ''}|{line}"


def _as_paste(ticked: list[str]) -> str:
    """The ticked lines as a paste of their own: a document of our format if they came from
    one (their sources kept), else lines with their dates ("- [2025-03-04] Likes figs")."""
    if all(value.startswith("{") for value in ticked):
        items = []
        for value in ticked:
            try:
                items.append(json.loads(value))
            except (ValueError, RecursionError):
                continue
        return json.dumps({"format": portable.FORMAT, "version": portable.VERSION, "items": items})
    pasted = []
    for value in ticked:
        day, _, line = value.partition("|")
        line = " ".join(line.split())
        dated = re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)
        pasted.append(f"- [{day}] {line}" if dated else f"- {line}")
    return "\n".join(pasted)


def _product(request: HttpRequest) -> str:
    product = request.POST.get("product", "other")
    return product if product in PRODUCTS else "other"


def _pasted(request: HttpRequest) -> tuple[str, str]:
    # A browser sends each new line as CR LF: counted as one character, as typed.
    return request.POST.get("text", "").replace("\r\n", "\n"), _product(request)


def _form(
    request: HttpRequest, text: str = "", product: str = "", *, error: str | None = None
) -> HttpResponse:
    chosen = product or request.GET.get("product", "")
    person = person_of(request)
    return render(
        request,
        "memory/import.html",
        {
            "products": [
                {"code": code, "name": name, "where": WHERE[code]}
                for code, name in PRODUCT_NAMES.items()
            ],
            "chosen": chosen if chosen in PRODUCTS else "chatgpt",
            "prompt": PROMPT,
            "text": text,
            "error": error,
            "memory_on": person is None or services.is_enabled(person.pk),
        },
        status=400 if error else 200,
    )


def _preview(
    request: HttpRequest, text: str, product: str, *, warning: str | None = None
) -> HttpResponse:
    found = importing.import_paste(
        owner_id=acting_person(request).pk,
        text=text,
        product=product,
        expected_version=None,
        dry_run=True,
    )
    if not (found.added or found.known or found.refused or found.left_out):
        return _form(request, text, product, error=str(NOTHING_FOUND))
    return render(
        request,
        "memory/import_preview.html",
        {
            "found": found,
            "rows": [
                {"line": line, "value": _ticked(line, day, source)}
                for line, day, source in zip(found.added, found.dated, found.sources, strict=True)
            ],
            "product": product,
            "refused": texts.refused_lines(found.refused),
            "warning": warning,
            "memory_on": found.memory.enabled,
        },
    )
