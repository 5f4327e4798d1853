"""The per-host downloader honours the ``download_slot`` meta key a spider sets."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from scrapy import Request
from twisted.internet.defer import Deferred

from tests.components import webrobot_crawler
from webrobot.politeness.downloader import AUTO_SLOT_KEY, SiteDownloader
from webrobot.urls.sitekey import request_site


def with_downloader(check: Callable[[SiteDownloader], None]) -> None:
    """Run ``check`` on a downloader built inside a running asyncio loop, as in a crawl."""

    async def main() -> None:
        # No download handlers: nothing is downloaded, so no HTTP client is opened.
        downloader = SiteDownloader(
            webrobot_crawler(DOWNLOAD_HANDLERS={"http": None, "https": None})
        )
        try:
            check(downloader)
        finally:
            downloader.close()

    asyncio.run(main())


def test_slots_are_sites_unless_the_spider_names_one() -> None:
    def check(d: SiteDownloader) -> None:
        assert d.get_slot_key(Request("http://127.0.0.1:8001/a")) == "127.0.0.1:8001"
        # One host under two schemes is one slot; another port is another.
        assert d.get_slot_key(Request("https://shop.test/a")) == "shop.test"
        assert d.get_slot_key(Request("http://shop.test:80/b")) == "shop.test"
        assert d.get_slot_key(Request("https://shop.test:8443/b")) == "shop.test:8443"
        assert (
            d.get_slot_key(Request("http://127.0.0.1:8001/a", meta={"download_slot": "shared"}))
            == "shared"
        )

    with_downloader(check)


def test_a_slot_copied_by_a_redirect_is_not_the_spiders_choice() -> None:
    def check(d: SiteDownloader) -> None:
        first = Request("http://127.0.0.1:8001/a")
        key, _ = d._get_slot(first)
        first.meta["download_slot"] = key  # what Scrapy's downloader writes
        assert first.meta[AUTO_SLOT_KEY] == key
        moved = first.replace(url="http://127.0.0.1:8002/b")  # a redirect keeps the meta
        assert d.get_slot_key(moved) == "127.0.0.1:8002"

    with_downloader(check)


def test_a_named_slot_holds_several_sites_with_their_own_politeness() -> None:
    def check(d: SiteDownloader) -> None:
        a = Request("http://127.0.0.1:8001/a", meta={"download_slot": "shared"})
        b = Request("http://127.0.0.1:8002/b", meta={"download_slot": "shared"})
        key_a, slot_a = d._get_slot(a)
        key_b, slot_b = d._get_slot(b)
        assert key_a == key_b == "shared" and slot_a is slot_b
        assert (
            getattr(slot_a, "key", None) == ""
        )  # not one site: politeness is asked per request's site
        assert AUTO_SLOT_KEY not in a.meta
        assert (
            request_site(a) == "http://127.0.0.1:8001"
            and request_site(b) == "http://127.0.0.1:8002"
        )

    with_downloader(check)


def test_a_named_slot_asks_politeness_for_the_site_of_the_request_it_starts() -> None:
    """The slot starts its highest-priority request first: the reservation is that
    request's site's, not the site of the request that happens to wait in front."""

    def check(d: SiteDownloader) -> None:
        asked: list[str] = []
        started: list[Request] = []

        class Recording:
            def reserve(
                self, site: str, delay: float, source: str, now: float
            ) -> tuple[float, str]:
                asked.append(site)
                return 0.0, source

        async def download(slot: object, request: Request, queued: object) -> None:
            started.append(request)

        d.politeness = Recording()  # type: ignore[assignment]
        d._departed = None
        d._wait_for_download = download  # type: ignore[method-assign,assignment]
        low = Request("http://127.0.0.1:8001/a", priority=0, meta={"download_slot": "shared"})
        high = Request("http://127.0.0.1:8002/b", priority=5, meta={"download_slot": "shared"})
        _, slot = d._get_slot(low)
        slot.queue.extend([(low, Deferred()), (high, Deferred())])
        d._process_queue(slot)
        assert asked[0] == "127.0.0.1:8002", asked
        assert high in slot.transferring

    with_downloader(check)
