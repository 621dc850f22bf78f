"""A memory line as the refusal checks read it: look-alike characters turned into what they imitate.

Pure module, used by `memory.filters.gate`: a look-alike ("Pаssword" with a Cyrillic "а") is the
cheapest way round an ASCII pattern; `unleet` reads leetspeak back. The line is stored as written.
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
    """Look-alikes of ASCII letters and digits from UTS #39 (transliteration reads "р" as "r")."""
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
    # A word is folded only when every letter has an ASCII look-alike: a real Russian or Greek
    # word keeps its letters, so it cannot become an accidental English keyword.
    word = match.group()
    if word.isascii():
        return word
    folded = word.translate(_confusables_table())
    if all(char.isascii() or not char.isalpha() or _is_latin(char) for char in folded):
        return folded
    return word


# Invisible characters inside a word ("Consi\u200cglia"); a joiner between emoji is fine.
_HIDDEN_IN_WORD_RE: Final = re.compile(
    r"(?<=\w)[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]+(?=\w)"
)


def has_hidden_characters(line: str) -> bool:
    """Whether an invisible character splits a word: no one types that but to get past a check."""
    return bool(_HIDDEN_IN_WORD_RE.search(line))


def has_mixed_script(line: str) -> bool:
    """Whether a word mixes Latin letters with look-alikes from another script ("Рrоpоse" with
    Cyrillic "Р" and "о"): no one writes that but to get past a check."""
    for match in _WORD_RE.finditer(line):
        word = match.group()
        if word.isascii():
            continue
        letters = [char for char in word if char.isalpha()]
        latin = any(char.isascii() or _is_latin(char) for char in letters)
        if latin and any(not (char.isascii() or _is_latin(char)) for char in letters):
            return True
    return False


def _is_latin(char: str) -> bool:
    # Accented Latin letters ("è", "ß") are already the script the patterns are written in.
    return unicodedata.name(char, "").startswith("LATIN ")


# Separators no number is written with but a disguised one ("536_22_8714", "4111*1111",
# "4111+1111"): read as dashes, which every number check knows.
_ODD_DIGIT_SEPARATOR_RE: Final = re.compile(r"(?<=\d)[_*~|+]+(?=\d)")


def for_checks(line: str) -> str:
    """`line` with compatibility forms (NFKC), look-alike dots, dashes and letters made ASCII, and
    odd separators between digits made dashes."""
    line = _ODD_DIGIT_SEPARATOR_RE.sub("-", line)
    if line.isascii():  # nearly every line: nothing to fold
        return line
    text = unicodedata.normalize("NFKC", line).translate(_PUNCTUATION_TABLE)
    return _WORD_RE.sub(_fold_word, text)


# Spaced-out letters: one space between letters, two or more between words. Four single
# characters at least make a word; fewer are initials ("J R R Tolkien").
_SPACED_RUN_RE: Final = re.compile(r"(?<!\S)\S(?: \S){3,}(?!\S)")
# Once a line has such a word, its shorter runs are words too ("i s t", "o f").
_SHORT_RUN_RE: Final = re.compile(r"(?<!\S)\S(?: \S)+(?!\S)")


def unspace(line: str) -> str:
    """Spaced-out words written together ("p a s s w o r d"), before spaces are made single."""
    if not _SPACED_RUN_RE.search(line):
        return line
    return _SHORT_RUN_RE.sub(lambda match: match.group().replace(" ", ""), line)


# Leetspeak inside a word ("p@ssw0rd"). "1" may be "i" or "l", so both readings are made.
_LEET_I: Final = str.maketrans("@4$5031!|7", "aassoeiilt")
_LEET_L: Final = str.maketrans("@4$5031!|7", "aassoelilt")
# A word of letters with leet symbols or digits in it (folded text: lowercase).
LEET_WORD_RE: Final = re.compile(r"\b(?=[a-z]*[0-9@$!|])[a-z0-9@$!|]*[a-z][a-z0-9@$!|]*")


_LEET_ANY_CASE_RE: Final = re.compile(LEET_WORD_RE.pattern, re.IGNORECASE)


def leet_readings(word: str) -> tuple[str, str]:
    """A leetspeak word read with "1" as "i", then as "l": "1gn0r3" → ("ignore", "lgnore")."""
    return word.translate(_LEET_I), word.translate(_LEET_L)


def _read(match: re.Match[str], index: int) -> str:
    # Only a word that reads as letters only is leetspeak: "RTX4090" and "@anna_88" keep theirs.
    word = match.group()
    reading = leet_readings(word)[index]
    return reading if reading.isalpha() and word[0] != "@" else word


def unleet(text: str) -> tuple[str, ...]:
    """Readings of a line with its leetspeak words in letters, or () when it has none. Letters
    keep their case, so names stay names ("5uggest Amazon" → "suggest Amazon")."""
    if not _LEET_ANY_CASE_RE.search(text):
        return ()
    readings = {
        _LEET_ANY_CASE_RE.sub(functools.partial(_read, index=index), text) for index in (0, 1)
    }
    readings.discard(text)
    return tuple(sorted(readings))


# Digits spelled out in words, in the six languages ("four one two", "acht vier zwei eins",
# "dois três um"): a closed class, read back as digits so every number check sees them.
_DIGIT_WORDS: Final = {
    **dict.fromkeys(("zero", "oh", "cero", "null", "nul"), "0"),
    **dict.fromkeys(("one", "uno", "un", "une", "eins", "ein", "um", "uma"), "1"),
    **dict.fromkeys(("two", "due", "deux", "dos", "zwei", "dois", "duas"), "2"),
    **dict.fromkeys(("three", "tre", "trois", "tres", "drei", "tres"), "3"),
    **dict.fromkeys(("four", "quattro", "quatre", "cuatro", "vier", "quatro"), "4"),
    **dict.fromkeys(("five", "cinque", "cinq", "cinco", "funf", "fuenf"), "5"),
    **dict.fromkeys(("six", "sei", "seis", "sechs"), "6"),
    **dict.fromkeys(("seven", "sette", "sept", "siete", "sieben", "sete"), "7"),
    **dict.fromkeys(("eight", "otto", "huit", "ocho", "acht", "oito"), "8"),
    **dict.fromkeys(("nine", "nove", "neuf", "nueve", "neun"), "9"),
}
_DIGIT_WORD_RE: Final = "(?:" + "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True)) + ")"
# Three digit words or more in a row, with spaces, commas or dashes between them.
_SPELLED_RUN_RE: Final = re.compile(
    rf"\b{_DIGIT_WORD_RE}(?:[\s,-]+{_DIGIT_WORD_RE}){{2,}}\b", re.IGNORECASE
)


def spelled_digits(folded: str) -> str:
    """A folded line with runs of three or more spelled-out digits written as digits ("four one
    two, seven seven" → "412, 77"); separators between words stay where a comma or dash was."""

    def digits(match: re.Match[str]) -> str:
        parts = re.split(r"(\s*[,-]\s*|\s+)", match.group())
        return "".join(
            _DIGIT_WORDS[part.lower()] if part.lower() in _DIGIT_WORDS else part.strip() and " "
            for part in parts
        )

    return _SPELLED_RUN_RE.sub(digits, folded)
