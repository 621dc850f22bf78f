"""Memory's texts for people (SPEC §7), shared by the settings page and the API."""

from django.utils.translation import gettext_lazy as _

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
    "learned": _("Saved before history began"),
}
