from memory.budget import (
    count_tokens,
    list_tokens,
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
