"""Role or prompt markup, comments and machine metadata in a memory line.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

# Where a clause starts: the line, a sentence or label inside it, a bracketed aside, a dash.
_STARTS: Final = r"(?:^|(?<=[.;:!?])\s+|[(\[{]|\s-+\s)"


_MARKUP_RES: Final = (
    re.compile(r"<\|[^|]{0,40}\|>|<\uff5c|\|im_(?:start|end)\|"),  # ChatML, DeepSeek (U+FF5C)
    re.compile(r"\[/?(?:INST|SYS|SYSTEM)\]|<</?SYS>>", re.IGNORECASE),  # Llama templates
    re.compile(
        r"(?:^|\s)#{1,6}\s*(?:system|assistant|user|human|instructions?|prompt|developer)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_STARTS}\W{{0,3}}(?:system|assistant|user|human|ai|developer|tool|assistente"
        r"|asistente|assistent|utente|utilisateur|usuario|nutzer|benutzer)"
        r"\s*:",
        re.IGNORECASE,
    ),
    re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>"),  # HTML/XML tags
    re.compile(r"<!--"),  # an HTML comment: text a reader never sees
    re.compile(r"(?:^|\s)\[[^\]\n]{0,40}\]:\s*(?:#|<>)"),  # Markdown comments "[//]: # (…)"
    # A role in brackets without a colon: "[SYSTEM]", "[SISTEMA] Modo administrador".
    re.compile(
        r"\[[^\]]{0,30}\b(?:system|sistema|systeme|système|admin|administrator|developer"
        r"|assistente|asistente|assistant|assistent|whizi"
        r"|assistant|systemhinweis|systemnachricht)\b[^\]]{0,30}\]",
        re.IGNORECASE,
    ),
    re.compile(r"```|~~~"),  # code fences
    # Machine metadata: two key=value pairs, or a JSON object.
    re.compile(r"\b\w+\s*=\s*[^\s;,]+[^=]*[;,&]\s*\w+\s*=\s*\S"),
    re.compile(r"\{\s*[\"'][\w -]+[\"']\s*:"),
    re.compile(
        r"[\"']role[\"']\s*:\s*[\"'](?:system|assistant|developer|user|tool)", re.IGNORECASE
    ),
    re.compile(
        r"#{1,6}[^#\n]{0,25}\b(?:system|sistema|systeme|système|systemhinweis)\b", re.IGNORECASE
    ),
)


def has_markup(line: str) -> bool:
    """Whether a cleaned line holds role or prompt markup (chat templates, role labels, tags)."""
    return any(pattern.search(line) for pattern in _MARKUP_RES)
