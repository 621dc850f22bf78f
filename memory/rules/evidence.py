"""What a line says, so code can check a model's evidence: its content words and, of those, the
ones that make it this fact.

Pure module. A line is written as a predicate and what it is about ("Lives in Denver", "Likes
figs", "Vive a Torino"): the predicate is shared by many facts; the names, numbers and nouns
after it are what a restatement, a merge or a forget must carry. Words are cut to a short stem,
so "lives"/"live" and "allergica"/"allergic" meet; numbers stay whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from memory.rules import phrases
from memory.rules.lines import fold

STEM: Final = 4
_WORD_RE: Final = re.compile(r"[^\W_]+")
# Function words of the six languages and the predicates lines share: they say nothing about
# which fact a line is.
FUNCTION_WORD_TEXT: Final = """
    the and for with from that this these those have has had was were are his her hers him she
    they them their who whom which what when where about into over also very much more most
    some any not but all does did doing been being will would should could can may might
    con per una uno gli che non del della delle dei degli nel nella sono suo sua suoi sue
    anche come piu molto dal dalla alla alle agli
    les des une est pas pour dans avec sur son ses leur qui que aux par plus tres aussi
    los las del por para con una que est esta este sus muy tambien como mas
    der die das und ist den dem des ein eine einen einem nicht mit von auf fur sich sein seine
    ihre ihr auch sehr mehr als wie
    com uma dos das nao por para que seu sua seus suas muito tambem como mais
"""
# The predicates lines share, which say which kind of fact, not which fact.
PREDICATE_TEXT: Final = "person user likes loves prefers lives works named called"
# ...and the words of asking to remember, which a restatement carries beside the fact.
_ASKING: Final = frozenset(fold(w) for w in phrases.words(phrases.REMEMBER, phrases.PLEASE))
_PLAIN_FUNCTION_WORDS: Final = frozenset(FUNCTION_WORD_TEXT.split()) | _ASKING
_FUNCTION_WORDS: Final = _PLAIN_FUNCTION_WORDS | frozenset(PREDICATE_TEXT.split())


def _stem(word: str) -> str:
    return word if word.isdigit() else word[:STEM]


def words(text: str) -> list[str]:
    """The content words of ``text`` in order, folded: no function words, no one-letter words."""
    return [
        word
        for word in _WORD_RE.findall(fold(text))
        if word not in _FUNCTION_WORDS and (len(word) >= 3 or word.isdigit())
    ]


def stems(text: str) -> frozenset[str]:
    return frozenset(_stem(word) for word in words(text))


def mentions(text: str, line: str) -> bool:
    """``text`` shares a word with ``line``, its predicate included ("I quit, forget where I
    work" mentions "Works at Acme")."""
    return bool(_topic(text) & _topic(line))


def _topic(text: str) -> set[str]:
    return {
        _stem(word)
        for word in _WORD_RE.findall(fold(text))
        if word not in _PLAIN_FUNCTION_WORDS and (len(word) >= 3 or word.isdigit())
    }


def distinctive(line: str) -> frozenset[str]:
    """What makes ``line`` this fact: its content stems after the predicate (its first content
    word), or all of them when the line is one word ("Vegan")."""
    found = words(line)
    rest = frozenset(_stem(word) for word in found[1:])
    return rest or frozenset(_stem(word) for word in found)


def restates(line: str, text: str) -> bool:
    """``text`` says the fact of ``line``: every distinctive stem is in it ("Likes figs" is not
    restated by "I like dates", "Lives in Denver" not by "I live in Boulder")."""
    return restated_by(line, stems(text))


def restated_by(line: str, said: frozenset[str]) -> bool:
    """``restates`` against a text's ``stems``, for checking many lines against one text."""
    needed = distinctive(line)
    return bool(needed) and needed <= said


def kept_in(line: str, texts: Iterable[str]) -> bool:
    """Every content stem of ``line`` is somewhere in ``texts``: a merge that dropped none of
    its names, numbers and content words (its subject too: "Rex is a beagle")."""
    needed = stems(line)
    have: set[str] = set()
    for text in texts:
        have |= stems(text)
    return needed <= have


def says_more(text: str, lines: Iterable[str]) -> bool:
    """``text`` carries a content stem none of ``lines`` has (a fact that would be lost)."""
    have: set[str] = set()
    for line in lines:
        have |= stems(line)
    return not stems(text) <= have
