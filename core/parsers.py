"""The API's JSON parser: DRF's, behind a size and a nesting limit checked before parsing."""

from __future__ import annotations

import codecs
import re
from array import array
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from django.conf import settings
from rest_framework import exceptions, parsers
from rest_framework.utils import json

from core.errors import Invalid, ServiceError


class BodyTooLarge(ServiceError):
    code = "too_large"
    status = 413
    detail = "The request body is too large."


class JSONTooDeep(Invalid):
    code = "too_deep"
    detail = "The JSON is nested too deeply."


# A JSON string, escapes included. Possessive (``*+``, ``++``): once a character is taken it is
# never given back, so even an unterminated string of escaped quotes is scanned once — linear in
# the body, where the backtracking form was quadratic (a 32 KB login body took 28 s).
# An unterminated string runs to the end of the body (the JSON is invalid anyway): otherwise
# every later quote would start a new scan to the end.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]++")
# An opening bracket is a step of +1, a closing one of −1 (as signed bytes).
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether ``text`` nests arrays and objects deeper than ``limit``, counted without parsing
    and in time linear in the text, every step in C: strings out, then the brackets alone as
    +1/−1, whose largest running sum is the depth (``[`` × 100,000, 2.5 MB of escaped quotes
    or of ``[]`` each cost a few passes over the body, and nothing recurses)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    steps = array("b", brackets.translate(_STEP).encode("latin-1"))
    return max(accumulate(steps), default=0) > limit


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser behind two limits checked before ``json.loads``: the body's size
    (``DATA_UPLOAD_MAX_MEMORY_SIZE``, as Django applies to form posts: 413) and its nesting
    (``JSON_MAX_DEPTH``: 400), so no body can make the parser recurse or buffer without end."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = parser_context.get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if limit is not None and declared and declared.isdigit() and int(declared) > limit:
            raise BodyTooLarge
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise BodyTooLarge
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
        except (ValueError, LookupError):
            raise exceptions.ParseError("JSON parse error") from None
        if json_depth_exceeds(text, settings.JSON_MAX_DEPTH):
            raise JSONTooDeep
        try:
            parse_constant = json.strict_constant if self.strict else None
            return json.loads(text, parse_constant=parse_constant)
        except (ValueError, RecursionError):
            raise exceptions.ParseError("JSON parse error") from None
