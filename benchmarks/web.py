"""The benchmark web: deterministic synthetic sites of HTML pages, built in memory.

Each site is a tree of pages (``fanout`` children per page, so every page is
reachable from the home page) plus pseudo-random cross links, about ``links``
links per page, pages of ``min_size``-``max_size`` bytes, and one ~2 KB
robots.txt whose ``User-agent: *`` group disallows a few paths that some pages
link to. With several sites, a few cross links go to the other sites.

Pure: no I/O. Pages are tuples of byte chunks so the filler paragraphs are
shared in memory (20,000 pages of 15 KB would otherwise take 300 MB).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

#: Paths every crawler must refuse (the ``User-agent: *`` group below).
DISALLOWED_PREFIXES = ("/private/", "/cgi-bin/", "/search")

_ROBOTS_HEAD = """\
# robots.txt of a synthetic benchmark site. The rules for every robot are in
# the "*" group; the groups for named robots only make the file realistic in
# size and shape (a robots parser must skip them quickly).

User-agent: *
Disallow: /private/
Disallow: /cgi-bin/
Disallow: /search
Disallow: /*?sessionid=
Allow: /private/press-kit.html
"""

_OTHER_AGENTS = (
    "Googlebot", "Bingbot", "Slurp", "DuckDuckBot", "Baiduspider", "YandexBot",
    "Sogou", "Exabot", "facebot", "ia_archiver", "AhrefsBot", "SemrushBot",
    "MJ12bot", "DotBot", "PetalBot", "Applebot",
)  # fmt: skip

_WORD_TEXT = (
    "crawler robot politeness archive index page link site server request response "
    "header body anchor title section topic widget gadget catalogue product review "
    "history guide manual reference chapter figure table note summary detail market "
    "river mountain garden kitchen library station harbour village museum theatre "
    "orange silver yellow purple window ceiling pattern signal gentle rapid quiet "
    "ancient modern careful curious honest useful simple common rare northern "
    "southern eastern western measure compare explain describe collect deliver"
)
_WORDS = _WORD_TEXT.split()


def robots_txt() -> str:
    """The robots.txt every benchmark site serves (about 2 KB)."""
    parts = [_ROBOTS_HEAD]
    for number, agent in enumerate(_OTHER_AGENTS):
        parts.append(f"\nUser-agent: {agent}\n")
        parts.append(f"Disallow: /private/\nDisallow: /tmp/{agent.lower()}/\n")
        parts.append(f"Disallow: /*.pdf$\nAllow: /public/{number}/\n")
        if number % 4 == 0:
            parts.append(f"Crawl-delay: {number % 7 + 1}\n")
    parts.append("\nSitemap: /sitemap.xml\n")
    return "".join(parts)


def is_disallowed(target: str) -> bool:
    """Whether the ``*`` group of :func:`robots_txt` forbids ``target`` (path and query)."""
    if target.startswith("/private/press-kit.html"):
        return False
    return target.startswith(DISALLOWED_PREFIXES) or "?sessionid=" in target


@dataclass(frozen=True)
class WebSpec:
    """The shape of the web; the same spec always gives the same pages."""

    pages: int = 20_000  # HTML pages in all sites together
    sites: int = 1
    links: int = 20  # links per page (about)
    fanout: int = 8  # tree children per page
    min_size: int = 10_000  # bytes per page
    max_size: int = 20_000
    seed: int = 20261121

    def pages_of(self, site: int) -> int:
        """Pages of site number ``site`` (the first sites take the remainder)."""
        share, extra = divmod(self.pages, self.sites)
        return share + (1 if site < extra else 0)


@dataclass(frozen=True)
class Page:
    chunks: tuple[bytes, ...]  # the body, in pieces (filler pieces are shared)
    size: int


def page_path(index: int, top: Sequence[int]) -> str:
    """URL path of page ``index``; ``top[index]`` is its first-level ancestor."""
    if index == 0:
        return "/"
    return f"/topic-{top[index]}/page-{index}.html"


def _top_ancestors(count: int, fanout: int) -> list[int]:
    top = [0] * count
    for index in range(1, count):
        parent = (index - 1) // fanout
        top[index] = index if parent == 0 else top[parent]
    return top


def _paragraphs(rng: random.Random, count: int = 256) -> list[bytes]:
    pool = []
    for _ in range(count):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(50, 110))]
        words[0] = words[0].capitalize()
        pool.append(("<p>" + " ".join(words) + ".</p>\n").encode())
    return pool


def build_site(spec: WebSpec, site: int, origins: Sequence[str]) -> dict[str, Page]:
    """Every HTML page of site number ``site``: URL path -> page.

    ``origins`` are all sites' ``scheme://host:port`` (for cross-site links).
    """
    count = spec.pages_of(site)
    rng = random.Random(spec.seed * 1000 + site)
    pool = _paragraphs(rng)
    top = _top_ancestors(count, spec.fanout)
    pages: dict[str, Page] = {}
    for index in range(count):
        path = page_path(index, top)
        hrefs = _hrefs(spec, site, index, count, top, origins, rng)
        title = f"Site {site} page {index}: {rng.choice(_WORDS)} {rng.choice(_WORDS)}"
        head = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title>"
            f'<meta name="description" content="{title}, a synthetic benchmark page">'
            '<meta name="viewport" content="width=device-width">'
            '<link rel="stylesheet" href="/static/site.css">'
            f'<link rel="canonical" href="{path}"></head>\n'
            f'<body><header><a href="/">Home</a> <img src="/static/logo.png" alt="logo"></header>\n'
            f"<main><h1>{title}</h1>\n"
        ).encode()
        target = rng.randint(spec.min_size, spec.max_size)
        chunks: list[bytes] = [head]
        size = len(head)
        tail = b"</main><footer>synthetic web for webrobot's benchmarks</footer></body></html>\n"
        # Links go between paragraphs, so link extraction walks a realistic tree.
        per_gap = max(1, len(hrefs) // 6)
        while hrefs or size + len(tail) < target:
            if hrefs:
                group, hrefs = hrefs[:per_gap], hrefs[per_gap:]
                anchors = " ".join(f'<a href="{href}">{text}</a>' for href, text in group)
                piece = f"<nav>{anchors}</nav>\n".encode()
                chunks.append(piece)
                size += len(piece)
            if size + len(tail) < target:
                piece = pool[rng.randrange(len(pool))]
                chunks.append(piece)
                size += len(piece)
        chunks.append(tail)
        size += len(tail)
        pages[path] = Page(tuple(chunks), size)
    return pages


def _hrefs(
    spec: WebSpec,
    site: int,
    index: int,
    count: int,
    top: Sequence[int],
    origins: Sequence[str],
    rng: random.Random,
) -> list[tuple[str, str]]:
    """About ``spec.links`` (href, anchor text) pairs for page ``index``."""
    hrefs: list[tuple[str, str]] = [("/", "home")]
    if index:
        parent = (index - 1) // spec.fanout
        hrefs.append((page_path(parent, top), "up"))
    first_child = index * spec.fanout + 1
    for child in range(first_child, min(first_child + spec.fanout, count)):
        if index and top[child] == top[index]:
            hrefs.append((f"page-{child}.html", f"child {child}"))  # relative
        else:
            hrefs.append((page_path(child, top), f"child {child}"))
    if rng.random() < 0.3:
        kind = rng.randrange(4)
        if kind == 0:
            hrefs.append((f"/private/page-{index}.html", "private"))
        elif kind == 1:
            hrefs.append((f"/search?q={rng.choice(_WORDS)}", "search"))
        elif kind == 2:
            hrefs.append((f"/cgi-bin/print?page={index}", "print"))
        else:
            hrefs.append((f"{page_path(index, top)}?sessionid={rng.randrange(10**6)}", "session"))
    others = [o for number, o in enumerate(origins) if number != site]
    own = origins[site] if site < len(origins) else ""
    while len(hrefs) < spec.links:
        roll = rng.random()
        if others and roll < 0.1:
            other = rng.randrange(len(origins) - 1)
            other_site = other if other < site else other + 1
            target = rng.randrange(spec.pages_of(other_site))
            other_top = _top_ancestors_cached(spec, other_site)
            hrefs.append((origins[other_site] + page_path(target, other_top), "elsewhere"))
            continue
        target = rng.randrange(count)
        path = page_path(target, top)
        if own and roll > 0.9:
            path = own + path  # some absolute URLs, as real sites have
        hrefs.append((path, f"see {target}"))
    return hrefs


_TOP_CACHE: dict[tuple[WebSpec, int], list[int]] = {}


def _top_ancestors_cached(spec: WebSpec, site: int) -> list[int]:
    key = (spec, site)
    if key not in _TOP_CACHE:
        _TOP_CACHE[key] = _top_ancestors(spec.pages_of(site), spec.fanout)
    return _TOP_CACHE[key]


def reachable_pages(spec: WebSpec) -> int:
    """HTML pages a crawler that obeys robots.txt should fetch: all of them
    (the tree reaches every page; disallowed links point outside it)."""
    return spec.pages
