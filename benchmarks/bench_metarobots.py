"""Meta-robots extraction per page, on benchmark pages (a quarter of them carry
``<meta name="robots">`` or ``<meta name="webrobot">`` tags).

Measured on pages already parsed (the crawl parses each page once, for links,
title and meta robots together); the parse itself is shown for scale. The
baseline is what a Scrapy user writes: one XPath query on the response's
selector. webrobot's extraction comes from ``webrobot.metarobots`` (issue 4)
when it is there: see :func:`webrobot_extractor`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from scrapy.http import HtmlResponse

from benchmarks.micro import fmt_time, per_call, print_table, quick
from benchmarks.web import WebSpec, build_site

ORIGIN = "http://127.0.0.1:8000"
TAGS = (
    '<meta name="robots" content="noindex">',
    '<meta name="robots" content="nofollow, noarchive">',
    '<meta name="ROBOTS" content="NONE">',
    '<meta name="webrobot" content="noindex"><meta name="robots" content="all">',
)
#: (function name, what it reads) tried in order in ``webrobot.metarobots``:
#: ``"text"`` functions get ``(response.text, agent)`` (issue 4's head scan),
#: ``"root"`` ones ``(parsed root, agent)``. A new entry point is one line here.
ENTRY_POINTS = (
    ("head_meta_directives", "text"),
    ("extract_meta_robots", "root"),
    ("meta_robots", "root"),
)
AGENT = "webrobot"


def pages(count: int) -> list[HtmlResponse]:
    site = build_site(WebSpec(pages=count, sites=1), 0, [ORIGIN])
    responses = []
    for number, (path, page) in enumerate(site.items()):
        body = b"".join(page.chunks)
        if number % 4 == 1:
            tag = TAGS[(number // 4) % len(TAGS)].encode()
            body = body.replace(b"</title>", b"</title>" + tag, 1)
        responses.append(HtmlResponse(ORIGIN + path, body=body, encoding="utf-8"))
    return responses


def xpath_baseline(response: HtmlResponse) -> list[str]:
    """The Scrapy user's way: one XPath on the (cached) selector, names lower-cased."""
    contents = response.xpath(
        "//meta[translate(@name, 'ROBTSWE', 'robtswe')='robots' or "
        "translate(@name, 'ROBTSWE', 'robtswe')='webrobot']/@content"
    ).getall()
    return [d.strip().lower() for c in contents for d in c.split(",") if d.strip()]


def webrobot_extractor() -> tuple[Callable[[HtmlResponse], Any] | None, str]:
    try:
        module = importlib.import_module("webrobot.metarobots")
    except ImportError:
        return None, "NOTE: webrobot.metarobots is not available; only the baseline is measured"
    for name, reads in ENTRY_POINTS:
        func = getattr(module, name, None)
        if callable(func):
            if reads == "text":
                return (lambda r, f=func: f(r.text, AGENT)), f"webrobot.metarobots.{name}(response.text, {AGENT!r})"
            return (lambda r, f=func: f(r.selector.root, AGENT)), f"webrobot.metarobots.{name}(root, {AGENT!r})"
    names = ", ".join(name for name, _ in ENTRY_POINTS)
    return None, f"NOTE: webrobot.metarobots has none of {names}; add its entry point to ENTRY_POINTS in {__name__}"


def main() -> int:
    responses = pages(100 if quick() else 400)
    for response in responses:
        response.selector  # noqa: B018 - parse now, outside the timings
    ours, note = webrobot_extractor()
    print(f"{len(responses)} pages of {sum(len(r.body) for r in responses) // len(responses)} bytes on average")
    print(f"webrobot's extraction: {note}")
    rows = [("Scrapy XPath on the parsed page (baseline)", fmt_time(per_call(xpath_baseline, responses)))]
    if ours is not None:
        rows.append(("webrobot (text decoded and page parsed already)", fmt_time(per_call(ours, responses))))
    fresh = [r.body for r in responses]
    rows.append(("for scale: parsing the page (lxml via parsel)",
                 fmt_time(per_call(lambda b: HtmlResponse(ORIGIN, body=b, encoding="utf-8").selector.root,
                                   fresh, repeat=3))))  # fmt: skip
    print_table("per page (best of rounds)", ("extraction", "per page"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
