"""The offline memory model: a deterministic, pattern-based fact extractor.

It honours the model contract (`memory.rules.prompts`, `memory.rules.edits`). Facts come only
from the person's own unread turns, as short third-person lines in their language. Precision
first: what no rule rewrites with confidence is not written. It never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from memory.offline import changes, roleplay, thirdperson
from memory.offline import patterns as p
from memory.offline.facts import Fact, classify_line, extract, line_ok, note_facts
from memory.offline.vocab import RELATIONS
from memory.rules import edits, evidence, phrases, prompts, spelling
from memory.rules.triggers import is_forget_request, is_remember_request

# Served as "offline/whizi-memory" (registered with the model seam by the memory app).
MODEL_NAME: Final = "whizi-memory"
DEFAULT_TARGET_TOKENS: Final = 1500

# Remember and forget requests are read on the whole sentence, before clause splitting, so a
# comma inside a note does not cut it.
_EITHER = phrases.either
# Politeness and lead-ins before the verb: "ok, please, could you remember …".
POLITE_LEAD: Final = r"^(?:" + _EITHER(phrases.LEAD_INS, phrases.PLEASE, phrases.ASK) + r"[\s,]+)*"
# ...and after it: "vergiss bitte, dass …".
_PLEASE_AFTER: Final = r"(?:[\s,]+" + _EITHER(phrases.PLEASE) + r")*,?"
_NOTE_RE: Final = re.compile(
    POLITE_LEAD
    + _EITHER(phrases.REMEMBER, phrases.NOTE, phrases.NOTE_VERB)
    + r"(?:\s+(?:that|che|que|de que|dass)\s+|\s+qu'|\s*,\s*(?:dass|que)\s+|\s*:\s*|"
    r"(?:\s+|\s*,\s*)(?!(?:to|di|de|when|quando|quand|cuando|wann|me|this|it|what|cosa|ce|lo|"
    r"la|das|es|isso|disso|disto|nisso|esto|eso|ok|okay|right|please|bitte|per favore|"
    r"por favor|s'il)\b))(?P<v>.+)$",
    re.IGNORECASE,
)
_FORGET_RE: Final = re.compile(
    POLITE_LEAD
    + _EITHER(phrases.FORGET)
    + r"\b"
    + _PLEASE_AFTER
    + r"(?:\s+(?:that|about|che|di|que|de que|de|dass|das mit)\b|\s+qu'|\s*,\s*dass\b)?"
    r"\s*(?P<v>.*)$",
    re.IGNORECASE,
)
# The whole list ("everything you know about me"); "clear your memory of my job" is no wipe.
_FORGET_ALL_RE: Final = re.compile(
    r"^(?:"
    + _EITHER(phrases.WHAT_YOU_KNOW, phrases.EVERYTHING)
    + r"\b|"
    + _EITHER(phrases.YOUR_MEMORY)
    + r"(?:[\s,]+"
    + _EITHER(phrases.PLEASE)
    + r")?\s*(?:$|[?.!,;]))",
    re.IGNORECASE,
)
# "Remember that." / "Ricordalo" after a fact said in the turn before: a request about it.
_BARE_REMEMBER_RE: Final = re.compile(
    r"^[\s\w,'-]{0,40}"
    + _EITHER(phrases.REMEMBER, phrases.REMEMBER_IT)
    + r"[\w'-]*(?:\s+"
    + _EITHER(phrases.IT, phrases.PLEASE)
    + r")*[\s.!]*$",
    re.IGNORECASE,
)


# The request after the fact: "My favourite drink is tea, remember that".
_REMEMBER_TAIL_RE: Final = re.compile(
    r"^(?P<v>.+?\w.*?)\s*[,;:—–-]\s*(?:"
    + _EITHER(phrases.PLEASE)
    + r"[\s,]+)?"
    + _EITHER(phrases.REMEMBER, phrases.REMEMBER_IT)
    + r"(?:\s+"
    + _EITHER(phrases.IT)
    + r")?(?:[\s,]+"
    + _EITHER(phrases.PLEASE)
    + r")?[\s.!]*$",
    re.IGNORECASE,
)


# A remember request with its object is one even before "when", which the trigger reads as
# reminiscing ("ricordatelo quando…").
_ASKED_RE: Final = re.compile(
    r"\b(?:"
    + _EITHER(phrases.REMEMBER_IT, phrases.NOTE)
    + "|"
    + _EITHER(phrases.NOTE_VERB)
    + r" that)\b",
    re.IGNORECASE,
)
# Erasing is forgetting when it names the memory or a fact of the person.
_ERASE_RE: Final = re.compile(
    POLITE_LEAD + _EITHER(phrases.ERASE) + r"\b" + _PLEASE_AFTER + r"\s*(?P<v>.+)$",
    re.IGNORECASE,
)
# ...or a fact of the person alone: "borra mi cumpleaños", not "remove my name from the email".
_MY_FACT_RE: Final = re.compile(
    r"^"
    + _EITHER(phrases.MY)
    + " "
    + _EITHER(phrases.FACT_NOUNS)
    + r"\b[\s,.!]*"
    + _EITHER(phrases.PLEASE)
    + r"?[\s.!]*$",
    re.IGNORECASE,
)
_IN_MEMORY_RE: Final = re.compile(
    r"\s*\b" + _EITHER(phrases.FROM_MEMORY, phrases.IN_MEMORY) + r"\b", re.IGNORECASE
)


# ...or "that thing about …" a short topic: "delete that bit about my diet".
_THAT_ABOUT_RE: Final = re.compile(
    r"^"
    + _EITHER(phrases.THAT_THING)
    + " "
    + _EITHER(phrases.ABOUT)
    + r" (?P<t>\S+(?: \S+){0,2})$",
    re.IGNORECASE,
)


def merge(lines: list[str], fact: Fact) -> list[str]:
    """Add a fact: skip a duplicate, replace the line holding the same key, else append."""
    norm = p.line_norm(fact.line)
    if any(p.line_norm(line) == norm for line in lines):
        return lines
    if fact.key:
        same = [i for i, line in enumerate(lines) if classify_line(line)[1] == fact.key]
        if same:
            out = [line for i, line in enumerate(lines) if i not in same[1:]]
            out[same[0]] = fact.line
            return out
    return [*lines, fact.line]


def forget(lines: list[str], target: str) -> list[str]:
    """Remove the lines a forget request names: by fact kind, same fact, or shared words."""
    facts = extract(target)
    keys = {fact.key for fact in facts if fact.key}
    exact = {p.line_norm(fact.line) for fact in facts}
    words = p.significant_words(target, RELATIONS)
    for word in words:
        keys.update(p.KIND_WORDS.get(word, ()))
    needed = max(1, (len(words) + 1) // 2)
    # A relative or pet named ("my girlfriend") goes with every line about it.
    relations = {word for word in words if word in RELATIONS.values()}
    kept = []
    for line in lines:
        key = classify_line(line)[1]
        line_words = p.significant_words(line, RELATIONS)
        shared = len(words & line_words)
        if (key and key in keys) or p.line_norm(line) in exact or (words and shared >= needed):
            continue
        if relations & line_words:
            continue
        kept.append(line)
    return kept


# Words of forget requests, never a topic (with and without accents).
_FORGET_WORDS: Final = frozenset(
    form
    for word in phrases.words(
        phrases.FORGET,
        phrases.FORGET_INF,
        phrases.ERASE,
        phrases.ERASE_INF,
        phrases.FROM_MEMORY,
        phrases.IN_MEMORY,
        phrases.PLEASE,
        phrases.ASK,
    )
    for form in (word, phrases.plain(word))
) | p.word_set("forgot want saved salvata guardar thanks merci grazie gracias danke obrigado")


def _stems(text: str) -> set[str]:
    return {
        word[:4]
        for word in p.significant_words(text, RELATIONS)
        if len(word) >= 4 and word not in _FORGET_WORDS
    }


def forget_by_stems(lines: list[str], sentence: str, *, turn: str) -> list[str]:
    """A forget request the patterns miss: drop lines of the kind it names, or sharing a stem."""
    words = p.significant_words(sentence, RELATIONS) - _FORGET_WORDS
    keys = {key for word in words for key in p.KIND_WORDS.get(word, ())}
    stems = _stems(sentence) or _stems(turn)
    if not stems and not keys:
        return lines
    kept = []
    for line in lines:
        key = classify_line(line)[1]
        if (key and key in keys) or stems & _stems(line):
            continue
        kept.append(line)
    return kept


def _forget_request(sentence: str) -> tuple[str, str] | None:
    """(what to forget, the rest of the sentence) when the sentence asks to forget."""
    if _NOTE_RE.match(p.strip_lead(sentence)):  # "vergiss nicht, …", "don't forget: …"
        return None
    match = _FORGET_RE.match(p.strip_lead(sentence)) or _FORGET_RE.match(sentence)
    erase = None if match else _ERASE_RE.match(p.strip_lead(sentence))
    wipe = erase and _FORGET_ALL_RE.match(erase["v"])
    if erase and (wipe or _IN_MEMORY_RE.search(erase["v"]) or _MY_FACT_RE.match(erase["v"])):
        match = erase
    elif erase:
        first = (p.split_clauses(erase["v"]) or [""])[0].strip().rstrip("?.!").strip()
        match = erase if _THAT_ABOUT_RE.match(first) else None
    if not match:
        return None
    # Only the first clause names what to forget: "forget it, my name is Anna" keeps the name.
    clauses = p.split_clauses(_IN_MEMORY_RE.sub("", match["v"])) or [""]
    target = clauses[0].strip().rstrip("?.!").strip()
    about = _THAT_ABOUT_RE.match(target)
    return (about["t"] if about else target), ", ".join(clauses[1:])


def generic_facts(note: str, *, strict: bool) -> list[Fact]:
    """A note no fact rule reads, as a short third-person line; nothing when unsure."""
    line = thirdperson.rewrite(note)
    return [Fact(line)] if line and line_ok(line, strict) else []


def _read(text: str) -> str:
    """The person's words as the rules read them: no hesitations, cue words spelt right."""
    return spelling.repaired(p.strip_fillers(text))


