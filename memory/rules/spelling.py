"""Typos in the key words of a memory request or everyday fact, read as what was meant.

`repaired` respells a word as the cue one slip away ("remeber" → "remember") only when no real
word can be meant: lowercase, four letters or more, one cue one edit away, unknown to the
dictionaries (precomputed in `spelling_words.txt` by `make spelling`). Pure module.
"""

from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from memory.rules import phrases

# The key words of everyday facts by language (a verb or noun, never a value).
_FACT_CUES: Final[dict[str, str]] = {
    "en": (
        "name called live living lives moved work working works married wife husband daughter "
        "daughters children girlfriend boyfriend partner allergic vegan vegetarian birthday born "
        "speak fluent favourite favorite actually meant training learning playing teacher "
        "engineer nurse doctor developer student brother sister mother father parents"
    ),
    "it": (
        "chiamo chiama nome abito vivo lavoro lavora sposato sposata moglie marito figlia figlio "
        "figli fidanzata fidanzato allergico allergica vegano vegana vegetariano vegetariana "
        "compleanno nato nata parlo preferito preferita veramente intendevo fratello sorella "
        "madre padre insegnante infermiere infermiera"
    ),
    "fr": (
        "appelle prénom habite travaille mariée marié femme mari fille fils enfants copine copain "
        "allergique végétarien végétarienne végétalien végétalienne végane anniversaire parle "
        "préféré préférée frère sœur infirmière infirmier professeur enseignant enseignante"
    ),
    "es": (
        "llamo nombre vivo trabajo casado casada esposa marido hija hijo hijos novia novio "
        "alérgico alérgica vegano vegana vegetariano vegetariana cumpleaños nací hablo favorito "
        "favorita hermano hermana madre padre profesor profesora enfermera enfermero"
    ),
    "de": (
        "heiße heisse name wohne lebe arbeite verheiratet frau mann tochter sohn kinder freundin "
        "allergisch vegetarier vegetarierin veganer veganerin geburtstag geboren spreche "
        "lieblingsfarbe bruder schwester mutter vater lehrer lehrerin krankenpfleger"
    ),
    "pt": (
        "chamo nome moro trabalho casado casada esposa marido filha filho filhos namorada "
        "namorado alérgico alérgica vegano vegana vegetariano vegetariana aniversário nasci falo "
        "favorito favorita irmão irmã mãe pai professor professora enfermeira enfermeiro"
    ),
}
# ...and the words of asking to remember or to forget, from the one phrase table.
_REQUEST_KINDS: Final = (
    phrases.REMEMBER,
    phrases.REMEMBER_IT,
    phrases.REMEMBER_INF,
    phrases.FORGET,
    phrases.FORGET_INF,
    phrases.ERASE,
    phrases.SAVE,
)
_MIN_LETTERS: Final = 4
# Letters only: "n'oublie" is two words, and "oublie" is no slip of anything.
_WORD_RE: Final = re.compile(r"[^\W\d_]+")
WORDS_FILE: Final = Path(__file__).with_name("spelling_words.txt")
_ENDS: Final = frozenset(".!?…\n")
MAX_CHARS: Final = 4_000
# Italian texting: "k" for "ch" before e/i ("kiamo"), for "c" elsewhere ("kome").
_TEXTING_K_RE: Final = re.compile(r"k(?=[ei])")


# Only the remember and forget verbs are targets, never function words ("that", "mind").
_REQUEST_VERB_RE: Final = re.compile(r"^(?:" + "|".join(phrases.REQUEST_VERB_STEMS) + ")")


@cache
def _cues(lang: str) -> frozenset[str]:
    requested = phrases.words(*({lang: kind.get(lang, ())} for kind in _REQUEST_KINDS))
    verbs = {w for w in requested if _REQUEST_VERB_RE.match(w)}
    words = {w for w in (*_FACT_CUES[lang].split(), *verbs) if len(w) >= _MIN_LETTERS}
    return frozenset(words)


@cache
def _all_cues() -> frozenset[str]:
    return frozenset(word for lang in phrases.LANGUAGES for word in _cues(lang))


@cache
def _sorted_cues() -> tuple[str, ...]:
    return tuple(sorted(_all_cues()))


@cache
def _real_words() -> frozenset[str]:
    """The words of the six languages one edit from a cue (``spelling_words.txt``)."""
    text = WORDS_FILE.read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


# A word people write once in a million (wordfreq Zipf 3) is a word: it knows inflections
# pyspellchecker lacks ("olvidé"), while a common slip like "remeber" (2.5) stays below.
_COMMON_ZIPF: Final = 3.0


def _edits1(word: str, letters: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in letters}
    inserts = {a + c + b for a, b in splits for c in letters}
    return deletes | swaps | replaces | inserts


