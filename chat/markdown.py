"""Replies as HTML: a model's Markdown rendered, then sanitised, before any page shows it.

A reply is untrusted text: whatever a model writes (or is tricked into writing by a page it read)
must never run in the person's browser. Two libraries, two locks:

- markdown-it-py renders CommonMark with tables and strikethrough, with **raw HTML off** (a
  ``<script>`` in a reply is shown as text, never parsed as a tag), **no images** (``![chart](
  https://elsewhere/x.png)`` becomes a link "chart" to it, so nothing loads from another site
  and the Content-Security-Policy's ``img-src 'self'`` is never even tested) and links only to
  http, https and mailto addresses (anything else stays text, relative links too: a reply
  never links into the product, where a GET could act for the person).
- nh3 (Ammonia) then cleans what markdown-it made, with an allow-list of the tags Markdown
  produces and nothing else: no attributes but ``href``, a list's ``start``, a code block's
  language class and a table cell's alignment class; the same three link schemes, relative
  links denied; every link opens in a new tab with ``rel="noopener noreferrer nofollow"``.
  Should markdown-it ever let something through, it stops here.

Pure: no Django import, so the same function serves the page, the stream and the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

# The tags markdown-it makes with the rules enabled below, and no others.
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
    # The first lock on links: markdown-it keeps a link's text as plain text when this says no
    # (its own check only refuses javascript:, vbscript:, file: and most data:). ``url`` comes
    # normalised: entities decoded, control characters and spaces percent-encoded, so
    # "jav&#x09;ascript:" arrives as "jav%09ascript:" and has no allowed scheme.
    scheme, colon, _ = url.partition(":")
    return bool(colon) and scheme.lower() in LINK_SCHEMES


_markdown.validateLink = _is_allowed_link  # type: ignore[method-assign]


def _image_as_link(
    self: object, tokens: list[Token], idx: int, options: object, env: object
) -> str:
    # An image from a model would load from wherever it points: shown as a link to it instead,
    # labelled by its description (or its address). Both are escaped; nh3 then vets the link.
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    label = "".join(child.content for child in token.children or []) or src
    return f'<a href="{escapeHtml(src)}">{escapeHtml(label)}</a>'


_markdown.add_render_rule("image", _image_as_link)

ALIGNMENTS = {"text-align:left": "align-left", "text-align:center": "align-center"}
ALIGNMENTS["text-align:right"] = "align-right"


def _alignment_as_class(state: StateCore) -> None:
    # A table column's alignment comes as a style attribute, which the CSP would refuse: a class
    # instead, one of three.
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and (style := token.attrs.pop("style", None)):
            token.attrSet("class", ALIGNMENTS.get(str(style), ""))


_markdown.core.ruler.push("alignment_as_class", _alignment_as_class)


def _keep_attribute(tag: str, attribute: str, value: str) -> str | None:
    # Called for the allowed attributes only. A class is a fence's language ("```python") or a
    # table cell's alignment, each kept only in its known shape.
    if attribute == "class" and tag == "code":
        return value if _LANGUAGE_CLASS.fullmatch(value) else None
    if attribute == "class":
        return value if value in ALIGNMENTS.values() else None
    return value


_cleaner = nh3.Cleaner(
    tags=set(TAGS),
    clean_content_tags={"script", "style"},
    # "*": none, or Ammonia's defaults (lang, title) would be allowed on every tag.
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
    """A reply's Markdown as safe HTML. A partial reply (still streaming) renders too: an
    unclosed code fence is code up to the end, an unfinished table row waits as text."""
    return sanitise(_markdown.render(text))


# --- While a reply streams ---------------------------------------------------------------------

# A render re-reads only the reply's last block (see LiveReply), and only once the reply has
# grown by a 32nd of that block's length since the previous render, and by a few words: a long
# block costs at most about 32 renders of itself in all, a reply of many short blocks one render
# every few words (each costs a fixed ~0.3 ms however short), so a reply's cost stays linear.
REGROWTH_FRACTION = 32
MIN_NEW_CHARS = 24


@dataclass(frozen=True)
class Preview:
    """What a page adds to a streaming reply: ``settled`` blocks to append for good, then
    ``live``, the last block, to show in place of the previous one."""

    settled: str
    live: str


class LiveReply:
    """A reply rendered as it arrives, at a cost linear in its length.

    Blocks before the last one are settled: more text can no longer change them (CommonMark
    closes a block when another one starts; only reference definitions, which models hardly
    write, would reach back — and the finished reply is rendered whole anyway). So each render
    parses only the last block, and text arriving between renders is left for the next one.
    """

    def __init__(self) -> None:
        self.text = ""
        self._settled = 0  # characters of ``text`` already in settled blocks
        self._rendered = 0  # characters of ``text`` the last preview covered

    def add(self, delta: str) -> Preview | None:
        """Take the next piece of the reply; a preview when a render is due, else None."""
        # As markdown-it reads newlines, so line numbers and offsets agree.
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