def remembered_clauses(text: str) -> list[str]:
    """What a remember request keeps: the note after "remember that …", else each sentence."""
    sentences = p.split_sentences(_read(text))
    notes = [
        note["v"]
        for s in sentences
        if (note := _NOTE_RE.match(p.strip_lead(s)) or _REMEMBER_TAIL_RE.match(s))
    ]
    return notes or sentences


def asks_to_remember(text: str) -> bool:
    """The turn explicitly asks to remember something (or to note it down)."""
    text = _read(text)
    if is_remember_request(text) or _ASKED_RE.search(text):
        return True
    return any(_NOTE_RE.match(p.strip_lead(s)) for s in p.split_sentences(text))


def apply_turn(lines: list[str], text: str, *, strict: bool, asked: bool = False) -> list[str]:
    """Apply one of the person's turns, sentence by sentence; `asked` lets health facts be kept."""
    text = _read(text)
    asked = asked or asks_to_remember(text)
    named = False  # the first name said in a turn wins: "I'm Priya, call me Pri" keeps Priya
    for sentence in p.split_sentences(text):
        request = _forget_request(sentence)
        if request:
            target, sentence = request
            if _FORGET_ALL_RE.match(target):
                lines = []
            else:
                before = lines
                lines = forget(lines, target)
                if lines == before:  # "oublie ça": what "that" is was said before in the turn
                    lines = forget_by_stems(lines, target, turn=text)
        elif is_forget_request(sentence):
            # Asked in words the rules miss: lines sharing a stem with the request go.
            lines = forget_by_stems(lines, sentence, turn=text)
            continue
        note = (
            _NOTE_RE.match(p.strip_lead(sentence))
            or _NOTE_RE.match(sentence)
            or _REMEMBER_TAIL_RE.match(sentence)
        )
        if note:
            facts = note_facts(note["v"], strict=strict) or generic_facts(note["v"], strict=strict)
        else:
            facts = extract(sentence, strict=strict, sensitive_ok=asked)
        fix = changes.corrected(note["v"] if note else sentence)
        if fix:
            fixed = extract(fix[0], strict=strict, sensitive_ok=asked)
            lines = changes.drop_corrected(lines, fix[1], fixed)
            facts += [fact for fact in fixed if fact not in facts]
        lines = changes.passed_away(lines, sentence)
        lines = changes.replaced(lines, sentence)
        moved = changes.new_home(sentence)
        if moved and not any(fact.key == "home" for fact in facts):
            facts.append(moved)
        lines = changes.job_changed(changes.no_longer(lines, sentence), sentence, facts)
        for fact in facts:
            if fact.key == "name" and named:
                continue
            named = named or fact.key == "name"
            lines = merge(lines, fact)
    return lines


