"""Typos in the words a memory request or an everyday fact turns on, read as what was meant.

"my nmae is sara", "remeber that I'm vegan", "mi kiamo Luca", "je travaile à Lyon": people type
fast, and a fact or a request whose key word is misspelt would otherwise be missed by every
reader of the phrase table (the trigger, the offline memory model, the offline chat model's
acknowledgement). ``repaired`` returns the text with such words spelt as the cue word they are
one slip away from; everything else is left exactly as typed.

A word is repaired only when all of these hold, so a real word is never "corrected" into a cue:
- it is lowercase (or the first word of a sentence): a capitalised word inside a sentence is a
  name or a place ("Mario" is not "marito");
- it is not itself a cue word and has at least four letters;
- exactly one cue word is within one edit of it (a swap of two neighbouring letters is one
  edit: "nmae" → "name"); Italian texting's "k" for "ch" and "c" ("kiamo") counts as no edit;
- no dictionary of the six languages knows it as a word ("word" is not "work", "lines" is not
  "lives", Portuguese "tenho" is not Spanish "tenlo").

The edit search is rapidfuzz's (Damerau–Levenshtein over the few hundred cue words, in C: tens
of microseconds a word, and each distinct word is looked up once per process). Which real words
lie one edit from a cue is worked out once from pyspellchecker's word-frequency dictionaries of
the six languages and shipped in ``spelling_words.txt`` (``make spelling`` regenerates it after
the cues change; a test checks it is current), so no dictionary is loaded at run time. The cue
lists are ours. Pure module: no Django.
"""

from __future__ import annotations

import re
import sys
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from memory import phrases

# The words everyday facts turn on, by language (a fact's verb or noun, not its value): what
# the offline model's rules and the trigger look for first.
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
        "allergique végétarien végétarienne végane anniversaire parle préféré préférée frère sœur "
        "infirmière infirmier professeur enseignant enseignante"
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
# Italian texting: "k" for "ch" before e/i, for "c" before a/o/u ("kiamo", "kasa", "kome").
_TEXTING_K_RE: Final = re.compile(r"k(?=[ei])")


@cache
def _cues(lang: str) -> frozenset[str]:
    requested = phrases.words(*({lang: kind.get(lang, ())} for kind in _REQUEST_KINDS))
    words = {w for w in (*_FACT_CUES[lang].split(), *requested) if len(w) >= _MIN_LETTERS}
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


def near_cue_words() -> list[str]:
    """Work out ``spelling_words.txt`` from pyspellchecker's dictionaries (a development tool:
    it loads all six, about 200 MB, for a few seconds)."""
    from spellchecker import SpellChecker  # development only (a dev dependency), see above

    cues = _all_cues()
    near: set[str] = set()
    for lang in phrases.LANGUAGES:
        dictionary = SpellChecker(language=lang, distance=1)
        for cue in cues:
            near.update(word for word in dictionary.edit_distance_1(cue) if word in dictionary)
    return sorted(near - cues)


def words_file_text() -> str:
    header = "# Real words one edit from a cue of memory.spelling: never read as typos.\n"
    return (
        header
        + "# Generated by `make spelling`; do not edit.\n"
        + "\n".join(near_cue_words())
        + "\n"
    )


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
    return found.pop() if len(found) == 1 else None


def _cased(cue: str, like: str) -> str:
    return cue[:1].upper() + cue[1:] if like[:1].isupper() else cue


def _starts_sentence(text: str, at: int) -> bool:
    """The word at ``at`` opens the text or a sentence (a few characters are looked at)."""
    before = text[max(0, at - 4) : at].rstrip(" \t\"'«(")
    return before[-1] in _ENDS if before else at <= 4


def repaired(text: str) -> str:
    """``text`` with misspelt cue words spelt right ("my nmae is sara" → "my name is sara").

    Linear in the text and bounded: only the first ``MAX_CHARS`` characters are read (a request
    or a fact said in passing is there; a pasted document is not where typos of cues matter)."""
    head, tail = text[:MAX_CHARS], text[MAX_CHARS:]
    if tail and not head[-1:].isspace():  # never cut a word in two
        cut = max(head.rfind(" "), head.rfind("\n"))
        head, tail = (head[:cut], head[cut:] + tail) if cut > 0 else (head, tail)

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        if word[:1].isupper() and not _starts_sentence(head, match.start()):
            return word
        meant = _meant(word.lower())
        return _cased(meant, word) if meant else word

    return _WORD_RE.sub(fix, head) + tail


if __name__ == "__main__":  # `make spelling`
    sys.stdout.write(words_file_text())
