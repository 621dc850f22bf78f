"""Memory's texts for people (SPEC §7), shared by the settings page and the API."""

from collections import Counter

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

MEMORY_UNAVAILABLE = _("Memory isn't available right now. Try again later.")
CLEAR_FAILED = _("Couldn't clear memory. Try again.")

# Why a line the person wrote was refused, by reason code.
_NOT_AN_ORDER = _(
    "Write a fact about you, not an instruction for the assistant "
    "(for example “Prefers short answers”)."
)
LINE_REFUSED = {
    "secret": _("Memory doesn't keep secrets such as passwords, card numbers or keys."),
    "link": _("Memory doesn't keep links or web addresses."),
    "instruction": _NOT_AN_ORDER,
    "markup": _NOT_AN_ORDER,
    "length": _("A fact must be 3 to 160 characters long."),
    "duplicate": _("Memory already has this fact."),
}
MEMORY_FULL = _("Memory is full. Delete a fact first.")

# The History page's names for ``MemoryVersion.kind``.
VERSION_KINDS = {
    "pass": _("Learned from your chats"),
    "voice_pass": _("Learned from a voice session"),
    "condense": _("Shortened to fit"),
    "cut": _("Shortened to fit"),
    "clear": _("Memory cleared"),
    "delete_line": _("You deleted a fact"),
    "add_line": _("You added a fact"),
    "edit_line": _("You edited a fact"),
    "merge": _("Brought over from your guest session"),
    "restore": _("You restored a version"),
    "undo": _("You undid a change"),
    "undo_line": _("You undid one line of a change"),
    "learned": _("Saved before history began"),
    "screen": _("Removed by the safety check"),
    "import": _("You imported facts"),
}

# Why the safety check took saved lines out after its rules changed, by reason code, counted:
# never the lines themselves.
SCREENED = {
    "secret": ngettext_lazy(
        "%(count)d fact that looked like a password or other secret",
        "%(count)d facts that looked like a password or other secret",
        "count",
    ),
    "instruction": ngettext_lazy(
        "%(count)d fact that read as an instruction to the assistant",
        "%(count)d facts that read as an instruction to the assistant",
        "count",
    ),
    "markup": ngettext_lazy(
        "%(count)d fact that held hidden text or markup",
        "%(count)d facts that held hidden text or markup",
        "count",
    ),
    "link": ngettext_lazy(
        "%(count)d fact that held a link", "%(count)d facts that held a link", "count"
    ),
    "length": ngettext_lazy(
        "%(count)d fact too short or too long to keep",
        "%(count)d facts too short or too long to keep",
        "count",
    ),
}


# ...and what an import left out besides (``memory.importing``).
NOT_IMPORTED = {
    **SCREENED,
    "forgotten": ngettext_lazy(
        "%(count)d fact you deleted or asked to forget",
        "%(count)d facts you deleted or asked to forget",
        "count",
    ),
}


def refused_lines(refused: dict[str, int]) -> list[str]:
    """What an import refused, one line per reason, counted, never the lines."""
    return [
        str(NOT_IMPORTED[reason] % {"count": count})
        for reason, count in refused.items()
        if reason in NOT_IMPORTED
    ]


def screened_lines(reasons: list[str]) -> list[str]:
    """One line per reason, counted: "2 facts that looked like a password or other secret"."""
    return [
        str(SCREENED[reason] % {"count": count})
        for reason, count in Counter(reasons).items()
        if reason in SCREENED
    ]
