"""What a user asks the search index: the query language and the sites a
``--site`` value may mean (pure: no tantivy, no Scrapy).

Words are ANDed; ``"two words"`` is a phrase; ``word*`` a prefix; ``OR`` between
terms accepts either (AND binds tighter, as in most search engines). No input
is a syntax error: a query with nothing searchable left is a :class:`QueryError`.
:class:`~webrobot.search.index.SearchIndex` turns the terms into tantivy's query
objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webrobot.urls.sitekey import site_key

_TOKEN_RE = re.compile(r'"([^"]*)"?|(\S+)')


class QueryError(ValueError):
    """A query that asks for nothing (empty, or only punctuation)."""


def site_keys(site: str) -> list[str]:
    """The site keys (``scheme://host:port``) a ``--site`` value may mean: as given;
    its site key (``http://example.com`` is ``http://example.com:80``); and for a
    value without a scheme (``127.0.0.1:18080``, ``example.com``), its http and https
    site keys. A bare host also matches the host field."""
    site = site.strip().rstrip("/")
    keys = [site]
    if "://" in site:
        candidates = [site]
    else:
        candidates = [f"http://{site}", f"https://{site}"]
    for url in candidates:
        try:
            key = site_key(url)
        except ValueError:
            continue
        if key not in keys:
            keys.append(key)
    return keys


@dataclass(frozen=True, slots=True)
class Term:
    """One thing the user asked for: ``kind`` is "word", "phrase" or "prefix"."""

    kind: str
    text: str


def parse_query(query: str) -> list[list[Term]]:
    """The user's query as alternatives (OR) of terms that must all match (AND).

    Raises :class:`QueryError` when nothing searchable is left.
    """
    groups: list[list[Term]] = [[]]
    for match in _TOKEN_RE.finditer(query):
        phrase, word = match.group(1), match.group(2)
        if word == "OR":
            if groups[-1]:
                groups.append([])
            continue
        text = phrase if phrase is not None else word
        prefix = phrase is None and text.endswith("*")
        text = text.rstrip("*") if prefix else text
        if not any(ch.isalnum() for ch in text):
            continue
        kind = "phrase" if phrase is not None else "prefix" if prefix else "word"
        groups[-1].append(Term(kind, text))
    groups = [group for group in groups if group]
    if not groups:
        raise QueryError("the query has no word to search for")
    return groups
