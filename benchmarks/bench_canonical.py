"""Canonicalisation per URL: w3lib's ``canonicalize_url`` (what Scrapy's request
fingerprints use) against webrobot's canonicaliser from ``webrobot.urls.canonical``.

The URLs are the benchmark web's links plus the aliases real sites produce
(upper-case hosts, default ports, unsorted or empty queries, ``..`` segments,
percent-encoding).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from w3lib.url import canonicalize_url

from benchmarks.micro import fmt_time, per_call, print_table, size
from webrobot.urls.canonical import Canonicalizer

ORIGIN = "http://127.0.0.1:8000"


def test_urls(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    urls = []
    for n in range(count):
        page = f"/topic-{rng.randrange(1, 9)}/page-{rng.randrange(20000)}.html"
        roll = rng.random()
        if roll < 0.6:
            urls.append(ORIGIN + page)
        elif roll < 0.7:
            urls.append(f"HTTP://LocalHost:80{page}")
        elif roll < 0.8:
            urls.append(f"{ORIGIN}{page}?b={n}&a=1&utm_source=x&sessionid={n}")
        elif roll < 0.85:
            urls.append(f"{ORIGIN}/topic-1/../topic-2/./page-{n}.html?")
        elif roll < 0.9:
            urls.append(f"{ORIGIN}/caf%c3%a9/men%C3%BC {n}.html#section")
        elif roll < 0.95:
            urls.append(f"{ORIGIN}/search?q=caf\u00e9+{n}&page=2")
        else:
            urls.append(f"{ORIGIN}/index.html;jsessionid={n:08X}?x=%7e")
    return urls


def webrobot_canonicalisers() -> list[tuple[str, Callable[[str], str]]]:
    """webrobot's canonicaliser (no site alias rules), measured twice: on first
    sight of each URL (its uncached ``_canonical``) and as called, through its cache."""
    instance = Canonicalizer()
    return [
        ("webrobot Canonicalizer(), first sight of each URL", instance._canonical),
        ("webrobot Canonicalizer(), as called (with its cache)", instance),
    ]


def main() -> int:
    urls = test_urls(size(10_000, 2000, 200))
    print(
        f"{len(urls)} URLs; webrobot's canonicaliser: webrobot.urls.canonical.Canonicalizer (no site alias rules)"
    )
    candidates = [("w3lib canonicalize_url", canonicalize_url), *webrobot_canonicalisers()]
    rows = []
    for label, func in candidates:
        seconds = per_call(func, urls)
        distinct = len({func(u) for u in urls})
        rows.append((label, fmt_time(seconds), f"{1 / seconds:,.0f}", distinct))
    print_table(
        "per URL (best of rounds)", ("canonicaliser", "per URL", "URLs/s", "distinct results"), rows
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
