"""Replies as HTML: a model's Markdown rendered, then sanitised, before any page shows it.

A reply is untrusted: nothing a model writes may run in the browser. Two locks:

- markdown-it-py renders CommonMark (tables, strikethrough) with raw HTML off, no images
  (an image becomes a link, so nothing loads from elsewhere) and links only to http, https
  and mailto (relative links stay text: a reply never links into the product, where a GET
  could act for the person).
- nh3 then cleans the result with an allow-list: Markdown's tags, only ``href``, ``start`` and
  known classes, the same schemes; links open with ``rel="noopener noreferrer nofollow"``.

Pure: no Django import, so the page, the stream and the tests share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

# The tags markdown-it makes with the rules below, and no others.
TAGS = frozenset(
    {
        "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
        "ul", "ol", "li", "strong", "em", "s", "code", "pre", "a",
        "table", "thead", "tbody", "tr", "th", "td",
    }
)  # fmt: skip
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
LINK_REL = "noopener noreferrer nofollow"
_LANGUAGE_CLASS = re.compile(r"language-[A-Za-z0-9_+#.-]{1,32}")

_markdown = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False}).enable(
    ["table", "strikethrough"]
)


def _is_allowed_link(url: str) -> bool:
    # The first lock on links (markdown-it's own check refuses only a few schemes). ``url`` is
    # normalised, so "jav&#x09;ascript:" arrives as "jav%09ascript:" and has no allowed scheme.
    scheme, colon, _ = url.partition(":")
    return bool(colon) and scheme.lower() in LINK_SCHEMES


_markdown.validateLink = _is_allowed_link  # type: ignore[method-assign]


def _image_as_link(
    self: object, tokens: list[Token], idx: int, options: object, env: object
) -> str:
    # An image would load from wherever it points: a link instead, labelled by its description.
    # Both escaped; nh3 then vets the link.
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    label = "".join(child.content for child in token.children or []) or src
    return f'<a href="{escapeHtml(src)}">{escapeHtml(label)}</a>'


_markdown.add_render_rule("image", _image_as_link)

ALIGNMENTS = {"text-align:left": "align-left", "text-align:center": "align-center"}
ALIGNMENTS["text-align:right"] = "align-right"


def _alignment_as_class(state: StateCore) -> None:
    # Column alignment comes as a style attribute, which the CSP refuses: one of three classes.
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and (style := token.attrs.pop("style", None)):
            token.attrSet("class", ALIGNMENTS.get(str(style), ""))


_markdown.core.ruler.push("alignment_as_class", _alignment_as_class)


def _empty_header_as_cell(state: StateCore) -> None:
    # A header cell with no words (a table's corner) heads nothing: a plain cell, so a screen
    # reader is not told of an empty header.
    tokens = state.tokens
    for opened, inline, closed in zip(tokens, tokens[1:], tokens[2:], strict=False):
        if (opened.type, inline.type, closed.type) != ("th_open", "inline", "th_close"):
            continue
        if not inline.content.strip():
            opened.type, opened.tag = "td_open", "td"
            closed.type, closed.tag = "td_close", "td"


_markdown.core.ruler.push("empty_header_as_cell", _empty_header_as_cell)


def _keep_attribute(tag: str, attribute: str, value: str) -> str | None:
    # Only allowed attributes come here. A class is a fence's language or a cell's alignment,
    # kept only in its known shape.
    if attribute == "class" and tag == "code":
        return value if _LANGUAGE_CLASS.fullmatch(value) else None
    if attribute == "class":
        return value if value in ALIGNMENTS.values() else None
    return value


_cleaner = nh3.Cleaner(
    tags=set(TAGS),
    clean_content_tags={"script", "style"},
    # "*": none, else Ammonia's defaults (lang, title) apply to every tag.
    attributes={
        "*": set(),
        "a": {"href"},
        "code": {"class"},
        "ol": {"start"},
        "th": {"class"},
        "td": {"class"},
    },
    attribute_filter=_keep_attribute,
    url_schemes=set(LINK_SCHEMES),
    url_relative="deny",
    link_rel=LINK_REL,
    set_tag_attribute_values={"a": {"target": "_blank"}},
    strip_comments=True,
)


def sanitise(html: str) -> str:
    """``html`` with everything outside the allow-list removed (the second lock)."""
    return _cleaner.clean(html)


def render(text: str) -> str:
    """A reply's Markdown as safe HTML; a partial reply renders too (an open fence is code)."""
    return sanitise(_markdown.render(text))


# --- While a reply streams ---------------------------------------------------------------------

# A render re-reads only the last block, once the reply has grown by a 32nd of that block and
# a few words: a long block costs about 32 renders, short blocks one every few words (~0.3 ms
# each), so a reply's cost stays linear.
REGROWTH_FRACTION = 32
MIN_NEW_CHARS = 24


@dataclass(frozen=True)
class Preview:
    """A streaming reply's update: ``settled`` blocks to append, then ``live``, the last block."""

    settled: str
    live: str


class LiveReply:
    """A reply rendered as it arrives, at a cost linear in its length.

    Blocks before the last are settled: CommonMark closes a block when the next starts (only
    rare reference definitions reach back, and the finished reply is rendered whole). Each
    render parses only the last block.
    """

    def __init__(self) -> None:
        self.text = ""
        self._settled = 0  # characters of ``text`` already in settled blocks
        self._rendered = 0  # characters of ``text`` the last preview covered

    def add(self, delta: str) -> Preview | None:
        """Take the next piece of the reply; a preview when a render is due, else None."""
        # As markdown-it reads newlines, so offsets agree.
        self.text += delta
        self.text = self.text.replace("\r\n", "\n").replace("\r", "\n")
        tail = self.text[self._settled :]
        grown = len(self.text) - self._rendered
        if grown < max(MIN_NEW_CHARS, len(tail) // REGROWTH_FRACTION) and self._rendered:
            return None
        self._rendered = len(self.text)
        tokens = _markdown.parse(tail)
        starts = [i for i, token in enumerate(tokens) if token.level == 0 and token.nesting >= 0]
        settled = ""
        if len(starts) > 1:
            last = starts[-1]
            line = (tokens[last].map or [0])[0]
            self._settled += sum(len(text) + 1 for text in tail.split("\n")[:line])
            settled = _html(tokens[:last])
            tokens = tokens[last:]
        return Preview(settled=settled, live=_html(tokens))


def _html(tokens: list[Token]) -> str:
    return sanitise(_markdown.renderer.render(tokens, _markdown.options, {})) if tokens else ""
