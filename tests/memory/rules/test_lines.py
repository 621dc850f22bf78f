from memory.rules.lines import clean_line, clean_text, dedupe, fold, line_key


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
