import pytest

from memory.lines import (
    MalformedAnswer,
    clean_line,
    clean_text,
    dedupe,
    fold,
    line_key,
    parse_answer,
)


def test_nul_bytes_are_stripped():
    assert clean_text("Lives\x00 in Turin") == "Lives in Turin"


def test_lone_surrogates_are_stripped():
    cleaned = clean_text("Likes \ud800tea\udfff")
    assert cleaned == "Likes tea"
    cleaned.encode("utf-8")


def test_bidi_controls_are_stripped():
    text = "\u202eLikes\u202c \u2066tea\u2069\u200e\u200f\u061c"
    assert clean_text(text) == "Likes tea"


def test_invisible_characters_are_stripped():
    assert clean_text("Li\u200bkes\u200c t\u200de\u2060a\ufeff\u00ad") == "Likes tea"


def test_control_characters_are_stripped_but_newline_and_tab_are_kept():
    assert clean_text("a\x07b\x1bc\x7fd\x85e\nf\tg") == "abcde\nf\tg"


def test_text_is_nfc_normalized():
    assert clean_text("Cafe\u0301") == "Caf\u00e9"


def test_clean_line_collapses_whitespace_and_strips_bullets():
    assert clean_line("  -   Lives \n in\tTurin  ") == "Lives in Turin"
    assert clean_line("* Likes tea") == "Likes tea"
    assert clean_line("\u2022 Likes tea") == "Likes tea"
    assert clean_line("1. Likes tea") == "Likes tea"
    assert clean_line("12) Likes tea") == "Likes tea"


def test_clean_line_keeps_a_leading_number_that_is_not_a_bullet():
    assert clean_line("2 kids, Marco and Giulia") == "2 kids, Marco and Giulia"
    assert clean_line("-5 degrees feels warm to him") == "-5 degrees feels warm to him"


def test_line_key_ignores_case_spacing_quotes_and_trailing_punctuation():
    key = line_key("Lives in Turin")
    assert line_key("lives  in TURIN.") == key
    assert line_key('"Lives in Turin!"') == key
    assert line_key("- Lives in Turin;") == key
    assert line_key("\u201cLives in Turin\u2026\u201d") == key
    assert line_key("Lives in Turin ?!") == key


def test_line_key_keeps_different_facts_apart():
    assert line_key("Lives in Turin") != line_key("Lived in Turin")
    assert line_key("Has 2 kids") != line_key("Has 3 kids")


def test_dedupe_keeps_the_first_occurrence_in_order():
    lines = ["Likes tea", "Lives in Turin", "likes  TEA.", "Has a dog", "lives in turin!"]
    assert dedupe(lines) == ["Likes tea", "Lives in Turin", "Has a dog"]


def test_fold_removes_case_and_accents_and_straightens_apostrophes():
    assert fold("  N\u2019OUBLIE   pas  M\u00c9MORISE ") == "n'oublie pas memorise"


def test_parse_answer_reads_a_lines_object():
    assert parse_answer('{"lines": ["Likes tea", "Lives in Turin"]}') == [
        "Likes tea",
        "Lives in Turin",
    ]


def test_parse_answer_tolerates_whitespace_and_a_json_fence():
    text = '\n  ```json\n{"lines": ["Likes tea"]}\n```  \n'
    assert parse_answer(text) == ["Likes tea"]
    assert parse_answer('```\n["Likes tea"]\n```') == ["Likes tea"]


def test_parse_answer_accepts_a_bare_array_of_strings():
    assert parse_answer('["Likes tea", "Has a dog"]') == ["Likes tea", "Has a dog"]


def test_parse_answer_accepts_an_empty_list():
    assert parse_answer('{"lines": []}') == []


def test_parse_answer_returns_raw_strings():
    assert parse_answer('{"lines": ["  - likes tea  "]}') == ["  - likes tea  "]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("```json\n```", "empty"),
        ("Sure! Here is the list.", "not_json"),
        ('{"lines": ["Likes tea", "Lives in', "not_json"),
        ('```json\n{"lines": ["Likes tea"]}', "unclosed_fence"),
        ('{"facts": ["Likes tea"]}', "wrong_shape"),
        ('{"lines": "Likes tea"}', "wrong_shape"),
        ('{"lines": null}', "wrong_shape"),
        ('"Likes tea"', "wrong_shape"),
        ("42", "wrong_shape"),
        ('{"lines": ["Likes tea", 3]}', "not_strings"),
        ('["Likes tea", {"a": 1}]', "not_strings"),
        ('{"lines": [null]}', "not_strings"),
    ],
)
def test_malformed_answers_raise(text, reason):
    with pytest.raises(MalformedAnswer) as caught:
        parse_answer(text)
    assert caught.value.reason == reason


def test_malformed_answer_message_and_chain_carry_no_text():
    secret = "Lives at Via Roma 12"
    with pytest.raises(MalformedAnswer) as caught:
        parse_answer('{"lines": ["' + secret)
    assert secret not in str(caught.value)
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


def test_malformed_answer_is_a_value_error():
    assert issubclass(MalformedAnswer, ValueError)
