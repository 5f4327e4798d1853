"""The article text a page declares in its JSON-LD (schema.org ``articleBody``).

Publishers repeat an article's text in ``<script type="application/ld+json">``
for search engines; pages built by JavaScript often carry it there and nowhere
else in their HTML. Whatever the block holds (no JSON at all, JSON with HTML
comments around it, HTML inside the text, nesting deep enough to exhaust the
parser), the answer is a text or ``None``.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

#: Values looked at in one page's JSON-LD, so that a huge block costs a bounded walk.
MAX_VALUES = 20_000
_WRAPPER = re.compile(r"^\s*(?://\s*)?(?:<!--|<!\[CDATA\[)|(?://\s*)?(?:-->|\]\]>)\s*;?\s*$")
_BREAK = re.compile(r"<\s*(?:br|/p|/div|/h[1-6]|/li|/blockquote)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^<>]{0,2000}>")
_SPACES = re.compile(r"[^\S\n]+")


def declared_article_body(root: Any) -> str | None:
    """The longest ``articleBody`` of the JSON-LD blocks under ``root`` (an lxml
    tree), as plain text with one paragraph a line; ``None`` when there is none."""
    best = ""
    try:
        scripts = list(root.iter("script"))
    except (AttributeError, TypeError, ValueError):
        return None
    for script in scripts:
        kind = (script.get("type") or "").lower()
        source = script.text or ""
        if "ld+json" not in kind or ("articleBody" not in source and "\\u" not in source):
            continue  # a key is "articleBody" only if written so, or with a \u escape
        for body in _bodies(_load(source)):
            text = plain_text(body)
            if len(text) > len(best):
                best = text
    return best or None


def _load(source: str) -> Any:
    """The block's JSON, read as it is, else without HTML comment or CDATA wrappers;
    ``None`` when neither is JSON."""
    for candidate in (source, _WRAPPER.sub("", source)):
        try:
            return json.loads(candidate, strict=False)
        except (ValueError, RecursionError):
            continue
    return None


def _bodies(data: Any) -> list[str]:
    """Every string value of an ``articleBody`` key, walking dicts and lists without
    recursion (a deeply nested block must not exhaust the stack)."""
    found: list[str] = []
    todo = [data]
    seen = 0
    while todo and seen < MAX_VALUES:
        value = todo.pop()
        seen += 1
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "articleBody" and isinstance(item, str):
                    found.append(item)
                elif isinstance(item, (dict, list)):
                    todo.append(item)
        elif isinstance(value, list):
            todo.extend(item for item in value if isinstance(item, (dict, list)))
    return found


def plain_text(body: str) -> str:
    """``body`` without HTML tags or entities, runs of spaces made one, one paragraph a
    line and no empty lines."""
    if "<" in body:
        body = _TAG.sub("", _BREAK.sub("\n", body))
    if "&" in body:
        body = html.unescape(body)
    lines = (_SPACES.sub(" ", line).strip() for line in body.splitlines())
    return "\n".join(line for line in lines if line)
