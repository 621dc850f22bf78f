"""The memory service's error texts (SPEC §7), shared by the settings page and the API. They
name the memory service, not the account, and go with errors that delete nothing."""

from django.utils.translation import gettext_lazy as _

MEMORY_UNAVAILABLE = _("Memory isn't available right now. Try again later.")
CLEAR_FAILED = _("Couldn't clear memory. Try again.")
