"""Typos in the words a fact or a request turns on (``memory.rules.spelling``)."""

from __future__ import annotations

import pytest

from memory.rules import spelling


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("my nmae is sara", "my name is sara"),
        ("I wokr as a nurse", "I work as a nurse"),
        ("remeber that I'm vegan", "remember that I'm vegan"),
        ("Remeber that I'm vegan", "Remember that I'm vegan"),
        ("my birtday is 3 May", "my birthday is 3 May"),
        ("mi kiamo luca", "mi chiamo luca"),
        ("je travaile à Lyon", "je travaille à Lyon"),
        ("ich wohen in Berlin", "ich wohne in Berlin"),
        ("meu nmoe é Ana", "meu nome é Ana"),
        ("pls forgt my address", "pls forget my address"),
    ],
)
def test_a_slip_in_a_cue_word_is_read_as_the_cue(typed: str, meant: str) -> None:
    assert spelling.repaired(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "I love word games",  # "word" is a word, not "work"
        "The lines were long",  # "lines", not "lives"
        "Lembra que tenho uma moto",  # Portuguese "tenho" is not Spanish "tenlo"
        "N'oublie pas que je conduis",  # "oublie" after an elision stays negated
        "I met Mario and Lina",  # capitalised inside a sentence: names
        "the cat sat on the mat",  # short words are never touched
        "I pay in kash",  # "k" for "c" only makes a cue, never any word
        # Inflections and accents are forms, not slips (seen in review: each one made a
        # request or changed a fact).
        "olvidé todo",
        "Borré todo.",
        "deletei tudo",
        "Hoy me llamó Pedro",
        "Mi hermana trabaja en un hospital",
        "hizo frío",
        "recuerdas a mi hermano?",
        "Olvidaste todo otra vez",
        "non riesco a ricordarlo",
        "my wifi is called Skynet",
        "Je suis végétalienne",
        "vengan todos",
        "mon cœur",
        "calles y plazas",
        "hermanos y novios",
        "thats it, keep in mind",
    ],
)
def test_real_words_names_and_short_words_stay_as_typed(typed: str) -> None:
    assert spelling.repaired(typed) == typed


def test_a_word_one_slip_from_two_cues_is_left_alone() -> None:
    # "trabalo" is one edit from Portuguese "trabalho" and Spanish "trabajo": no guess.
    assert spelling.repaired("trabalo como enfermeira") == "trabalo como enfermeira"


def test_the_shipped_list_of_real_words_near_a_cue_is_current() -> None:
    """``make spelling`` after a cue changes: a stale list could read a real word as a typo.
    (Regenerating it here would load every dictionary, some 300 MB: the file records which cues
    it was worked out for.)"""
    assert spelling.shipped_cues_digest() == spelling.cues_digest()


def test_only_the_two_ends_of_a_long_text_are_read_and_nothing_is_lost() -> None:
    """Bounded work per message: a pasted document costs at most twice MAX_CHARS of reading,
    and a request at its end ("… remember that") is read like one at its start."""
    filler = "lorem ipsum " * (spelling.MAX_CHARS // 4)
    text = "my nmae is sara. " + filler + "my nmae is sara. " + filler + "remeber that I'm vegan"
    repaired = spelling.repaired(text)
    assert repaired.startswith("my name is sara. ")
    assert repaired.endswith("remember that I'm vegan")
    assert "my nmae is sara" in repaired  # the middle is left as typed
    assert len(repaired) == len(text) + 1


def test_the_end_of_a_long_text_is_read_from_a_whole_word() -> None:
    text = "x" * (3 * spelling.MAX_CHARS) + " remeber this, Nmae and all"
    repaired = spelling.repaired(text)
    assert repaired == "x" * (3 * spelling.MAX_CHARS) + " remember this, Nmae and all"