def kept_from(text: str, previous: str | None = None) -> list[str]:
    """The lines one turn adds to an empty memory, read as a pass reads it (`run`): after
    "remember that", `previous` counts too, and so does the turn itself."""
    lines: list[str] = []
    if previous and _BARE_REMEMBER_RE.match(p.normalise(text)):
        lines = apply_turn(lines, previous, strict=False, asked=True)
    return apply_turn(lines, text, strict=False)


def dedupe(lines: list[str]) -> list[str]:
    """Drop repeated lines (case and spacing do not count), keeping the first."""
    seen: set[str] = set()
    out = []
    for line in lines:
        norm = p.line_norm(line)
        if norm and norm not in seen:
            seen.add(norm)
            out.append(line)
    return out


def condense(lines: list[str], target_tokens: int) -> list[str]:
    """Merge duplicates, then drop the least valuable lines, last first, until under target."""
    lines = dedupe(lines)
    # Two lines for one single-valued fact: the later one is the newer, keep it.
    keyed = [classify_line(line)[1] for line in lines]
    lines = [line for i, line in enumerate(lines) if not keyed[i] or keyed[i] not in keyed[i + 1 :]]
    while lines and p.estimate_tokens(lines) > target_tokens:
        tiers = [classify_line(line)[0] for line in lines]
        lowest = min(tiers)
        victim = max(i for i, tier in enumerate(tiers) if tier == lowest)
        lines = lines[:victim] + lines[victim + 1 :]
    return lines


