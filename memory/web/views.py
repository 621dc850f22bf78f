"""The Memory section of Settings (SPEC §7) and its History page.

Each action is a form post redirecting to ``settings#memory`` (no JavaScript needed); the
script sends ``X-Whizi-Fragment`` and swaps in the section. A failed read shows an error,
never an empty list.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from django.contrib import messages
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.error_pages import shown_on_page
from core.errors import Text
from core.people import acting_person, person_of, person_optional, person_required
from memory import history as versions_kept
from memory import rollback, screening, services, texts
from memory.versions import NO_VERSION, version_of
from memory.web.section import section_context

MEMORY_UNAVAILABLE = texts.MEMORY_UNAVAILABLE
CLEAR_FAILED = texts.CLEAR_FAILED
LIST_CHANGED = _(
    "Your memory changed in the meantime. Here is the latest list; nothing was deleted."
)
NOT_CHANGED = _(
    "Your memory changed in the meantime. Here is the latest list; nothing was changed."
)
RESTORED = _("Restored version %(version)s.")
SAME_AS_NOW = _("Nothing to restore: that version's facts are your memory now.")
HISTORY_LIMIT = 200  # as the API's
# Messages tagged so they show inside the memory section.
TAG = "memory"


def _form_version(request: HttpRequest) -> int:
    """The version the form was rendered with; anything else never matches."""
    version = version_of(request.POST.get("version", ""))
    return NO_VERSION if version is None else version


def _shown_in_section(
    request: HttpRequest, *, changed: Text | None = None
) -> AbstractContextManager[None]:
    """Show a change's error in the section; ``changed`` words a list that changed meanwhile."""
    own_words = {"stale_version": changed, "not_found": changed} if changed else None
    return shown_on_page(request, tags=TAG, texts=own_words, outage=MEMORY_UNAVAILABLE)


def _on_the_line(
    request: HttpRequest, owner_id: int, index: int, act: Callable[[int, int], object]
) -> None:
    """``act(index, version)`` on the list the page was drawn with; when a pass changed the
    list since, on the list as it is now, at the line the form names (``line``) if it is still
    there word for word. The person asked about that line, not about a position."""
    try:
        act(index, _form_version(request))
    except (services.StaleVersion, services.LineNotFound):
        line = request.POST.get("line", "")
        now = services.view_memory(owner_id=owner_id)
        if line not in now.lines:
            raise
        act(now.lines.index(line), now.version)


def _back(request: HttpRequest) -> HttpResponse:
    """The fresh section for the script, else a redirect to Settings."""
    if request.headers.get("X-Whizi-Fragment"):
        return render(request, "memory/_section.html", section_context(request, expanded=True))
    return redirect(reverse("accounts:settings") + "?memory=open#memory")


@require_GET
@person_optional
def section(request: HttpRequest) -> HttpResponse:
    """The section; 204 when the page already shows the list as it is (``?known=``)."""
    if (known := request.GET.get("known")) is not None:
        person = person_of(request)
        try:
            state = (
                services.state_of(owner_id=person.pk) if person else services.shown_state(0, True)
            )
        except DatabaseError:
            return HttpResponse(status=204)  # what is shown stays; the next ask may get through
        if known == state:
            return HttpResponse(status=204)
    expanded = request.GET.get("memory") == "open"
    context = section_context(request, expanded=expanded)
    if known is not None:
        context["messages"] = []  # a refresh leaves notices meant for another page alone
    return render(request, "memory/_section.html", context)


