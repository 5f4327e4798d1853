"""Canonicalisation per URL: w3lib's ``canonicalize_url`` (what Scrapy's request
fingerprints use) against webrobot's canonicaliser from ``webrobot.canonical``
(issue 5) when it is there: see :func:`webrobot_canonicaliser`.

The URLs are the benchmark web's links plus the aliases real sites produce
(upper-case hosts, default ports, unsorted or empty queries, ``..`` segments,
percent-encoding).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from w3lib.url import canonicalize_url

from benchmarks.micro import fmt_time, per_call, print_table, quick

ORIGIN = "http://127.0.0.1:8000"
#: Functions of one URL tried, in order, in ``webrobot.canonical`` when it has
#: no ``Canonicalizer`` class (see :func:`webrobot_canonicalisers`).
ENTRY_POINTS = ("canonical_url", "canonicalize_url", "canonicalize", "canonicalise", "canonical")


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


def webrobot_canonicalisers() -> tuple[list[tuple[str, Callable[[str], str]]], str]:
    """webrobot's canonicaliser(s) to measure, and a note on where they came from.

    A ``Canonicalizer`` class (issue 5) is measured twice: on first sight of each
    URL (its uncached ``_canonical``) and as called, through its cache; else the
    first function of :data:`ENTRY_POINTS` defined in the module itself (not one
    it imports, such as w3lib's ``canonicalize_url``).
    """
    try:
        module = importlib.import_module("webrobot.canonical")
    except ImportError:
        return [], "NOTE: webrobot.canonical is not there yet (issue 5); only w3lib is measured"
    cls = getattr(module, "Canonicalizer", None)
    if isinstance(cls, type):
        instance = cls()
        found: list[tuple[str, Callable[[str], str]]] = []
        if callable(getattr(instance, "_canonical", None)):
            found.append(("webrobot Canonicalizer(), first sight of each URL", instance._canonical))
        found.append(("webrobot Canonicalizer(), as called (with its cache)", instance))
        return found, "webrobot.canonical.Canonicalizer (no site alias rules)"
    for name in ENTRY_POINTS:
        func = getattr(module, name, None)
        if callable(func) and getattr(func, "__module__", None) == module.__name__:
            return [(f"webrobot {name}", func)], f"webrobot.canonical.{name}"
    return [], (
        f"NOTE: webrobot.canonical has none of Canonicalizer, {', '.join(ENTRY_POINTS)}; "
        f"add its entry point to ENTRY_POINTS in {__name__}"
    )


def main() -> int:
    urls = test_urls(2000 if quick() else 10_000)
    ours, note = webrobot_canonicalisers()
    print(f"{len(urls)} URLs; webrobot's canonicaliser: {note}")
    candidates: list[tuple[str, Callable[[str], str]]] = [("w3lib canonicalize_url", canonicalize_url), *ours]
    rows = []
    for label, func in candidates:
        seconds = per_call(func, urls)
        distinct = len({func(u) for u in urls})
        rows.append((label, fmt_time(seconds), f"{1 / seconds:,.0f}", distinct))
    print_table("per URL (best of rounds)", ("canonicaliser", "per URL", "URLs/s", "distinct results"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
