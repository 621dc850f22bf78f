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


# A JSON string. Possessive, and an unterminated one runs to the end: linear in the body (the
# backtracking form took 28 s on a 32 KB login body).
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]++")
# An opening bracket is a step of +1, a closing one of −1 (as signed bytes).
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether ``text`` nests deeper than ``limit``: linear, in C, without recursion (strings
    out, brackets as +1/−1, the largest running sum)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    steps = array("b", brackets.translate(_STEP).encode("latin-1"))
    return max(accumulate(steps), default=0) > limit


class JSONParser(parsers.JSONParser):
    """DRF's parser behind a size (413) and a nesting limit (400), checked before parsing."""

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
