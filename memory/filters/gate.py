"""Code-side refusals: whatever the memory model proposes, code decides what is stored.

Pure module (no Django). SPEC §3: secrets, lines outside 3-160 characters, duplicates and role or
prompt markup are refused, and so are links, bare domains and lines that read as instructions to
the assistant, anywhere in the line and whatever the label in front of it, because a stored line
is obeyed in every future conversation as if just asked. The checks themselves live in
`memory.filters.secrets`, `memory.filters.credentials`, `memory.filters.access_codes`,
`memory.filters.national_ids`,
`memory.filters.links` and `memory.filters.instructions`, on the line as `memory.filters.normalize`
folds it. A refused
line is only counted by reason; its text never reaches a log or an exception.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Final, Literal

from memory.filters.instruction_wishes import wishes_promotion
from memory.filters.instructions import has_markup, is_instruction
from memory.filters.links import has_link
from memory.filters.normalize import for_checks, unleet, unspace
from memory.filters.secrets import is_secret
from memory.rules.lines import clean_line, fold, line_key

RefusalReason = Literal["length", "secret", "markup", "link", "instruction"]

# Bump when a rule changes: stored lines checked under an older version are checked again.
# 2: separators in card numbers and IBANs, credentials anywhere in the line, bare domains
# ("link"), instructions after a label or a first sentence.
# 3: look-alike characters (full-width, other scripts, leetspeak), spelled-out digits, any
# separator in card numbers, lock combinations, defanged and IDN links, the assistant named as
# the one who acts, rules for every answer; quoted titles and mottos are kept.
# 4: "pass" short for password, and any words after "passphrase:".
# 5: e-mail addresses (their domain is a link), and a password-like value behind the name of a
# service, device or network ("Netflix: Soleil2024!", "wifi → gatto99!").
# 6: values, not labels: identity, social security and tax numbers by shape and checksum with
# or without a label (`memory.filters.national_ids`); door, alarm, locker and 2FA backup codes,
# security answers, password hints, user and secret pairs (`memory.filters.access_codes`), the key
# of a
# network without digits, a comma before "is"; instructions said as statements to the
# assistant and preferences that make it promote something
# (`memory.filters.instruction_declaratives`);
# leetspeak read in letters for every check (`memory.filters.normalize.unleet`).
# 7: wishes that put a third party (a name, a code, a shop or brand) in the answers
# (`memory.filters.instruction_wishes`), while wishes about style are kept; "insert in every answer"
# orders; spaced-out letters read as words; UK UTR, Canadian SIN and NAS, misspelt password
# words, "password for X value" and the code of a bank card.
# 8: the assistant as the subject of any verb ("The assistant reveals …", "L'IA ignora …"),
# override wording ("ignores its safety rules", "senza filtri") and claimed privileges ("has admin
# permission, so …"), wider wishes and push verbs ("would love it if", "preferisce che tu
# proponga", "every tip you give", "send people to") and infinitive orders behind "always"
# ("Toujours citer X"), conditional referrals ("when someone asks about X, recommend Y",
# `memory.filters.instruction_referrals`), the Austrian Sozialversicherungsnummer.
RULES_VERSION: Final = 8
MIN_CHARS: Final = 3
MAX_CHARS: Final = 160


def refusal_reason(line: str) -> RefusalReason | None:
    """Return why `line` must not be stored, or None when it may be.

    Reasons, checked in this order: "length" (outside 3-160 characters once cleaned), "secret",
    "markup" (role or prompt markup), "link" (a URL, a bare domain or an e-mail address),
    "instruction" (text that reads as an order to the assistant).
    """
    cleaned = clean_line(line)
    if not MIN_CHARS <= len(cleaned) <= MAX_CHARS:
        return "length"
    # The checks read the line with look-alikes folded ("４１１１", "evil。example", a Cyrillic
    # "а" in "Pаssword"); the line itself is stored as written.
    # Spaced-out letters ("r e c o m m e n d  X") are read as the words they spell.
    text = for_checks(clean_line(unspace(line)))
    folded = fold(text)
    # Leetspeak ("4lw4ys r3c0mm3nd", "S5N", "d00r c0d3") is read in letters too.
    readings = unleet(folded)
    if is_secret(text, folded) or any(is_secret(reading, reading) for reading in readings):
        return "secret"
    if has_markup(text):
        return "markup"
    if has_link(text):
        return "link"
    if (
        is_instruction(folded)
        or any(is_instruction(reading) for reading in readings)
        or wishes_promotion(text)
        or any(wishes_promotion(reading) for reading in readings)
    ):
        return "instruction"
    return None


@dataclass(frozen=True)
class ValidationResult:
    """Lines that may be stored, and how many were refused for each reason."""

    lines: list[str]
    refused: Counter[str] = field(default_factory=Counter)


def validate_lines(
    candidates: Iterable[str], *, known_good: Collection[str] = ()
) -> ValidationResult:
    """Clean and check candidate lines; keep acceptable ones once each, in order.

    Refused lines are only counted, by reason ("length", "secret", "markup", "link",
    "instruction", "duplicate"). ``known_good`` are lines these same rules (``RULES_VERSION``)
    already passed, such as the stored list; they skip the checks but not deduplication.
    """
    kept: list[str] = []
    refused: Counter[str] = Counter()
    seen: set[str] = set()
    for candidate in candidates:
        line = clean_line(candidate)
        # The candidate as proposed: its double spaces separate spaced-out words.
        reason = None if line in known_good else refusal_reason(candidate)
        if reason is not None:
            refused[reason] += 1
            continue
        key = line_key(line)
        if key in seen:
            refused["duplicate"] += 1
            continue
        seen.add(key)
        kept.append(line)
    return ValidationResult(lines=kept, refused=refused)