# --- the model contract -----------------------------------------------------------------------
def _text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return "".join(part for part in parts if isinstance(part, str))
    return None


def _payload(messages: Any) -> dict[str, Any] | None:
    if not isinstance(messages, list):
        return None
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    text = _text(users[-1].get("content")) if users else None
    try:
        return prompts.read_data(text) if text else None
    except ValueError:
        return None


def _memory(payload: dict[str, Any]) -> list[str]:
    """The list as the request numbered it (``{"line", "text"}`` items), in order."""
    raw = payload.get("memory")
    if not isinstance(raw, list):
        return []
    return [
        item["text"] if isinstance(item, dict) else item
        for item in raw
        if isinstance(item, str) or (isinstance(item, dict) and isinstance(item.get("text"), str))
    ]


def _turns(payload: dict[str, Any], key: str) -> list[dict[str, Any]]:
    turns = payload.get(key)
    return [t for t in turns if isinstance(t, dict)] if isinstance(turns, list) else []


def _roleplaying(context: list[dict[str, Any]]) -> set[Any]:
    """Conversations whose already-read turns left a role-play going."""
    playing: set[Any] = set()
    for turn in context:
        text = _text(turn.get("content")) or ""
        if turn.get("role") != "user":
            continue
        if roleplay.starts_roleplay(text):
            playing.add(turn.get("conversation"))
        elif roleplay.ends_roleplay(text) or asks_to_remember(text):
            playing.discard(turn.get("conversation"))
    return playing


@dataclass
class _Trail:
    """Which turn made each change, so the answer cites its evidence: the turn a new line came
    from, the turn that made a line obsolete, the turn that asked to forget it (or all)."""

    born: dict[str, int] = field(default_factory=dict)
    gone: dict[str, int] = field(default_factory=dict)
    forgot: dict[str, int] = field(default_factory=dict)
    wiped: int | None = None

    def note(self, before: list[str], after: list[str], turn: Any, text: str) -> None:
        if not isinstance(turn, int) or isinstance(turn, bool):
            return
        for line in after:
            if line not in before:
                self.born[line] = turn
        removed = [line for line in before if line not in after]
        if not removed:
            return
        if before and not after and _wipes(text):
            self.wiped = turn
        asked = is_forget_request(text) or any(
            _forget_request(sentence) for sentence in p.split_sentences(_read(text))
        )
        new = [evidence.words(line)[:1] for line in after if line not in before]
        for line in removed:
            # A line whose predicate a new line of the turn takes over was corrected.
            superseded = evidence.words(line)[:1] in new
            if asked and not superseded:
                self.forgot[line] = turn
            else:
                self.gone[line] = turn


