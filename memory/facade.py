"""Memory's front door: all that chat, accounts and config ask of memory.

Besides ``memory.models`` and the ports in ``memory.turns`` and ``memory.owners``, the other
apps import only this (an import-linter contract), so memory can reorganise freely. Mostly
the existing use-cases under their own names; a few small answers (``memory_note``,
``asks_for_pass_now``) keep memory's rules out of the callers. Callers take names, never a
module behind it (``tests/test_architecture.py``).
"""

from __future__ import annotations

from django.conf import settings

import llm
from memory import history, rollback, screening, services
from memory.engine import handover, model_health
from memory.offline import asks, extractor
from memory.queueing import request_pass, request_pass_or_defer
from memory.rules import budget, changes, portable, prompts, triggers
from memory.rules.lines import clean_text as clean_text
from memory.rules.provenance import Said as Said
from memory.services import MemoryRead as MemoryRead
from memory.services import get_memory as get_memory
from memory.services import lock_memory as lock_memory
from memory.services import owner_still_there as owner_still_there
from memory.versions import version_of as version_of
from memory.web.api.serializers import ChangedLineSerializer as ChangedLineSerializer
from memory.web.section import section_context as section_context

# --- Reading memory for a request --------------------------------------------------------------

read_for_request = services.read_for_request
view_memory = services.view_memory
# Saved lines checked again under today's rules before they are shown or exported.
screen_before_showing = screening.screen_before_showing

# A restored backup replays the erasures made after it (core/erasures.py).
clear_memory = services.clear_memory
erase_lines = services.erase_digests
unbury_lines = services.unbury_digests

# The export's memory is in our open format (docs/MEMORY_FORMAT.md), which an import reads.
MEMORY_FORMAT = portable.FORMAT
MEMORY_FORMAT_VERSION = portable.VERSION


def nothing_read() -> MemoryRead:
    """What a temporary chat gets: no memory, and not even a read."""
    return MemoryRead(enabled=False, block=None)


def memory_note(memory: MemoryRead) -> str | None:
    """A block-less request's system note: how memory works, or that it is off. None when the
    read failed: the turn will not be read, so promising would lie."""
    if memory.block or memory.failed:
        return None
    return prompts.MEMORY_WRITING_NOTE if memory.enabled else prompts.MEMORY_OFF_NOTE


def count_tokens(text: str) -> int:
    """Tokens of a text as memory and the chat budget count them (o200k)."""
    return budget.count_tokens(text)


def load_tokenizer() -> None:
    """Load the tokenizer before a server forks (about a second)."""
    budget.load_encoding()


# --- Owing a pass after a reply -----------------------------------------------------------------


def offline_writer() -> bool:
    """Whether memory's model is the built-in offline writer."""
    return f"{llm.OFFLINE_PROVIDER}/{extractor.MODEL_NAME}" == settings.MEMORY_MODEL


def may_ask_to_forget(text: str) -> bool:
    """The phrase table's hint that a turn asks to forget: a receipt tells the person when its
    pass removed nothing (the model judges the request; this only decides what to say)."""
    return triggers.is_forget_request(text)


def asks_for_pass_now(text: str) -> bool:
    """A remember or forget request runs the pass now. Typos are repaired only for the offline
    writer, which cannot read them itself."""
    typos = offline_writer()
    return triggers.is_remember_request(text, typos=typos) or triggers.is_forget_request(
        text, typos=typos
    )


owe_pass = request_pass
owe_pass_or_defer = request_pass_or_defer

# --- Taking back a withdrawn turn, undoing a receipt's change ----------------------------------

take_back = rollback.take_back
undo_version = rollback.undo_version
undo_line = rollback.undo_line
ChangeRecord = changes.ChangeRecord
standing = changes.standing
change_intact = history.intact
VersionNotFound = rollback.VersionNotFound

# --- A guest becoming an account, an account going -------------------------------------------

MergeOutcome = handover.MergeOutcome
merge_memories = handover.merge_memories
hand_over_turns = handover.hand_over_turns
forget_owner = handover.forget_owner

# --- Operators and the offline chat model -------------------------------------------------------

model_health_report = model_health.report

# What the offline chat model reads: the block's first line and the memory-off note.
MEMORY_HEADER = prompts.MEMORY_HEADER
MEMORY_OFF_NOTE = prompts.MEMORY_OFF_NOTE


def read_ask(
    said: str, previous: str = "", *, lang: str, check_kept: bool = False
) -> asks.Ask | None:
    """What a chat message asks of memory, for the offline chat model (``memory.offline.asks``)."""
    return asks.read_ask(said, previous, lang=lang, check_kept=check_kept)
