"""The grammar of a memory line: code reads what a line means to do, not one phrase at a time.

A memory line is a short statement about the person. A line is an instruction when the
assistant acts or is addressed in it (`actors`, `second_person`, `addressed`), when it gives an
order, said from its start or without a subject (`clauses`, `rules`), when a condition decides
what answers do (`conditions`), or when the answers are to carry or favour a third party
(`third_parties`). The word classes are in `lexicon`; `markup` reads role tags and metadata.
Pure package, used by `memory.filters.gate` on a cleaned line with look-alikes folded.
"""

from __future__ import annotations

import re

from memory.filters.grammar.actors import assistant_acts, reminds_person
from memory.filters.grammar.addressed import addressed_to_assistant
from memory.filters.grammar.clauses import orders_in_clauses, segments
from memory.filters.grammar.conditions import conditioned
from memory.filters.grammar.markup import has_markup
from memory.filters.grammar.rules import said_as_a_rule
from memory.filters.grammar.second_person import addresses_assistant
from memory.filters.grammar.third_parties import (
    answers_push,
    has_third_party,
    pays_a_third_party,
    wishes_promotion,
)
from memory.rules.lines import fold

__all__ = ["has_markup", "is_instruction"]


_NAME_RE = re.compile(r"\bwhizi\b", re.IGNORECASE)


def _reminder(folded: str, text: str) -> bool:
    """The assistant is named only to remind the person of their own affairs, or to keep what
    they told it, nobody else's."""
    return reminds_person(folded) and not has_third_party(_NAME_RE.sub("", text))


def is_instruction(text: str) -> bool:
    """Whether a cleaned line reads as an instruction to the assistant, anywhere in it."""
    folded = fold(text)
    if (
        (not _reminder(folded, text) and (assistant_acts(folded) or addressed_to_assistant(folded)))
        or said_as_a_rule(folded)
        or conditioned(folded)
        or pays_a_third_party(folded)
    ):
        return True
    # A quoted passage (a title, someone's words) is an order only when it pushes something.
    pieces = segments(folded)
    if any(
        addresses_assistant(piece, push_only=quoted) or answers_push(piece)
        for piece, quoted in pieces
    ):
        return True
    return orders_in_clauses(pieces) or wishes_promotion(text)
