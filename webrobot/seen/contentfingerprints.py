"""Content fingerprints: what makes two pages "the same page". Pure logic.

(What makes two *requests* the same is :mod:`webrobot.seen.requestfingerprinter`.)

* ``"body"`` (default): the hex MD5 of the body bytes as received. Exact and
  cheap (the spider already stores it as the item's ``md5``), but any byte that
  differs (a timestamp, a session id, an ad, a counter) makes a different page.
* ``"text"``: the hex MD5 of the page's visible text with whitespace collapsed:
  the text of elements other than ``<script>``, ``<style>`` and ``<template>``,
  without comments or processing instructions, with the ``<title>``. Pages that
  differ only in markup, attributes, scripts, styles or comments count as one,
  so it catches more mirrors and soft-404s; but it also merges pages whose
  *text* is equal while their links or images differ (two listings with the
  same captions, a gallery page per picture), and the links of all but the
  first are then not followed. It costs a walk over the parsed tree (the one
  Scrapy's selector already built).
"""

from __future__ import annotations

import hashlib
from typing import Any

FINGERPRINT_MODES = ("body", "text")
#: Elements whose text is not shown to a reader.
INVISIBLE_TAGS = frozenset({"script", "style", "template"})


def body_fingerprint(body: bytes) -> str:
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def visible_text(root: Any) -> str:
    """The visible text of an lxml tree, whitespace collapsed to single spaces."""
    if root is None:
        return ""
    parts: list[str] = []
    # Iterative walk: an element's text, its children, then its tail (which is
    # visible even when the element itself is not).
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, tail_only = stack.pop()
        if tail_only:
            if element is not root and element.tail:
                parts.append(element.tail)
            continue
        stack.append((element, True))
        tag = element.tag
        if not isinstance(tag, str) or _local(tag) in INVISIBLE_TAGS:
            continue  # comment, processing instruction, script...: only its tail counts
        if element.text:
            parts.append(element.text)
        stack.extend((child, False) for child in reversed(element))
    return " ".join(" ".join(parts).split())


def _local(tag: str) -> str:
    return tag.rpartition("}")[2].lower()


def text_fingerprint(root: Any) -> str:
    """The MD5 of the visible text, or ``""`` when a page has none (a frameset,
    an image map): such pages are told apart by their bytes instead, or they
    would all be one page."""
    text = visible_text(root)
    if not text.strip():
        return ""
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def fingerprint_key(hex_fingerprint: str) -> bytes:
    """The 16 store-key bytes of a hex MD5 fingerprint."""
    return bytes.fromhex(hex_fingerprint)
