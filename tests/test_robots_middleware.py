"""The robots middleware's switches and per-request checks, built from a crawler."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured, StopDownload
from scrapy.utils.test import get_crawler

from webrobot import settings as project_settings
from webrobot.robots.held import PendingSite as _Pending
from webrobot.robots.middleware import HELD_FILE, RobotsMiddleware
from webrobot.robots.parsers import FirstMatchRobotParser, Rfc9309RobotParser
from webrobot.robots.policy import (
    FORBIDDEN,
    RULES,
    UNAVAILABLE,
    UNREACHABLE,
    Deferral,
    RobotsDecision,
)
from webrobot.settingsmodel.parse import SettingValueError

#: The checkpoint files under JOBDIR serve Scrapy's own scheduler (webrobot's keeps its
#: job state in the frontier database instead, see tests/test_crashsafe_crawl.py).
SCRAPY_SCHEDULER = "scrapy.core.scheduler.Scheduler"

SETTINGS = {k: v for k, v in vars(project_settings).items() if k.isupper()}


def middleware(**overrides: Any) -> RobotsMiddleware:
    crawler = get_crawler(settings_dict={**SETTINGS, **overrides})
    crawler._apply_settings()
    return RobotsMiddleware.from_crawler(crawler)


def test_switched_off_and_misconfigured() -> None:
    with pytest.raises(NotConfigured):
        middleware(ROBOTSTXT_OBEY=False)
    with pytest.raises(
        SettingValueError,
        match="WEBROBOT_ROBOTS_MATCHING='longest': expected no value: ROBOTSTXT_PARSER",
    ):
        middleware(WEBROBOT_ROBOTS_MATCHING="longest")
    with pytest.raises(
        SettingValueError,
        match="WEBROBOT_ROBOTS_AUTH_POLICY='maybe': expected one of disallow, allow",
    ):
        middleware(WEBROBOT_ROBOTS_AUTH_POLICY="maybe")


def test_the_parser_setting_picks_the_matching() -> None:
    assert middleware().parser_cls is Rfc9309RobotParser
    first_match = "webrobot.robots.parsers.FirstMatchRobotParser"
    assert middleware(ROBOTSTXT_PARSER=first_match).parser_cls is FirstMatchRobotParser
    assert middleware(
        ROBOTSTXT_PARSER="scrapy.robotstxt.ProtegoRobotParser"
    ).parser_cls.__name__ == ("ProtegoRobotParser")


def test_which_requests_are_checked() -> None:
    mw = middleware()
    assert mw._applies(Request("http://a/x"))
    assert mw._applies(Request("https://a/x"))
    assert not mw._applies(Request("http://a/x", meta={"dont_obey_robotstxt": True}))
    assert not mw._applies(Request("data:,hello"))


def test_decisions_allow_refuse_and_count() -> None:
    mw = middleware()
    site = "http://a:80"
    rules = RobotsDecision(site, RULES, 200, 0, 1, body=b"User-agent: webrobot\nDisallow: /no\n")
    mw._check(rules, Request("http://a/yes"))
    with pytest.raises(IgnoreRequest):
        mw._check(rules, Request("http://a/no"))
    assert rules.parser is not None, "rebuilt from the body (a cache that keeps bytes only)"
    mw._check(RobotsDecision(site, UNAVAILABLE, 404, 0, 1), Request("http://a/no"))
    with pytest.raises(IgnoreRequest):
        mw._check(RobotsDecision(site, FORBIDDEN, 403, 0, 1), Request("http://a/yes"))
    with pytest.raises(IgnoreRequest):
        mw._check(RobotsDecision(site, UNREACHABLE, 503, 0, 1), Request("http://a/yes"))
    stats = mw.crawler.stats
    assert stats is not None
    assert stats.get_value("robotstxt/forbidden") == 2
    assert stats.get_value("webrobot/robots/deferred_gave_up") == 1


def test_bytes_beyond_the_parse_limit_stop_the_download() -> None:
    mw = middleware(WEBROBOT_ROBOTS_PARSE_LIMIT=10)
    request = Request("http://a/robots.txt", meta={"_robots_fetch": True})
    mw._bytes_received(b"x" * 6, request)
    with pytest.raises(StopDownload):
        mw._bytes_received(b"x" * 6, request)
    mw._bytes_received(b"x" * 100, Request("http://a/page"))  # other downloads are left alone


def _close_with_held(mw: RobotsMiddleware, *requests: Request) -> None:
    for request in requests:
        site = request.url.rsplit("/", 1)[0]
        mw.pending.setdefault(site, _Pending(site, f"{site}/robots.txt")).held.append(request)
    mw._spider_closed()


def test_held_requests_are_kept_under_jobdir_and_scheduled_on_resume(tmp_path: Path) -> None:
    held = [
        Request("http://a/1", meta={"_robots_requeued": True}),
        Request("http://b/2", priority=3),
    ]
    mw = middleware(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    _close_with_held(mw, *held)
    assert (tmp_path / HELD_FILE).exists()
    assert mw.stats.get_value("webrobot/robots/held_at_close") == 2

    resumed = middleware(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    crawled: list[Request] = []
    resumed.crawler.engine = SimpleNamespace(crawl=crawled.append)  # type: ignore[assignment]
    resumed._spider_opened()
    assert [(r.url, r.priority, r.meta.get("_robots_requeued")) for r in crawled] == [
        ("http://a/1", 0, True), ("http://b/2", 3, None)]  # fmt: skip
    assert resumed.stats.get_value("webrobot/robots/held_resumed") == 2
    assert not (tmp_path / HELD_FILE).exists(), "scheduled once, not at every resume"


def test_held_requests_are_not_kept_without_jobdir_or_with_a_shared_frontier(
    tmp_path: Path,
) -> None:
    _close_with_held(middleware(), Request("http://a/1"))
    _close_with_held(
        middleware(
            JOBDIR=str(tmp_path),
            SCHEDULER=SCRAPY_SCHEDULER,
            WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS=False,
        ),
        Request("http://a/1"),
    )
    assert not (tmp_path / HELD_FILE).exists(), "the shared frontier still leases them"


def scheduled(mw: RobotsMiddleware, request: Request) -> bool:
    """Whether the request goes on to the scheduler (False: refused as it was scheduled)."""
    try:
        mw._request_scheduled(request)
    except IgnoreRequest:
        return False
    return True


def test_requests_a_known_decision_disallows_are_refused_when_scheduled() -> None:
    from webrobot.seen.dupefilter import SeenUrlFilter

    mw = middleware()
    seen = SeenUrlFilter.from_crawler(mw.crawler)
    seen.open()
    now = time.time()
    body = b"User-agent: *\nDisallow: /no\nDisallow: /robots.txt\n"
    mw.cache.put("http://a:80", RobotsDecision("http://a:80", RULES, 200, now, now + 60, body=body))
    mw.cache.put("http://b:80", RobotsDecision("http://b:80", RULES, 200, now - 60, now - 1,
                                               body=body))  # fmt: skip
    mw.cache.put("http://c:80", RobotsDecision("http://c:80", UNREACHABLE, 503, now, now + 60))
    assert scheduled(mw, Request("http://a/yes"))
    assert not scheduled(mw, Request("http://a/no/1"))
    assert scheduled(mw, Request("http://a/no/1")), "already visited: the scheduler drops it"
    assert not scheduled(mw, Request("http://a/no/2", dont_filter=True))
    assert not scheduled(mw, Request("http://a/no/2", dont_filter=True)), "not filtered: refused"
    assert not scheduled(mw, Request("http://c/anything"))
    # As before: an expired decision, an unknown site, the robots.txt URL, the opt-out.
    assert scheduled(mw, Request("http://b/no/1")), "expired: decided again when dequeued"
    assert scheduled(mw, Request("http://d/no/1")), "not decided yet"
    assert scheduled(mw, Request("http://a/robots.txt"))
    assert scheduled(mw, Request("http://a/no/3", meta={"dont_obey_robotstxt": True}))
    stats = mw.crawler.stats
    assert stats is not None
    assert stats.get_value("robotstxt/forbidden") == 3
    assert stats.get_value("webrobot/robots/deferred_gave_up") == 1
    assert seen.request_seen(Request("http://a/no/1")), "marked visited when refused"
    assert not seen.request_seen(Request("http://b/no/1"))


def test_without_a_known_visited_filter_requests_wait_for_the_scheduler() -> None:
    mw = middleware()
    now = time.time()
    body = b"User-agent: *\nDisallow: /no\n"
    mw.cache.put("http://a:80", RobotsDecision("http://a:80", RULES, 200, now, now + 60, body=body))
    assert scheduled(mw, Request("http://a/no/1")), "no filter to mark it visited: refused later"
    with pytest.raises(IgnoreRequest):
        mw._check(RobotsDecision("http://a:80", RULES, 200, now, now + 60, body=body),
                  Request("http://a/no/1"))  # fmt: skip


def test_only_held_requests_left_close_the_crawl_after_the_limit_unless_work_comes() -> None:
    from scrapy.exceptions import CloseSpider, DontCloseSpider

    from webrobot import signals

    mw = middleware(WEBROBOT_ROBOTS_HELD_ONLY_MAX=60)
    sent: list[dict[str, Any]] = []
    mw.crawler.signals.connect(
        lambda **kw: sent.append(kw), signal=signals.held_sites_only, weak=False
    )
    site = "http://dead.test:80"
    pending = _Pending(site, f"{site}/robots.txt")
    pending.held.append(Request("http://dead.test/"))
    pending.last_reason = "DownloadConnectionRefusedError"
    mw.pending[site] = pending

    with pytest.raises(DontCloseSpider):
        mw._spider_idle()
    assert [(s["sites"], s["closes_in"], s["active"]) for s in sent] == [([site], 60.0, True)]
    # A request of the held site is held too: still nothing else to do.
    with pytest.raises(IgnoreRequest):
        mw._request_scheduled(Request("http://dead.test/more"))
    assert mw.held_only.since is not None
    # Another site's request is work: the clock stops, and says so.
    mw._request_scheduled(Request("http://alive.test/"))
    assert mw.held_only.since is None and sent[-1]["active"] is False

    with pytest.raises(DontCloseSpider):
        mw._spider_idle()  # the clock starts again from zero
    mw.held_only.since = time.monotonic() - 61
    with pytest.raises(CloseSpider) as closed:
        mw._spider_idle()
    assert closed.value.reason == "held_sites_only"
    report = mw._report_part()["held"]
    assert [(r["site"], r["requests"]) for r in report] == [(site, 2)]
    mw._spider_closed(reason="held_sites_only")
    line = mw.stats.get_value("webrobot/robots/held_only_closed")
    assert f"{site} (DownloadConnectionRefusedError" in line and "2 requests held" in line
    assert mw.stats.get_value("webrobot/robots/held_only_sites") == 1
    assert mw.stats.get_value("webrobot/robots/held_at_close") == 2


def test_a_worker_of_a_shared_crawl_does_not_close_for_held_requests() -> None:
    """The shared frontier decides when a shared crawl ends (WEBROBOT_REDIS_IDLE_CLOSE)."""
    mw = middleware(WEBROBOT_ROBOTS_HELD_ONLY_MAX=60, WEBROBOT_REDIS_URL="redis://127.0.0.1:1/0")
    assert mw.held_only.limit == 0


def test_without_a_held_only_limit_held_requests_keep_the_crawl_open() -> None:
    from scrapy.exceptions import DontCloseSpider

    mw = middleware(WEBROBOT_ROBOTS_HELD_ONLY_MAX=0)
    site = "http://dead.test:80"
    mw.pending[site] = _Pending(site, f"{site}/robots.txt", held=[Request("http://dead.test/")])
    mw.held_only.since = time.monotonic() - 1e6
    with pytest.raises(DontCloseSpider):
        mw._spider_idle()


class LookupOnlyCache:
    """A robots cache with the three methods every cache has, and no optional part."""

    def __init__(self) -> None:
        self.entries: dict[str, Any] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> LookupOnlyCache:
        return cls()

    def get(self, site: str) -> Any:
        return self.entries.get(site)

    def put(self, site: str, decision: Any) -> None:
        self.entries[site] = decision

    def __len__(self) -> int:
        return len(self.entries)


class ClaimingCache(LookupOnlyCache):
    """Shared by workers (claims), without shared deferrals."""

    poll_interval = 0.1

    def claim(self, site: str, *, stale: bool | None = None) -> bool:
        return True

    def stale_in_use(self, site: str) -> bool:
        return False

    def release(self, site: str) -> None:
        pass


def test_the_caches_optional_parts_are_used_where_it_has_them() -> None:
    default = middleware()
    assert default.peek is not None and default.peek.__self__ is default.cache  # LruRobotsCache
    assert default.shared is None and default.claims is None
    plain = middleware(WEBROBOT_ROBOTS_CACHE_CLASS=f"{__name__}.LookupOnlyCache")
    assert plain.peek is None and plain.shared is None and plain.claims is None
    claiming = middleware(WEBROBOT_ROBOTS_CACHE_CLASS=f"{__name__}.ClaimingCache")
    assert claiming.shared is claiming.cache and claiming.claims is not None
    assert claiming.peek is None
    site = "http://a:80"
    pending = _Pending(site, f"{site}/robots.txt")
    assert claiming.claims.shared_deferral_wait(pending) == 0.0, "no shared deferrals to read"
    pending.deferral = Deferral(first_failure=time.monotonic(), attempts=1)
    claiming.claims.note_deferral(pending, 5.0)  # nowhere to note it: nothing happens
