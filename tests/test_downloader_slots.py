"""The per-host downloader honours the ``download_slot`` meta key a spider sets."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from scrapy import Request
from twisted.internet.defer import Deferred

from tests.components import webrobot_crawler
from webrobot.politeness.downloader import AUTO_SLOT_KEY, SiteDownloader
from webrobot.urls.networkmiddleware import RESOLVED_ADDRESS
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


def _unit_downloader(unit: str, check: Callable[[SiteDownloader], None]) -> None:
    async def main() -> None:
        downloader = SiteDownloader(
            webrobot_crawler(
                DOWNLOAD_HANDLERS={"http": None, "https": None}, WEBROBOT_POLITENESS_UNIT=unit
            )
        )
        try:
            check(downloader)
        finally:
            downloader.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("unit", "urls", "keys"),
    [
        ("host", ["http://a.test/", "https://a.test/x", "http://b.test/"], ["a.test", "a.test", "b.test"]),
        ("ip", ["http://a.test/", "https://b.test/x", "http://c.test:8080/"], ["127.0.0.5", "127.0.0.5", "127.0.0.5:8080"]),
        ("domain", ["http://www.a.test/", "https://static.a.test/", "http://b.test/"], ["a.test", "a.test", "b.test"]),
    ],
)  # fmt: skip
def test_slots_follow_the_politeness_unit(unit: str, urls: list[str], keys: list[str]) -> None:
    def check(d: SiteDownloader) -> None:
        requests = [Request(u, meta={RESOLVED_ADDRESS: "127.0.0.5"}) for u in urls]
        assert [d._get_slot(r)[0] for r in requests] == keys

    _unit_downloader(unit, check)


@pytest.mark.parametrize("unit", ["host", "ip"])
def test_a_units_crawl_delay_is_the_longest_of_its_robots_txt_files(unit: str) -> None:
    def check(d: SiteDownloader) -> None:
        delays: dict[str, float | None] = {}

        class Recording:
            def set_robots_delay(
                self, site: str, seconds: float | None, source: str | None
            ) -> None:
                delays[site] = seconds

        d.politeness = Recording()  # type: ignore[assignment]
        d._get_slot(Request("http://shop.test/", meta={RESOLVED_ADDRESS: "127.0.0.5"}))
        key = "shop.test" if unit == "host" else "127.0.0.5"
        d._robots_resolved(
            "https://shop.test:443", crawl_delay=2.0, crawl_delay_source="crawl_delay"
        )
        d._robots_resolved("http://shop.test:80", crawl_delay=0.5, crawl_delay_source="crawl_delay")
        assert delays == {key: 2.0}, "https's longer delay holds for http's requests too"
        d._robots_resolved("https://shop.test:443", crawl_delay=None)
        assert delays == {key: 0.5}

    _unit_downloader(unit, check)
