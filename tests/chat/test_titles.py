"""The title a chat gets from its first message: a cheap, deterministic rule (no model call),
short, in the person's own words and language."""

from __future__ import annotations

import pytest

from chat.titles import TITLE_CHARS, title_for


@pytest.mark.parametrize(
    ("message", "title"),
    [
        # The first sentence, without its closing punctuation.
        ("How do I cook risotto? I have rice and peas.", "How do I cook risotto"),
        ("Plan a weekend in Lisbon.", "Plan a weekend in Lisbon"),
        # Greetings go, in the six languages, with the name they greet.
        (
            "Hi there! Can you suggest a good book about Rome?",
            "Can you suggest a good book about Rome",
        ),
        ("Hello, what is compound interest?", "What is compound interest"),
        ("hey Whizi, help me write a cover letter", "Help me write a cover letter"),
        ("Good morning! I need a workout plan", "I need a workout plan"),
        ("Ciao! Mi aiuti a scrivere una lettera?", "Mi aiuti a scrivere una lettera"),
        ("Buongiorno, cosa cucino stasera?", "Cosa cucino stasera"),
        ("Bonjour ! Traduis ce texte en anglais", "Traduis ce texte en anglais"),
        ("Salut, une idée de cadeau pour Marco ?", "Une idée de cadeau pour Marco"),
        ("Hola, ¿qué tiempo hace en Madrid?", "Qué tiempo hace en Madrid"),
        ("Hallo! Was koche ich heute?", "Was koche ich heute"),
        ("Olá, preciso de ajuda com Python", "Preciso de ajuda com Python"),
        # Markup goes: headings, emphasis, code, links, quotes, list markers.
        ("# **Outline** for my _thesis_", "Outline for my thesis"),
        (
            "> quoted: fix `parse_args` in [my script](https://x.example/a)",
            "Quoted: fix parse_args in my script",
        ),
        ("- buy milk\n- buy eggs", "Buy milk"),
        ("```python\nprint('hi')\n```\nWhy does this fail?", "Why does this fail"),
        ("```\nprint('hi')\n```", "print('hi')"),
        # Words inside words are not markup.
        ("file_name.txt is missing", "File_name.txt is missing"),
        ("Costs went up 3.5% in 2025. Why?", "Costs went up 3.5% in 2025"),
        # Cut at a word boundary, never mid-word.
        (
            "Help me plan a weekend in Lisbon with the kids and a tight budget",
            "Help me plan a weekend in Lisbon with…",
        ),
        # The first line that has words in it.
        ("\n\n   \nWhat is a monad", "What is a monad"),
    ],
)
def test_a_title_is_the_first_sentence_without_greetings_or_markup(message, title):
    assert title_for(message) == title


@pytest.mark.parametrize("message", ["Hi!", "hello", "Ciao :)", "Bonjour !", "  ", "**", "---"])
def test_a_bare_greeting_gives_no_title_so_the_next_message_names_the_chat(message):
    assert title_for(message) == ""


def test_a_title_is_never_longer_than_its_limit():
    assert len(title_for("word " * 100)) <= TITLE_CHARS + 1  # and the ellipsis
    assert len(title_for("x" * 500)) == TITLE_CHARS + 1
    assert title_for("x" * 500).endswith("…")


def test_a_long_word_without_spaces_is_cut_hard():
    assert title_for("あ" * 100) == "あ" * TITLE_CHARS + "…"


def test_a_greeting_word_that_begins_a_real_sentence_stays():
    assert title_for("Hello world program in Python") == "Hello world program in Python"
    assert title_for("Salutations from Rome are old-fashioned") == (
        "Salutations from Rome are old-fashioned"
    )


def test_a_bare_link_gives_no_address_in_the_title():
    assert title_for("https://example.com/very/long/path what is this page") == (
        "What is this page"
    )
