"""A memory line as the refusal checks read it: look-alike characters turned into what they imitate.

Pure module (no Django), used by `memory.filters.gate`. SPEC §3: secrets, links and instructions are
refused whatever the separators or script, and a look-alike is the cheapest way round a pattern
written in ASCII: "４１１１" (full-width digits), "evil。example" (an ideographic full stop),
"Pаssword" (a Cyrillic "а"). Leetspeak ("4lw4ys r3c0mm3nd", "p@ssw0rd") is read back into letters
by `unleet`. Only the checks read this text; the line is stored as written.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

from confusable_homoglyphs.confusables import confusables_data

# Full stops and middle dots that NFKC leaves alone but that read as "." between two names
# ("evil。example", "4111·1111").
_DOTS: Final = "\u3002\ua60e\ua4f8\u0701\u0702\u2e3c\u06d4\u00b7\u2027\u2219\u22c5\u30fb\u2022"
# Dashes and hyphens that NFKC leaves alone; patterns only know "-".
_DASHES: Final = "\u2010\u2012\u2013\u2014\u2015\u2212\u2043\ufe58"
_PUNCTUATION_TABLE: Final = str.maketrans(
    {**dict.fromkeys(_DOTS, "."), **dict.fromkeys(_DASHES, "-")}
)
_WORD_RE: Final = re.compile(r"[^\W_]+")


@functools.cache
def _confusables_table() -> dict[int, str]:
    """Letters of other scripts that look like one ASCII letter or digit ("а" → "a", "ο" → "o").

    Built from the Unicode confusables list (UTS #39) that `confusable_homoglyphs` ships, once, on
    first use. Transliteration libraries (Unidecode, anyascii) are the wrong tool here: they
    turn Cyrillic "р" into "r", while it looks like, and is used as, a Latin "p".
    """
    table: dict[int, str] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        for homoglyph in homoglyphs:
            target = homoglyph["c"]
            if len(target) == 1 and target.isascii() and target.isalnum():
                table[ord(char)] = target
                break
    return table


def _fold_word(match: re.Match[str]) -> str:
    # A word is folded only when every letter of it has an ASCII look-alike: "Pаssword" (one
    # Cyrillic letter) becomes "Password", but a real Russian or Greek word keeps its letters,
    # so it cannot turn into an accidental English keyword.
    word = match.group()
    if word.isascii():
        return word
    folded = word.translate(_confusables_table())
    if all(char.isascii() or not char.isalpha() or _is_latin(char) for char in folded):
        return folded
    return word


def _is_latin(char: str) -> bool:
    # Accented Latin letters ("è", "ß") are already the script the patterns are written in.
    return unicodedata.name(char, "").startswith("LATIN ")


def for_checks(line: str) -> str:
    """Return `line` with compatibility forms, look-alike dots, dashes and letters made ASCII.

    NFKC turns full-width and other compatibility forms into plain ones ("４" → "4", "．" → ".");
    the remaining dot and dash look-alikes become "." and "-"; a word whose letters all have an
    ASCII look-alike is spelled in ASCII.
    """
    if line.isascii():  # nearly every line: nothing to fold
        return line
    text = unicodedata.normalize("NFKC", line).translate(_PUNCTUATION_TABLE)
    return _WORD_RE.sub(_fold_word, text)


# Spaced-out letters: "r e c o m m a n d e  t o u j o u r s" (one space between letters, two or
# more between words). A run of four single characters at least is a word; three or fewer are
# initials ("J R R Tolkien", "A B C") and stay as they are.
_SPACED_RUN_RE: Final = re.compile(r"(?<!\S)\S(?: \S){3,}(?!\S)")
# Once a line has such a word, its shorter runs are words too ("i s t", "o f").
_SHORT_RUN_RE: Final = re.compile(r"(?<!\S)\S(?: \S)+(?!\S)")


def unspace(line: str) -> str:
    """Return the raw `line` with its spaced-out words written together: "p a s s w o r d  i s
    h u n t e r 2" → "password  is  hunter2". Run before the line's spaces are made single,
    since the wider gaps are what separate the words."""
    if not _SPACED_RUN_RE.search(line):
        return line
    return _SHORT_RUN_RE.sub(lambda match: match.group().replace(" ", ""), line)


# Leetspeak: symbols and digits standing for letters inside a word ("4lw4ys", "p@ssw0rd",
# "1gn0r3"). "1" may stand for "i" ("1nstruct10ns") or "l" ("a1ways"), so both readings are made.
_LEET_I: Final = str.maketrans("@4$5031!|7", "aassoeiilt")
_LEET_L: Final = str.maketrans("@4$5031!|7", "aassoelilt")
# A word of letters with leet symbols or digits in it (folded text: lowercase).
LEET_WORD_RE: Final = re.compile(r"\b(?=[a-z]*[0-9@$!|])[a-z0-9@$!|]*[a-z][a-z0-9@$!|]*")


def leet_readings(word: str) -> tuple[str, str]:
    """A leetspeak word read with "1" as "i", then as "l": "1gn0r3" → ("ignore", "lgnore")."""
    return word.translate(_LEET_I), word.translate(_LEET_L)


def _read(match: re.Match[str], index: int) -> str:
    # Only a word that reads as letters only is leetspeak: "RTX4090", "Office365" and handles
    # ("@anna_88") keep their digits and symbols.
    word = match.group()
    reading = leet_readings(word)[index]
    return reading if reading.isalpha() and word[0] != "@" else word


def unleet(folded: str) -> tuple[str, ...]:
    """Readings of a folded line with its leetspeak words spelled in letters, or () when it has
    none. Numbers ("4821", "2024") and words with other digits are left as they are."""
    if not LEET_WORD_RE.search(folded):
        return ()
    readings = {LEET_WORD_RE.sub(functools.partial(_read, index=index), folded) for index in (0, 1)}
    readings.discard(folded)
    return tuple(sorted(readings))
