"""Link extraction per page: webrobot's ``summarise_html`` (title and links
from the page's one parse) against Scrapy's ``LinkExtractor`` (what a
``CrawlSpider`` rule runs), on benchmark pages already parsed."""

from __future__ import annotations

from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor

from benchmarks.micro import fmt_time, per_call, print_table, size
from benchmarks.web import WebSpec, build_site
from webrobot.pages.page import summarise_html

ORIGIN = "http://127.0.0.1:8000"


def pages(count: int) -> list[HtmlResponse]:
    site = build_site(WebSpec(pages=count, sites=1), 0, [ORIGIN])
    return [
        HtmlResponse(ORIGIN + path, body=b"".join(p.chunks), encoding="utf-8")
        for path, p in site.items()
    ]


def main() -> int:
    responses = pages(size(400, 100, 10))
    for response in responses:
        response.selector  # noqa: B018 - parse now, outside the timings
    extractor = LinkExtractor()
    ours = sum(len(summarise_html(r.selector.root, r.url).links) for r in responses)
    theirs = sum(len(extractor.extract_links(r)) for r in responses)
    print(f"{len(responses)} pages; links found: webrobot {ours}, LinkExtractor {theirs}")
    rows = [
        ("webrobot summarise_html (links + title)",
         fmt_time(per_call(lambda r: summarise_html(r.selector.root, r.url), responses))),
        ("Scrapy LinkExtractor().extract_links",
         fmt_time(per_call(extractor.extract_links, responses))),
    ]  # fmt: skip
    print_table("per page, parsed already (best of rounds)", ("extraction", "per page"), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
