"""The ``<meta>`` and ``<link>`` tags of a page, gathered in one walk, and the
schema.org nodes of its JSON-LD, for the extractors that read them.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

_SPACE = re.compile(r"\s+")
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]{2,8});")


@dataclass
class HeadTags:
    """``<meta>`` contents by name (``name``, ``property`` and ``itemprop`` keys in
    lower case; ``http-equiv`` ones as ``http-equiv:<name>``), ``<link>`` targets by
    ``rel`` word, in document order."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)

    def first(self, *names: str) -> str | None:
        """The first non-empty content of the first name that has one."""
        for name in names:
            for value in self.meta.get(name, ()):
                if value:
                    return value
        return None

    def all(self, *names: str) -> list[str]:
        return [value for name in names for value in self.meta.get(name, ()) if value]


def head_tags(root: Any) -> HeadTags:
    """Every ``<meta>`` and ``<link>`` of the document (the body's too: pages put them there)."""
    tags = HeadTags()
    if root is None:
        return tags
    try:
        elements = list(root.iter("meta", "link"))
    except (AttributeError, TypeError, ValueError):
        return tags
    for element in elements:
        get = element.get
        if element.tag == "meta":
            content = get("content")
            if content is None:
                content = get("value")
            if content is None:
                continue
            content = clean_text(content)
            for attribute in ("property", "name", "itemprop"):
                for key in (get(attribute) or "").lower().split():
                    tags.meta.setdefault(key, []).append(content)
            equiv = (get("http-equiv") or "").strip().lower()
            if equiv:
                tags.meta.setdefault(f"http-equiv:{equiv}", []).append(content)
        else:
            href = get("href")
            if href is None:
                continue
            for rel in (get("rel") or "").lower().split():
                tags.links.setdefault(rel, []).append(href.strip())
    return tags


def clean_text(value: object) -> str:
    """A value as one line: entities a page left escaped decoded, spaces collapsed."""
    if not isinstance(value, str):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return ""
    if "&" in value and _ENTITY.search(value):
        value = html.unescape(value)
    return _SPACE.sub(" ", value).strip()


def absolute_url(value: object, base: str) -> str | None:
    """``value`` resolved against ``base``, when the result is an http(s) URL."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or value.startswith(("data:", "javascript:", "#")):
        return None
    try:
        url = urljoin(base, value)
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return url


# --- JSON-LD as schema.org nodes ------------------------------------------------------------


def type_names(node: Any) -> list[str]:
    """The schema.org type names of a node, without the vocabulary's URL
    (``http://schema.org/NewsArticle`` -> ``NewsArticle``)."""
    if not isinstance(node, dict):
        return []
    raw = node.get("@type", node.get("type"))
    values = raw if isinstance(raw, list) else [raw]
    names = []
    for value in values:
        if isinstance(value, str) and value.strip():
            names.append(re.split(r"[/#:]", value.strip().rstrip("/"))[-1])
    return names


def jsonld_nodes(items: list[Any]) -> list[dict[str, Any]]:
    """Every node of the items: top-level ones, ``@graph`` members, and the
    ``mainEntity`` of a page, in order, each once."""
    nodes: list[dict[str, Any]] = []
    seen: set[int] = set()

    def visit(value: Any, depth: int) -> None:
        if depth > 6:
            return
        if isinstance(value, list):
            for member in value:
                visit(member, depth + 1)
            return
        if not isinstance(value, dict) or id(value) in seen:
            return
        seen.add(id(value))
        if type_names(value):
            nodes.append(value)
        visit(value.get("@graph"), depth + 1)
        visit(value.get("mainEntity"), depth + 1)

    visit(items, 0)
    return nodes


def node_index(nodes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Nodes by ``@id``, to follow references (``{"@id": "#author"}``)."""
    index: dict[str, dict[str, Any]] = {}
    for node in nodes:
        key = node.get("@id")
        if isinstance(key, str) and key not in index:
            index[key] = node
    return index


def resolved(value: Any, index: dict[str, dict[str, Any]]) -> Any:
    """``value``, or the node it refers to when it is only a reference."""
    if (
        isinstance(value, dict)
        and set(value) <= {"@id", "@type"}
        and isinstance(value.get("@id"), str)
    ):
        return index.get(value["@id"], value)
    return value


def as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def iter_strings(value: Any, *keys: str) -> Iterator[str]:
    """Strings of ``value``: itself if a string, else each of ``keys`` of a dict (or of
    each dict in a list), recursively one level."""
    for member in as_list(value):
        if isinstance(member, str | int | float) and not isinstance(member, bool):
            text = clean_text(member)
            if text:
                yield text
        elif isinstance(member, dict) and "@value" in member:
            text = clean_text(member["@value"])
            if text:
                yield text
        elif isinstance(member, dict):
            for key in keys:
                inner = member.get(key)
                for text in as_list(inner):
                    if isinstance(text, str | int | float) and not isinstance(text, bool):
                        cleaned = clean_text(text)
                        if cleaned:
                            yield cleaned
                    elif isinstance(text, dict) and "@value" in text:
                        cleaned = clean_text(text["@value"])
                        if cleaned:
                            yield cleaned
