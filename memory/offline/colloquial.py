"""Colloquial forms rewritten to those `memory.offline.lang_*` reads ("im a nurse" → "i'm a
nurse"). A rewrite is an extra variant beside the clause, so it only adds a reading. Pure module.
"""

from __future__ import annotations

import re
from typing import Final

# German first-person verbs people say without their final "e" ("ich wohn", "hab ich").
_DE_STEMS: Final = r"wohn|leb|arbeit|hab|ess|spiel|sprech|mach|geh|komm|lern|heiß|unterricht|treib"
_DE_BARE_RE: Final = re.compile(rf"\b(?P<i>ich )(?P<v>{_DE_STEMS})\b(?!-)", re.IGNORECASE)
_DE_BARE_FINAL_RE: Final = re.compile(
    rf"^(?P<s>(?:dass |daß )?ich\b.* )(?P<v>{_DE_STEMS})(?P<end>[.!]?)$", re.IGNORECASE
)
_DE_BARE_INVERTED_RE: Final = re.compile(rf"\b(?P<v>{_DE_STEMS}) (?P<i>ich)\b", re.IGNORECASE)
# A clause opened by the verb, without "ich": "bin Elektriker von Beruf", "wohne in Köln".
_DE_NO_SUBJECT_RE: Final = re.compile(
    r"^(?P<v>bin|wohne?|lebe?|arbeite?|habe?|spiele?|spreche?|komme?|heiße?|unterrichte?)"
    r"\b(?=\s+\S)",
    re.IGNORECASE,
)
# PT, ES and IT drop the subject anyway; what the rules miss is a subject pronoun before a
# negation or a verb they anchor at the start.
_ES_YO_RE: Final = re.compile(r"^(?:pues |bueno |mira )*yo (?=\S)", re.IGNORECASE)
_PT_EU_RE: Final = re.compile(r"^(?:então |bom |olha )*eu (?=\S)", re.IGNORECASE)
_IT_IO_RE: Final = re.compile(r"^(?:allora |beh |guarda )*io (?=\S)", re.IGNORECASE)
# Spoken French drops the "ne" of a negation: "je mange pas de porc", "j'aime pas".
_FR_NE_RE: Final = re.compile(
    r"\b(?P<s>je |j')(?P<v>(?!ne\b|n')[a-zéèêàâîôûç]+) (?P<n>pas|plus|jamais)\b", re.IGNORECASE
)
_FR_WORDS: Final = ((re.compile(r"\banniv\b", re.IGNORECASE), "anniversaire"),)
_ES_WORDS: Final = ((re.compile(r"\bcumple\b", re.IGNORECASE), "cumpleaños"),)
_PT_WORDS: Final = ((re.compile(r"\bniver\b", re.IGNORECASE), "aniversário"),)
# English without apostrophes ("im a nurse"); German "im Verein" is not: only words after an
# English "I'm"/"I've" count.
_EN_RE: Final = re.compile(
    r"\b(?P<i>i)(?P<c>m|ve) (?=(?:a|an|from|in|living|working|married|allergic|vegan|"
    r"vegetarian|learning|originally|based|currently|now|also|been|lived|got|worked|always|"
    r"\d+)\b)",
    re.IGNORECASE,
)
_EN_SUBSTITUTES: Final = ((re.compile(r"\b(?:yrs|yr)\b", re.IGNORECASE), "years"),)


def _de(clause: str) -> str:
    text = _DE_BARE_RE.sub(lambda m: f"{m['i']}{m['v']}e", clause)
    text = _DE_BARE_FINAL_RE.sub(lambda m: f"{m['s']}{m['v']}e{m['end']}", text)
    text = _DE_BARE_INVERTED_RE.sub(lambda m: f"{m['v']}e {m['i']}", text)
    match = _DE_NO_SUBJECT_RE.match(text)
    if match:
        verb = match["v"]
        verb = verb if verb.lower() == "bin" or verb.lower().endswith("e") else verb + "e"
        text = f"ich {verb}{text[match.end() :]}"
    return text


def _fr(clause: str) -> str:
    def neg(m: re.Match[str]) -> str:
        verb = m["v"]
        if m["s"].lower() == "j'":
            return f"je n'{verb} {m['n']}"
        elided = verb[:1].lower() in "aeéèêiouyh"
        return f"je n'{verb} {m['n']}" if elided else f"je ne {verb} {m['n']}"

    text = _FR_NE_RE.sub(neg, clause)
    for pattern, word in _FR_WORDS:
        text = pattern.sub(word, text)
    return text


def _es(clause: str) -> str:
    text = _ES_YO_RE.sub("", clause)
    for pattern, word in _ES_WORDS:
        text = pattern.sub(word, text)
    return text


def _pt(clause: str) -> str:
    text = _PT_EU_RE.sub("", clause)
    for pattern, word in _PT_WORDS:
        text = pattern.sub(word, text)
    return text


def _en(clause: str) -> str:
    text = _EN_RE.sub(lambda m: f"{m['i']}'{m['c']} ", clause)
    for pattern, word in _EN_SUBSTITUTES:
        text = pattern.sub(word, text)
    return text


def standard(clause: str) -> str | None:
    """The clause in the standard forms the rules read, or None when nothing is colloquial."""
    text = clause
    for rewrite in (_de, _fr, _es, _pt, _en):
        text = rewrite(text)
    text = _IT_IO_RE.sub("", text)
    return text if text != clause else None