def near_cue_words() -> list[str]:
    """Work out `spelling_words.txt`: words one edit from a cue that the dictionaries know.

    A development tool (`make spelling`): it loads about 300 MB for half a minute."""
    # Development dependencies only (``make spelling``), never imported at run time.
    from spellchecker import SpellChecker
    from wordfreq import iter_wordlist, zipf_frequency

    cues = _all_cues()
    near: set[str] = set()
    for lang in phrases.LANGUAGES:
        dictionary = SpellChecker(language=lang, distance=1)
        common = set()
        for word in iter_wordlist(lang):
            if zipf_frequency(word, lang) < _COMMON_ZIPF:
                break
            common.add(word)
        letters = "".join(sorted({ch for word in common for ch in word if ch.isalpha()}))
        for cue in cues:
            near.update(w for w in _edits1(cue, letters) if w in dictionary or w in common)
    return sorted(near - cues)


def cues_digest() -> str:
    """What the shipped list was worked out for: a change of the cues needs ``make spelling``."""
    return hashlib.sha256("\n".join(_sorted_cues()).encode()).hexdigest()[:16]


def words_file_text() -> str:
    return (
        "# Real words one edit from a cue of memory.rules.spelling: never read as typos.\n"
        f"# Generated by `make spelling` for cues {cues_digest()}; do not edit.\n"
        + "\n".join(near_cue_words())
        + "\n"
    )


def shipped_cues_digest() -> str | None:
    """The cues digest ``spelling_words.txt`` was generated for."""
    found = re.search(r"for cues ([0-9a-f]+)", WORDS_FILE.read_text(encoding="utf-8")[:300])
    return found.group(1) if found else None


def _only_a_slip(typed: str, cue: str) -> bool:
    """Whether one edit is a slip: never only an accent, nor the last letter unless swapped."""
    if _fold(typed) == _fold(cue):
        return False
    if len(typed) == len(cue):
        diff = [i for i, (a, b) in enumerate(zip(typed, cue, strict=True)) if a != b]
        if len(diff) == 2 and typed[diff[0]] == cue[diff[1]] and typed[diff[1]] == cue[diff[0]]:
            return True  # a swap, anywhere
        return bool(diff) and diff[-1] < len(cue) - 1
    # An insertion or deletion: the words must end alike ("recuerdas" is no slip of "recuerda").
    return typed[-1] == cue[-1]


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=65_536)
def _meant(lower: str) -> str | None:
    """The cue word the lowercase ``lower`` is a slip of, or None."""
    cues = _all_cues()
    if len(lower) < _MIN_LETTERS or lower in cues or lower in _real_words():
        return None
    texting = _TEXTING_K_RE.sub("ch", lower).replace("k", "c")
    if texting != lower and texting in cues:
        return texting
    near = process.extract(
        lower, _sorted_cues(), scorer=DamerauLevenshtein.distance, score_cutoff=1, limit=None
    )
    found = {cue for cue, _distance, _index in near}
    if len(found) != 1:
        return None
    cue = found.pop()
    return cue if _only_a_slip(lower, cue) else None


def _cased(cue: str, like: str) -> str:
    return cue[:1].upper() + cue[1:] if like[:1].isupper() else cue


def _starts_sentence(text: str, at: int) -> bool:
    """The word at ``at`` opens the text or a sentence (a few characters are looked at)."""
    before = text[max(0, at - 4) : at].rstrip(" \t\"'«(")
    return before[-1] in _ENDS if before else at <= 4


def repaired(text: str) -> str:
    """`text` with misspelt cue words spelt right; bounded to its first and last `MAX_CHARS`
    characters, where a request said in passing stands."""
    if len(text) <= 2 * MAX_CHARS:
        return _repaired(text, 0, len(text))
    head_end = _word_start(text, MAX_CHARS)
    tail_start = max(head_end, _word_start(text, len(text) - MAX_CHARS))
    return (
        _repaired(text, 0, head_end)
        + text[head_end:tail_start]
        + _repaired(text, tail_start, len(text))
    )


def _word_start(text: str, at: int) -> int:
    """`at`, moved back to the start of its word: a word is never cut in two."""
    if text[at - 1 : at].isspace():
        return at
    cut = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at))
    return cut + 1 if cut >= 0 else at


def _repaired(text: str, start: int, end: int) -> str:
    """`text[start:end]` repaired (a sentence start is judged on the whole text)."""

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        if word[:1].isupper() and not _starts_sentence(text, start + match.start()):
            return word
        meant = _meant(word.lower())
        return _cased(meant, word) if meant else word

    return _WORD_RE.sub(fix, text[start:end])


if __name__ == "__main__":  # `make spelling`
    sys.stdout.write(words_file_text())
