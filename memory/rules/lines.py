"""Memory lines as plain text: cleaning, comparison keys, dedupe, and the unreadable-answer error.

Pure module. Memory text is private: nothing here logs it or puts it in an exception message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final, Literal

# Deleted by `clean_text`: bidi controls can make a line render unlike what it says ("Trojan
# Source"); invisible characters defeat dedupe and the filters; PostgreSQL refuses NUL.
_BIDI: Final = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_INVISIBLE: Final = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_CONTROL: Final = "".join(
    chr(c) for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)] if chr(c) not in "\n\t"
)
# A lone surrogate (a bad `\ud800` JSON escape) cannot be encoded as UTF-8 and fails the write.
_SURROGATES: Final = "".join(chr(c) for c in range(0xD800, 0xE000))
_DELETE_TABLE: Final = str.maketrans("", "", _BIDI + _INVISIBLE + _CONTROL + _SURROGATES)

# A leading list marker the model may add although it was asked for plain lines.
_BULLET_RE: Final = re.compile(r"^(?:[-*\u2022\u00b7\u2023\u25aa\u2013\u2014]|\d{1,3}[.)])\s+")

_QUOTES: Final = "\"'`\u201c\u201d\u201e\u2018\u2019\u201a\u00ab\u00bb\u2039\u203a"
_TRAILING_PUNCT: Final = ".!?;:,\u2026\u3002\uff01\uff1f\uff1b\uff1a\uff0c"
_APOSTROPHES_RE: Final = re.compile("[\u2019\u2018`\u00b4\u02bc]")
_SPACE_RE: Final = re.compile(r"\s+")

# A ```json ... ``` fence around the answer, which chat-tuned models add despite instructions.

MalformedReason = Literal[
    "empty",
    "not_json",
    "wrong_shape",
    "unreadable",
    "unplaced",
    "twice",
    "uncited",
    "overlong_merge",
]


def clean_text(text: str) -> str:
    """Remove controls, lone surrogates, bidi and invisible characters, then NFC-normalize."""
    return unicodedata.normalize("NFC", text.translate(_DELETE_TABLE))


def clean_line(text: str) -> str:
    """Clean one memory line: `clean_text`, single spaces, no leading bullet marker."""
    line = " ".join(clean_text(text).split())
    return _BULLET_RE.sub("", line, count=1).strip()


def line_key(line: str) -> str:
    """The comparison key of a line: case, spacing, quotes and trailing punctuation do not count."""
    # NFKC folds compatibility forms (full-width letters, ligatures) that casefold leaves alone.
    key = unicodedata.normalize("NFKC", clean_line(line)).casefold()
    key = " ".join(key.split())
    previous = None
    while key != previous:
        previous = key
        key = key.strip(_QUOTES + " ").rstrip(_TRAILING_PUNCT + _QUOTES + " ")
    return key


def fold(text: str) -> str:
    """Text folded for matching: cleaned, casefolded, no accents, one apostrophe, single spaces.

    So patterns are written once in plain ASCII for every language."""
    stripped = clean_text(text).casefold()
    if not stripped.isascii():  # most lines are plain ASCII: skip the decomposition
        decomposed = unicodedata.normalize("NFKD", stripped)
        stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
        stripped = _APOSTROPHES_RE.sub("'", unicodedata.normalize("NFC", stripped))
    return _SPACE_RE.sub(" ", stripped).strip()


def dedupe(lines: Iterable[str]) -> list[str]:
    """Drop lines whose `line_key` was already seen, keeping first occurrences in order."""
    listed = list(lines)
    firsts = first_seen([line_key(line) for line in listed])
    return [line for line, first in zip(listed, firsts, strict=True) if first]


def first_seen(keys: Sequence[str]) -> list[bool]:
    """For each key, whether it is the first of its kind."""
    seen: set[str] = set()
    firsts = []
    for key in keys:
        firsts.append(key not in seen)
        seen.add(key)
    return firsts


class MalformedAnswer(ValueError):
    """A memory model answer that cannot be read.

    The message is only a reason code: the answer may echo memory text."""

    def __init__(self, reason: MalformedReason) -> None:
        super().__init__(f"malformed memory answer: {reason}")
        self.reason: MalformedReason = reason


# A line is one fact in the third person without a subject: a line that opens with the
# speaker's own pronoun or possessive (six languages' closed set) is the person's sentence.
# An abbreviation in capitals ("EU citizen", "MA in linguistics") is no pronoun; a pronoun is
# followed by a space and the rest of the sentence ("Me/CFS", "Mon-Fri" are not).
_FIRST_PERSON_RE: Final = re.compile(
    r"^(?:j'(?=\w)|(?:i|i'm|i've|i'd|my|me|io|mi|mio|mia|miei|mie|je|moi|mon|ma|mes|yo|mis|ich|"
    r"mein|meine|meinen|meinem|meiner|mir|mich|eu|meu|minha|meus|minhas)\s)"
)
_CAPITALS_RE: Final = re.compile(r"^[A-Z]{2,}\b")


def copied(line: str, said: Iterable[str] = ()) -> bool:
    """`line` is the person's words as typed, not a fact written about them: in the first
    person, or one of their turns (`said`) word for word."""
    key = forget_key(line)
    text = clean_line(line)
    first_person = bool(_FIRST_PERSON_RE.match(fold(text))) and not _CAPITALS_RE.match(text)
    return first_person or any(key and key == forget_key(turn) for turn in said)


_NOT_WORDS_RE = re.compile(r"[\W_]+")


def forget_key(line: str) -> str:
    """What forgetting a line matches: its words only ("Has a dog, Rex" = "has a dog rex").

    Looser than `line_key`: forgetting must not miss a variant."""
    return _NOT_WORDS_RE.sub(" ", fold(line)).strip()
