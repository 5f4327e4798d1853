"""Meta-robots extraction per page, on benchmark pages (a quarter of them carry
``<meta name="robots">`` or ``<meta name="webrobot">`` tags).

Measured on pages already parsed (the crawl parses each page once, for links,
title and meta robots together); the parse itself is shown for scale. The
baseline is what a Scrapy user writes: one XPath query on the response's
selector; webrobot's is :func:`webrobot.pages.metarobots.head_meta_directives`.
"""

from __future__ import annotations

from scrapy.http import HtmlResponse

from benchmarks.micro import fmt_time, per_call, print_table, size
from benchmarks.web import WebSpec, build_site
from webrobot.pages.metarobots import head_meta_directives

ORIGIN = "http://127.0.0.1:8000"
TAGS = (
    '<meta name="robots" content="noindex">',
    '<meta name="robots" content="nofollow, noarchive">',
    '<meta name="ROBOTS" content="NONE">',
    '<meta name="webrobot" content="noindex"><meta name="robots" content="all">',
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


def webrobot_extractor(response: HtmlResponse) -> list[str]:
    """What the crawl runs: a scan of the decoded head, no tree needed."""
    return head_meta_directives(response.text, AGENT)


def main() -> int:
    responses = pages(size(400, 100, 10))
    for response in responses:
        response.selector  # noqa: B018 - parse now, outside the timings
    print(
        f"{len(responses)} pages of {sum(len(r.body) for r in responses) // len(responses)} bytes on average"
    )
    print(
        f"webrobot's extraction: webrobot.pages.metarobots.head_meta_directives(response.text, {AGENT!r})"
    )
    rows = [
        (
            "Scrapy XPath on the parsed page (baseline)",
            fmt_time(per_call(xpath_baseline, responses)),
        ),
        (
            "webrobot (text decoded and page parsed already)",
            fmt_time(per_call(webrobot_extractor, responses)),
        ),
    ]
    fresh = [r.body for r in responses]
    rows.append(("for scale: parsing the page (lxml via parsel)",
                 fmt_time(per_call(lambda b: HtmlResponse(ORIGIN, body=b, encoding="utf-8").selector.root,
                                   fresh, repeat=3))))  # fmt: skip
    print_table("per page (best of rounds)", ("extraction", "per page"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
