from memory.rules.budget import (
    count_tokens,
    list_tokens,
    part_end,
    positional_cut,
    render_block,
    truncate_to_tokens,
)


def test_count_tokens_uses_o200k_base():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2


def test_special_token_text_is_counted_as_plain_text():
    assert count_tokens("<|endoftext|>") > 1


def test_render_block_shows_lines_as_dashes():
    assert render_block(["Likes tea", "Has a dog"]) == "- Likes tea\n- Has a dog"
    assert render_block([]) == ""


def test_list_tokens_counts_the_rendered_block():
    lines = ["Likes tea", "Has a dog"]
    assert list_tokens(lines) == count_tokens("- Likes tea\n- Has a dog")
    assert list_tokens([]) == 0


def test_positional_cut_keeps_everything_that_fits():
    lines = ["Likes tea", "Has a dog"]
    assert positional_cut(lines, 100) == lines


def test_positional_cut_keeps_lines_from_the_top_and_stops_at_the_first_misfit():
    lines = [f"Fact number {i} about the person, with some detail." for i in range(100)]
    cut = positional_cut(lines, 200)
    assert cut == lines[: len(cut)]
    assert list_tokens(cut) <= 200
    assert list_tokens(lines[: len(cut) + 1]) > 200


def test_a_10000_line_list_is_cut_under_2000_tokens():
    count_tokens("warm up the encoding")
    lines = [f"Fact {i}: enjoys hiking trail number {i * 7} near the lake." for i in range(10_000)]
    cut = positional_cut(lines, 2000)
    assert 0 < len(cut) < len(lines)
    assert list_tokens(cut) <= 2000
    assert list_tokens(lines[: len(cut) + 1]) > 2000


def test_positional_cut_with_no_room_keeps_nothing():
    assert positional_cut(["Likes tea"], 0) == []
    assert positional_cut(["Likes tea"], 1) == []
    assert positional_cut([], 10) == []


def test_positional_cut_stays_under_the_limit_for_awkward_lines():
    lines = [
        "...",
        "",
        "\u65e5\u672c\u8a9e\u306e\u884c",
        "ends with newline\n",
        "a" * 300,
        "x.",
    ] * 20
    for limit in range(0, 120, 7):
        cut = positional_cut(lines, limit)
        assert list_tokens(cut) <= limit
        assert cut == lines[: len(cut)]


def test_truncate_keeps_the_start_within_the_limit():
    text = "The quick brown fox jumps over the lazy dog. " * 100
    cut = truncate_to_tokens(text, 10)
    assert text.startswith(cut)
    assert 0 < count_tokens(cut) <= 10


def test_truncate_returns_short_text_unchanged():
    assert truncate_to_tokens("hello world", 10) == "hello world"
    assert truncate_to_tokens("hello world", 0) == ""


def test_truncate_never_splits_a_character():
    text = "\u65e5\u672c\u8a9e\u3067\u66f8\u304b\u308c\u305f\u6587\u7ae0 \U0001f600" * 50
    for limit in range(1, 30):
        cut = truncate_to_tokens(text, limit)
        assert "\ufffd" not in cut
        assert text.startswith(cut)
        assert count_tokens(cut) <= limit


def test_a_part_of_a_long_text_fits_the_limit_and_ends_on_a_whole_word():
    text = "The quick brown fox jumps over the lazy dog. " * 100
    for limit in (7, 20, 100):
        end = part_end(text, limit)
        assert count_tokens(text[:end]) <= limit
        assert text[end - 1] == " "
        # Never much shorter than what fits: the cut is in the last fifth.
        assert end >= len(truncate_to_tokens(text, limit)) * 4 // 5


def test_a_part_prefers_a_line_break_then_a_sentence_end_near_the_limit():
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa. lambda mu\nnu xi omicron pi"
    assert text[: part_end(text, 20)].endswith("lambda mu\n")
    assert text[: part_end(text, 16)].endswith("kappa. ")
    assert text[: part_end(text, 12)].endswith("iota ")


def test_parts_of_text_without_spaces_cover_it_whole_and_each_moves_on():
    text = "\U0001f9a9\U0001f9c5\U0001fad1\U0001f952" * 200 + "x"
    parts, rest = [], text
    while rest:
        end = part_end(rest, 50)
        assert end >= 1
        parts.append(rest[:end])
        rest = rest[end:]
    assert "".join(parts) == text
    assert all(count_tokens(part) <= 50 for part in parts)
    assert len(parts) > 1


def test_a_text_that_fits_is_one_part():
    assert part_end("hello world", 10) == len("hello world")
    assert part_end("", 10) == 0


def test_a_part_is_at_least_one_character_even_over_the_limit():
    assert part_end("\U0001f9a9\U0001f9c5", 0) == 1
