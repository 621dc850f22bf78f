"""Does a chat message ask the assistant to remember, or to forget, something?

Pure module. SPEC §4: a remember request fires a pass right after the reply. A false positive
costs one early pass, a false negative a fact unsaved until the six-turn boundary, so the
patterns lean towards firing. Questions and "I remember…" are no requests. Reads `fold`ed
text; the words are `memory.rules.phrases`'.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from memory.rules import phrases, spelling
from memory.rules.lines import fold

_WINDOW: Final = 80  # characters before a match that can change its meaning

# A message is judged sentence by sentence: "Do you remember Rome? Also, remember I'm vegan."
_SENTENCE_SPLIT_RE: Final = re.compile(r"(?<=[.!?;\n])\s+|\n+")


def _either(*kinds: phrases.Kind, langs: Iterable[str] = phrases.LANGUAGES) -> str:
    return phrases.either(*kinds, langs=langs, folded=True)


def _per_language(verbs: phrases.Kind, place: phrases.Kind, gap: str) -> str:
    """A verb and, a few words later, the place in the same language ("save … in your memory")."""
    return "|".join(
        _either(verbs, langs=[lang]) + gap + _either(place, langs=[lang])
        for lang in phrases.LANGUAGES
        if verbs.get(lang) and place.get(lang)
    )


# "Remember I'm vegan, ok?" is a request with a tag question, not a question.
_TAG_QUESTION_RE: Final = re.compile(r"[\s,]+" + _either(phrases.TAG_QUESTIONS) + r"\s*\?+$")

# "Note" only asks when what to note follows: "note that …", "note down", "notez que".
_NOTE_OBJECT: Final = r" (?:that|this|down|it|que)"
_REMEMBER_RE: Final = re.compile(
    r"\b(?:"
    + _either(phrases.REMEMBER, phrases.REMEMBER_IT, phrases.NOTE)
    + "|"
    + _either(phrases.NOTE_VERB)
    + _NOTE_OBJECT
    + "|"
    + _per_language(phrases.SAVE, phrases.IN_MEMORY, r"\b(?:\s+\S+){0,5}?\s+")
    + r")\b"
)

# Right before the match, these make it someone's own remembering or a question about it ("I
# remember", "mi ricorda").
_NOT_A_REQUEST_BEFORE_RE: Final = re.compile(
    r"\b(?:i|i'll|i'd|i've|we|we'll|they|he|she|it|you|who|one|people|to|if|as|can'?t|cannot"
    # "I won't let anyone forget it", "nobody will forget": somebody else's forgetting.
    r"|anyone|anybody|someone|somebody|everyone|everybody|nobody|no one"
    r"|nessuno|personne|nadie|niemand|ninguem"
    r"|couldn'?t|don'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|does|did|not"
    r"|mi|ti|ci|vi|si|gli|lo|io|tu|lui|lei|che|non|je|j'|il|elle|on|nous|vous|me|te|se|le|les"
    r"|nos|yo|el|ella|usted|ich|du|er|sie|wir|ihr|eu|ele|ela|voce|nao|lhe)"
    r"(?:\s+(?:always|still|really|just|also|never|do|did|can|could|will|would|might|may"
    r"|sempre|ancora|toujours|encore|siempre|todavia|immer|noch|ainda)){0,2}\s*$"
)
# ...unless the person is asking: "I want you to remember", "please remember", "you must remember".
_REQUEST_BEFORE_RE: Final = re.compile(
    r"\b" + _either(phrases.WANT_YOU_TO, phrases.PLEASE) + r"\s*,?\s*$"
)
# Reminiscing, not a request: "Remember when we went to Rome", "ricordi quando".
_REMINISCING_AFTER_RE: Final = re.compile(
    r"^\s*(?:when|the time|that time|how we|what|where|who|whether|if|quando|quand|cuando|wann"
    r"|als|wie|was)\b"
)
# Italian and Spanish verbs with their object attached: "ricordatelo", "recuérdalo".
_ATTACHED_OBJECT_RE: Final = re.compile(r"(?:lo|la|li|le|los|las)$")


def _asking(*verbs: phrases.Kind, after: str = "") -> str:
    """A polite question, then the verb: "could you (please) remember", "kannst du … merken"."""
    return "|".join(
        r"\b"
        + _either(phrases.ASK, langs=[lang])
        + (
            r"\b(?:(?:\s+\S+){0,4}?\s+|.{0,30}\b)"
            if lang in phrases.VERB_LAST
            else " (?:" + _either(phrases.PLEASE) + " )?(?:also )?"
        )
        + _either(*verbs, langs=[lang])
        + after
        for lang in phrases.LANGUAGES
        if any(kind.get(lang) for kind in verbs)
    )


# Questions that are still requests: "Could you remember that I'm vegan?"
_POLITE_REMEMBER_RE: Final = re.compile(
    _asking(
        phrases.REMEMBER,
        phrases.REMEMBER_IT,
        phrases.NOTE,
        phrases.NOTE_VERB,
        phrases.REMEMBER_INF,
        after=r"\b(?! (?:what|when|where|who))",
    )
)

_FORGET_RE: Final = re.compile(
    r"\b(?:"
    + _either(phrases.FORGET)
    + "|"
    # An erase verb without "memory" is not enough: "remove my name from the draft".
    + _per_language(phrases.ERASE, phrases.FROM_MEMORY, r"\b(?:\s+\S+){0,6}?\s+")
    # The memory, or all of it, as what is erased ("wipe everything you know about me").
    + "|"
    + _per_language(phrases.ERASE, phrases.YOUR_MEMORY, r",?\s+(?:\S+\s+){0,2}?")
    + "|"
    + _per_language(phrases.ERASE, phrases.WHAT_YOU_KNOW, r",?\s+(?:\S+\s+){0,2}?")
    # A thing said, by its subject ending the clause ("scratch the band thing"); "…the logging
    # thing from my script" edits a text.
    + "|(?:"
    + _per_language(phrases.ERASE_THING, phrases.THING_OF, r",?\s+")
    + r")(?:\s+(?:"
    + _either(phrases.MY)
    + r"\s+)?[\w'-]+)??(?=\s*(?:$|[,.;:!?]|\s(?:please|pls|lol|we|i|because|since|bitte|"
    r"por favor|per favore|stp|svp)\b))"
    # "tu peux oublier ça".
    + "|"
    + "|".join(
        _either(phrases.ASK, langs=[lang]) + " " + _either(phrases.FORGET_INF, langs=[lang])
        for lang in phrases.LANGUAGES
        if phrases.FORGET_INF.get(lang)
    )
    + r")\b"
)
# "don't forget", "n'oublie pas", "vergiss nicht"... are remember requests, never forget requests.
_NEGATED_FORGET_AFTER_RE: Final = re.compile(
    r"^(?:\s+\S+){0,3}?\s+(?:pas|jamais|nicht|nie)\b|^\s*(?:pas|jamais)\b"
)
# "Forget it, let's move on" dismisses a topic; it does not ask to drop a memory.
_DISMISSIVE_RE: Final = re.compile(
    "^(?:"
    + _either(phrases.LEAD_INS, phrases.DISMISSIVE_LEAD)
    + " )?"
    + _either(phrases.DISMISSIVE)
    + r"\s*(?:[,.!;:-]|$)"
)
_POLITE_FORGET_RE: Final = re.compile(
    _asking(phrases.FORGET, phrases.FORGET_INF, phrases.ERASE_INF, after=r"\b")
)


def _sentences(text: str, *, typos: bool = True) -> list[tuple[str, bool]]:
    """Split folded text into (sentence, is_question) pairs; `typos` repairs cue words first."""
    result = []
    for sentence in _SENTENCE_SPLIT_RE.split(fold(spelling.repaired(text) if typos else text)):
        sentence = sentence.strip()
        if not sentence:
            continue
        tagged = _TAG_QUESTION_RE.search(sentence)
        if tagged:
            sentence = sentence[: tagged.start()]
        is_question = not tagged and (sentence.endswith("?") or "\u00bf" in sentence)
        result.append((sentence, is_question))
    return result


def _words_before(sentence: str, index: int) -> str:
    # The patterns only look at the last few words; a bounded window keeps a long message with
    # many matches linear instead of rescanning the whole prefix for each one.
    return sentence[max(0, index - _WINDOW) : index]


def _asked_of_assistant(before: str) -> bool:
    return bool(_REQUEST_BEFORE_RE.search(before)) or not _NOT_A_REQUEST_BEFORE_RE.search(before)


def is_remember_request(text: str, *, typos: bool = True) -> bool:
    """Return True when the message asks the assistant to remember something."""
    for sentence, is_question in _sentences(text, typos=typos):
        if is_question:
            if _POLITE_REMEMBER_RE.search(sentence):
                return True
            continue
        for match in _REMEMBER_RE.finditer(sentence):
            # "Remember when we…" reminisces; in "ricordatelo quando…" the object is attached,
            # so "when" says when to use it: a request.
            has_object = _ATTACHED_OBJECT_RE.search(match.group(0))
            if not has_object and _REMINISCING_AFTER_RE.search(sentence[match.end() :]):
                continue
            if _asked_of_assistant(_words_before(sentence, match.start())):
                return True
    return False


def is_forget_request(text: str, *, typos: bool = True) -> bool:
    """Return True when the message asks the assistant to forget something it remembers."""
    for sentence, is_question in _sentences(text, typos=typos):
        if is_question:
            if _POLITE_FORGET_RE.search(sentence):
                return True
            continue
        if _DISMISSIVE_RE.search(sentence):
            continue
        for match in _FORGET_RE.finditer(sentence):
            before = _words_before(sentence, match.start())
            # "non dimenticare", "no olvides", "não esqueça", "n'oublie": negated, so "remember".
            if re.search(r"(?:\b(?:don'?t|do not|never|non|no|nao)|\bn')\s*(?:\w+\s+)?$", before):
                continue
            if _NEGATED_FORGET_AFTER_RE.search(sentence[match.end() :]):
                continue
            if _asked_of_assistant(before):
                return True
    return False


# Forgetting all of it ("forget everything", "clear your memory"): the object is the whole list
# and ends the clause.
_WIPE_RE: Final = re.compile(
    r"\b"
    + _either(phrases.FORGET, phrases.ERASE)
    + r"\b(?:\s+\S+){0,2}?\s+"
    + _either(phrases.WHAT_YOU_KNOW, phrases.EVERYTHING, phrases.YOUR_MEMORY)
    + r"\s*(?:$|[.!?,;])"
)


def is_wipe_request(text: str) -> bool:
    """A forget request whose object is everything memory holds."""
    return is_forget_request(text) and any(
        _WIPE_RE.search(sentence) for sentence, _ in _sentences(text)
    )