def _wipes(text: str) -> bool:
    return any(
        (request := _forget_request(sentence)) is not None and _FORGET_ALL_RE.match(request[0])
        for sentence in p.split_sentences(_read(text))
    )


def run(payload: dict[str, Any], trail: _Trail | None = None) -> list[str]:
    """Carry out one memory task on a parsed payload and return the whole new list."""
    memory = _memory(payload)
    task = payload.get("task")
    if task == "condense":
        target = payload.get("target_tokens")
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            target = DEFAULT_TARGET_TOKENS
        return condense(memory, target)
    if task not in ("rewrite", "voice"):
        return memory
    lines = dedupe(memory)
    strict = task == "voice"
    # "context" is never a source of facts (a deleted fact must not come back from it); it only
    # tells whether a role-play is going on.
    playing = _roleplaying(_turns(payload, "context"))
    previous: str | None = None
    # forget_requested is not needed: the forget sentence itself says what to forget.
    for turn in _turns(payload, "transcript"):
        text = _text(turn.get("content"))
        if turn.get("role") != "user" or not text:
            continue
        conversation = turn.get("conversation")
        if roleplay.starts_roleplay(text):
            playing.add(conversation)
        elif conversation in playing and (roleplay.ends_roleplay(text) or asks_to_remember(text)):
            # A remember request is about the person, not the character: it ends the role-play.
            playing.discard(conversation)
        if conversation in playing:
            # In a role-play only what is said to be real life is about the person.
            real = roleplay.real_life(text)
            if real:
                lines = apply_turn(lines, real, strict=strict)
            previous = None
            continue
        before = lines
        if previous and _BARE_REMEMBER_RE.match(p.normalise(text)):
            # "I'm allergic to peanuts." then "Please remember that."
            lines = apply_turn(lines, previous, strict=strict, asked=True)
        lines = apply_turn(lines, text, strict=strict)
        if trail is not None:
            trail.note(before, lines, turn.get("turn"), text)
        previous = text
    return lines


def answer(messages: list[dict[str, Any]]) -> str:
    """Answer a memory model call with `{"edits": [...]}`; odd input gets none, never a crash."""
    payload = _payload(messages)
    if payload is None:
        return edits.dump([])
    memory = _memory(payload)
    trail = _Trail()
    try:
        after = run(payload, trail)
    except Exception:  # noqa: BLE001 — the contract: odd input leaves the memory, never a crash
        return edits.dump([])
    return _answer(memory, after, trail)


def _answer(memory: list[str], after: list[str], trail: _Trail) -> str:
    """The edits from ``memory`` to ``after``, each quoting its line and citing its turn; the
    forgotten lines removed and cited by the turn that asked."""
    if trail.wiped is not None and not after:
        removals = [edits.Edit("remove", line=i, was=line) for i, line in enumerate(memory, 1)]
        return edits.dump(removals, [edits.Forget(turn=trail.wiped, lines=None)])
    forgotten = {
        i: line for i, line in enumerate(memory, 1) if line in trail.forgot and line not in after
    }
    rest = [(i, line) for i, line in enumerate(memory, 1) if i not in forgotten]
    found: list[edits.Edit] = []
    for edit in edits.edits_between([line for _, line in rest], after):
        if edit.op == "add":
            found.append(edits.Edit("add", text=edit.text, turn=trail.born.get(edit.text or "")))
            continue
        number = rest[(edit.line or 1) - 1][0]
        turn = (
            trail.born.get(edit.text or "")
            if edit.op == "replace"
            else trail.gone.get(edit.was or "")
        )
        found.append(edits.Edit(edit.op, line=number, was=edit.was, text=edit.text, turn=turn))
    by_turn: dict[int, list[int]] = {}
    for number, line in forgotten.items():
        found.append(edits.Edit("remove", line=number, was=line))
        by_turn.setdefault(trail.forgot[line], []).append(number)
    forgets = [edits.Forget(turn=turn, lines=tuple(numbers)) for turn, numbers in by_turn.items()]
    return edits.dump(found, forgets)
