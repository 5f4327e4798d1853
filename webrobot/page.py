"""What a fetched HTML page says: its title and the links a robot may follow.

Pure logic over an lxml tree (the one Scrapy's selector already built for the
response, so a page is parsed once). No Scrapy, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

#: element -> attribute that holds a followable URL
LINK_ATTRIBUTES = {"a": "href", "area": "href", "frame": "src", "iframe": "src"}
#: <link rel="..."> values whose target is another page worth crawling
FOLLOWED_LINK_RELS = frozenset({"next", "prev", "previous", "canonical"})
FOLLOWED_SCHEMES = ("http://", "https://")
_ITER_TAGS = ("a", "area", "frame", "iframe", "link", "base", "title")


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    nofollow: bool = False  # every occurrence on the page had rel="nofollow"


@dataclass(slots=True)
class PageSummary:
    title: str | None = None
    base_url: str = ""
    links: list[Link] = field(default_factory=list)
    bad_links: int = 0  # hrefs that cannot be resolved (a broken IPv6 host)


def _rel_tokens(element: Any) -> set[str]:
    rel = element.get("rel")
    return set(rel.lower().split()) if rel else set()


def summarise_html(root: Any, url: str) -> PageSummary:
    """Title and absolute, fragment-free http(s) links of the page at ``url``.

    ``root`` is an lxml HTML element (or ``None`` for an empty document).
    Links resolve against the first ``<base href>`` if there is one (a base
    that cannot be resolved is ignored, as browsers do). A URL that appears
    several times is listed once, in first-seen order, marked nofollow only if
    every occurrence was. A link that cannot be resolved (``http://[::1/``) is
    left out and counted in ``bad_links``.
    """
    summary = PageSummary(base_url=url)
    if root is None:
        return summary
    raw: list[tuple[str, bool]] = []
    base: str | None = None
    for element in root.iter(*_ITER_TAGS):
        tag = element.tag
        if tag == "title":
            if summary.title is None:
                summary.title = " ".join("".join(element.itertext()).split())
            continue
        if tag == "base":
            if base is None and element.get("href"):
                base = element.get("href").strip()
            continue
        if tag == "link":
            rels = _rel_tokens(element)
            if not rels & FOLLOWED_LINK_RELS:
                continue
            value = element.get("href")
        else:
            value = element.get(LINK_ATTRIBUTES[tag])
            rels = _rel_tokens(element) if tag in ("a", "area") else set()
        if value:
            raw.append((value, "nofollow" in rels))
    if base:
        try:
            summary.base_url = urljoin(url, base)
        except ValueError:  # "http://[x/": urljoin cannot even split it
            pass
    seen: dict[str, bool] = {}
    base_url = summary.base_url
    for value, nofollow in raw:
        try:
            absolute = urljoin(base_url, value.strip()).partition("#")[0]
        except ValueError:  # "http://[::1/": urljoin cannot even split it
            summary.bad_links += 1
            continue
        if not absolute.lower().startswith(FOLLOWED_SCHEMES):
            continue
        if absolute in seen:
            seen[absolute] = seen[absolute] and nofollow
        else:
            seen[absolute] = nofollow
    summary.links = [Link(u, nf) for u, nf in seen.items()]
    return summary
