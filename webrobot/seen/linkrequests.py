"""The requests for a page's links, built only for links not visited or queued yet.

A page's links mostly point at pages the crawl has seen: building a
``Request`` for each (and the fingerprint, the parsed URL and the meta that
come with it) only for the scheduler's duplicate filter to drop it cost a
fifth of the crawler's CPU. With webrobot's visited-URL filter
(:class:`webrobot.seen.dupefilter.SeenUrlFilter`, the default ``DUPEFILTER_CLASS``)
and its fingerprinter, a link is judged by its URL alone: its fingerprint is
computed once, looked up (not added: the scheduler still adds it when it
queues the request), and handed to the request built for a new link so that
the scheduler does not compute it again. Links skipped here are counted in
``webrobot/links/already_seen``; with another duplicate filter every link
becomes a request, as in Scrapy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import Request

from webrobot.seen.dupefilter import link_filter

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from scrapy.crawler import Crawler

ALREADY_SEEN = "webrobot/links/already_seen"


def link_requests(
    crawler: Crawler, urls: Iterable[str], callback: Callable[..., Any]
) -> Iterator[Request]:
    """``Request(url, callback=callback)`` for each of ``urls`` the crawl has not visited or queued."""
    stats = crawler.stats
    assert stats is not None
    gate = link_filter(crawler)
    skipped = 0
    try:
        for url in urls:
            fingerprint = None
            if gate is not None:
                try:
                    seen, fingerprint = gate.link_seen(url)
                except ValueError:  # a URL the canonicaliser refuses: the request below says why
                    seen = False
                if seen:
                    skipped += 1
                    continue
            try:
                request = Request(url, callback=callback)
            except ValueError:  # a port that is no number: one bad link must not end the page
                stats.inc_value("webrobot/page/bad_link")
                continue
            if fingerprint is not None and gate is not None:
                gate.hand_over(request, fingerprint)
            yield request
    finally:
        if skipped:
            stats.inc_value(ALREADY_SEEN, skipped)