@require_http_methods(["GET", "POST"])
@person_optional
def clear(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        # The confirmation dialog, without JavaScript.
        return render(request, "memory/clear_confirm.html")
    # A guest merged into an account meanwhile: nothing cleared.
    refused = {"not_found": CLEAR_FAILED}
    with shown_on_page(request, tags=TAG, outage=CLEAR_FAILED, texts=refused):
        if (person := person_of(request)) is not None:  # a visitor has nothing to clear
            services.clear_memory(owner_id=person.pk)
        messages.success(request, _("Memory cleared."), extra_tags=TAG)
    return _back(request)


@require_POST
@sensitive_post_parameters("line")  # the person's own words: never in an error report
@person_optional
def delete_line(request: HttpRequest, index: int) -> HttpResponse:
    with _shown_in_section(request, changed=LIST_CHANGED):
        if (person := person_of(request)) is None:  # a visitor's list is empty
            raise services.LineNotFound
        _on_the_line(
            request,
            person.pk,
            index,
            lambda at, version: services.delete_line(
                owner_id=person.pk, index=at, expected_version=version
            ),
        )
        messages.success(request, _("Deleted."), extra_tags=TAG)
    return _back(request)


@require_POST
@sensitive_post_parameters("text")
@person_required
def add_line(request: HttpRequest) -> HttpResponse:
    person = acting_person(request)
    return _write_line(request, lambda text: services.add_line(owner_id=person.pk, text=text))


@require_POST
@sensitive_post_parameters("text", "line")
@person_optional
def edit_line(request: HttpRequest, index: int) -> HttpResponse:
    if (person := person_of(request)) is None:  # a visitor's list is empty
        messages.warning(request, NOT_CHANGED, extra_tags=TAG)
        return _back(request)
    return _write_line(
        request,
        lambda text: _on_the_line(
            request,
            person.pk,
            index,
            lambda at, version: services.edit_line(
                owner_id=person.pk, index=at, text=text, expected_version=version
            ),
        ),
    )


def _write_line(request: HttpRequest, write: Callable[[str], object]) -> HttpResponse:
    """Save a line the person wrote, or show why not."""
    with _shown_in_section(request, changed=NOT_CHANGED):
        write(request.POST.get("text", "")[:2_000])
        messages.success(request, _("Saved."), extra_tags=TAG)
    return _back(request)


@require_POST
@person_required
def switch(request: HttpRequest) -> HttpResponse:
    enabled = request.POST.get("enabled") in ("1", "on", "true")
    with _shown_in_section(request):
        services.set_enabled(owner_id=acting_person(request).pk, enabled=enabled)
    return _back(request)


@require_GET
@person_optional
def history(request: HttpRequest) -> HttpResponse:
    """Every version of the list, newest first, each but the current one with Restore."""
    person = person_of(request)
    if person is None:
        current, versions = 0, []
    else:
        screening.screen_before_showing(owner_id=person.pk)
        current = services.view_memory(owner_id=person.pk).version
        versions = rollback.history_of(owner_id=person.pk, limit=HISTORY_LIMIT, lines=True)
    rows = [
        {
            "version": version.version,
            "at": version.created_at,
            "label": texts.VERSION_KINDS.get(version.kind, version.kind),
            **versions_kept.counted(version),
            "later_deleted": versions_kept.later_deleted(version),
            "screened": texts.screened_lines(version.screened),
            "lines": version.lines,
        }
        for version in versions
    ]
    return render(request, "memory/history.html", {"versions": rows, "current": current})


@require_POST
@person_optional
def restore(request: HttpRequest) -> HttpResponse:
    with _shown_in_section(request, changed=NOT_CHANGED):
        person = person_of(request)
        target = version_of(request.POST.get("restore", ""))
        if person is None or target is None:  # a visitor has no versions
            raise rollback.VersionNotFound
        result = rollback.restore_version(
            owner_id=person.pk, version=target, expected_version=_form_version(request)
        )
        if result.memory.version == _form_version(request) and not result.skipped:
            messages.info(request, SAME_AS_NOW, extra_tags=TAG)
            return _back(request)
        text = RESTORED % {"version": target}
        if result.skipped:
            text += " " + ngettext(
                "%(count)d fact was left out: it is no longer allowed or doesn't fit.",
                "%(count)d facts were left out: they are no longer allowed or don't fit.",
                result.skipped,
            ) % {"count": result.skipped}
        messages.success(request, text, extra_tags=TAG)
    return _back(request)
