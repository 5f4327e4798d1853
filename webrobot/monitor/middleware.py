"""The monitor in the crawl: snapshots of each page's item, events, watch rules, webhook.

A spider middleware near the engine (``SPIDER_MIDDLEWARES`` 20): on the way in it
sees every response, a 404 or 410 included, before Scrapy's HttpError filter drops
it; on the way out it sees every item once the middlewares inside it (the
extractors) have filled it. A response's redirect chain (and that of a redirected
request the crawl dropped or refused) says which watched pages moved. Off unless
``WEBROBOT_MONITOR_DIR`` is set; its settings are read and checked by
:mod:`webrobot.monitor.options`. The rules are :mod:`webrobot.monitor.snapshot`,
:mod:`webrobot.monitor.watch` and :mod:`webrobot.monitor.moves`; the memory
is :mod:`webrobot.monitor.store`; the webhook and the notices are sent by the threads
of :mod:`webrobot.monitor.senders`.
"""

from __future__ import annotations

import logging
import sqlite3
import time as clock
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Self

from itemadapter import ItemAdapter
from scrapy import Request, signals

from webrobot import signals as webrobot_signals
from webrobot.extract.version import reader_version
from webrobot.job.diskstate import disk_of
from webrobot.monitor import events
from webrobot.monitor.baseline import (
    READER,
    RULES,
    SAME,
    how_to_judge,
    rebaselined_entry,
)  # fmt: skip
from webrobot.monitor.moves import TOLD_PREFIX, Move, moves, told_key
from webrobot.monitor.options import monitor_options
from webrobot.monitor.reportpart import ChangesTally
from webrobot.monitor.schedule import next_check
from webrobot.monitor.senders import close_senders, keep_digest, start_senders
from webrobot.monitor.sitetemplates import SiteTemplates
from webrobot.monitor.snapshot import Snapshot, changes, snapshot_of
from webrobot.monitor.store import PageRecord, PageStore
from webrobot.monitor.template import site_of
from webrobot.monitor.upkeep import keep_bounded, summary
from webrobot.monitor.watch import page_matches

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from webrobot.monitor.notify import NotifySender
    from webrobot.monitor.webhook import WebhookSender

logger = logging.getLogger(__name__)

#: Statuses that say a page is gone.
GONE = frozenset({404, 410})
#: Times a page is judged again when a shared store's copy changed under the judgement
#: (another worker recorded it first); then the page is left to that worker's events.
ATTEMPTS = 5


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def match_key(event: dict[str, Any]) -> str:
    """What a match is about, so a page's match is told once, not at every crawl."""
    evidence = event.get("evidence") or {}
    what = evidence.get("term") or evidence.get("text") or evidence.get("image") or ""
    return f"{event['rule']}|{event['kind']}|{what}"


class MonitorMiddleware:
    """Watches pages between crawls: snapshots of each page's item, events, watch rules, webhook."""

    def __init__(self, crawler: Crawler) -> None:
        options = monitor_options(crawler)
        self.crawler = crawler
        self.folder = options.folder
        from webrobot.extract.parts import monitored_keys

        #: Item keys the monitor reads; an item with none of them is not a page it can judge.
        self.content_keys = monitored_keys()
        self.rules = options.rules
        self.ignore = options.ignore
        self.selectors = options.selectors
        self.rules_print = options.rules_print
        self.reader = reader_version()
        self.rebaselined: dict[str, int] = {RULES: 0, READER: 0}
        # Each site's template: learnt in this crawl, kept with the state, left out of judgement.
        self.templates = SiteTemplates(options.template_min_pages)
        self._settled = False
        self.recheck = options.recheck
        #: re-checks by how often each page changes (:mod:`webrobot.monitor.schedule`), or None
        self.schedule = options.schedule
        self.webhook_url = options.webhook_url
        self.notify_urls = options.notify_urls
        self.notifier: NotifySender | None = None
        self.store_class = options.store_class
        self.store: PageStore | None = None
        self.sender: WebhookSender | None = None
        self.tally = ChangesTally(str(self.folder))
        self.watching = False  # the folder opened: the report has a changes section
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.report_part, signal=webrobot_signals.report_parts)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        # A redirect to a page this crawl already has, or refuses, is never a response.
        crawler.signals.connect(self.redirect_stopped, signal=signals.request_dropped)
        crawler.signals.connect(self.redirect_stopped, signal=webrobot_signals.request_refused)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _count(self, key: str, value: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key, value)

    # -- crawl life

    def spider_opened(self) -> None:
        try:
            self.store = self.store_class.open(self.crawler, self.folder, bool(self.webhook_url))
        except (OSError, sqlite3.Error) as exc:
            logger.error("Monitor off: %s cannot be used: %s", self.folder, exc)
            self._count("webrobot/monitor/error")
            return
        logger.info("Monitor: %s (%d pages known)", self.folder, len(self.store))
        self.watching = True
        self.sender, self.notifier = start_senders(
            self.crawler, self.folder, self.webhook_url, self.notify_urls, self._count,
            self.store.outbox(),
        )  # fmt: skip

    async def spider_closed(self) -> None:
        sender, self.sender = self.sender, None
        notifier, self.notifier = self.notifier, None
        spider = self.crawler.spider
        if self.store is not None:
            self.settle()  # the held pages' events and the summary's entries, for the digest
        if notifier is not None:
            name = str(getattr(spider, "name", "webrobot"))
            keep_digest(self.folder, name, self.notify_urls, self.tally.summary, self._count)
        if self.store is not None:
            try:
                self.store.write_feed(str(getattr(spider, "name", "webrobot")), _now())
            except OSError as exc:
                logger.error("Monitor: the feed in %s could not be written: %s", self.folder, exc)
                self._count("webrobot/monitor/error")
            keep_bounded(self.crawler, self.store, self.folder, self._count)
            self.store.close()
            self.store = None
        await close_senders(self.crawler, self.folder, sender, notifier)
        if self.watching:
            parked = 0
            if self.crawler.stats is not None:
                parked = int(self.crawler.stats.get_value("webrobot/monitor/webhook/parked", 0))
            if parked:
                self.tally.note(f"{parked} webhook {'event' if parked == 1 else 'events'} "
                                "parked (scrapy webrobot-replay sends them again)")  # fmt: skip
            self.tally.line = summary(self.crawler, self.folder, self.tally)
            logger.info("%s", self.tally.line)  # the line a person reads at the crawl's end

    def report_part(self, finished: bool) -> dict[str, Any]:
        """The crawl report's ``changes`` section (:mod:`webrobot.monitor.reportpart`); the
        last report, at the crawl's end, waits for :meth:`settle`."""
        if finished and self.store is not None:
            self.settle()
        if not self.watching:
            return {}
        self.tally.line = summary(self.crawler, self.folder, self.tally)
        return {"changes": self.tally.section()}

    # -- the spider middleware

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for request in start:
            yield request
        if not self.recheck or self.store is None:
            return
        if self.schedule is None:
            known = list(self.store.urls())
            if known:
                logger.info("Monitor: re-checking %d known pages", len(known))
        else:
            known = list(self.store.due(clock.time()))
            later = len(self.store) - len(known)
            logger.info("Monitor: re-checking %d known pages (%d not due yet)", len(known), later)
            if later:
                self._count("webrobot/monitor/recheck/not_due", later)
        for url in known:
            self._count("webrobot/monitor/recheck")
            yield Request(url)

    def process_spider_input(self, response: Response) -> None:
        if self.store is None:
            return
        request = getattr(response, "request", None)
        self._tell_moves(request.meta if request is not None else {}, response.url)
        if response.status in GONE:
            url = response.url
            for _ in range(ATTEMPTS):
                record = self.store.get(url)
                if record is None:
                    return  # unknown, or another worker told its removal
                if self._emit_forget(url, events.removed(url, _now(), response.status), record):
                    return
            self._count("webrobot/monitor/contended")

    # -- watched pages that redirect (the rules: webrobot.monitor.moves)

    def redirect_stopped(self, request: Request) -> None:
        """A request the crawl dropped (already seen) or refused: if redirects led to it,
        the watched pages of its chain moved there all the same."""
        if self.store is not None and request.meta.get("redirect_urls"):
            self._tell_moves(request.meta, request.url)

    def _tell_moves(self, meta: dict[str, Any], final: str) -> None:
        """A ``moved`` event for each watched URL of the redirect chain that led to ``final``."""
        chain = meta.get("redirect_urls") or ()
        if not chain:
            return
        try:
            for move in moves(chain, meta.get("redirect_reasons") or (), final):
                for _ in range(ATTEMPTS):
                    assert self.store is not None
                    record = self.store.get(move.url)
                    if record is None or self._tell_move(move, record):
                        break  # not watched, or told
                else:
                    self._count("webrobot/monitor/contended")
        except Exception as exc:  # the store: one page, never the crawl
            if isinstance(exc, OSError) and disk_of(self.crawler).write_failed(
                "monitor", self.folder, exc
            ):
                return
            logger.exception("Monitor: the redirects to %s could not be judged", final)
            self._count("webrobot/monitor/error")

    def _tell_move(self, move: Move, record: PageRecord) -> bool:
        """Tell one move (False when a shared store's record changed in between). A
        permanent move forgets the old address; a temporary one keeps it, told once per
        target."""
        assert self.store is not None
        time = _now()
        event = events.moved(move.url, time, move.to, move.status, move.permanent)
        if move.permanent:
            return self._emit_forget(move.url, event, record)
        key = told_key(move)
        if key in record.matches:
            return True  # told at an earlier crawl: still there
        kept = {m for m in record.matches if not m.startswith(TOLD_PREFIX)} | {key}
        if not self.store.record(move.url, record.snapshot, kept, time, [event], expected=record):
            return False
        self._told(event)
        return True

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        for output in result:
            self._look(response, output)
            yield output

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        async for output in result:
            self._look(response, output)
            yield output

    # -- judging an item

    def _ignored_text(self, response: Response) -> list[str]:
        if not self.selectors or not hasattr(response, "css"):
            return []
        out = []
        for selector in self.selectors:
            for node in response.css(selector):
                out.append("\n".join(t.strip() for t in node.css("::text").getall() if t.strip()))
        return out

    def _look(self, response: Response, output: Any) -> None:
        if self.store is None or isinstance(output, Request) or not ItemAdapter.is_item(output):
            return
        adapter = ItemAdapter(output)
        item = {key: adapter.get(key) for key in self.content_keys if key in adapter}
        if not any(_says_something(item.get(key)) for key in self.content_keys):
            self._count("webrobot/monitor/skipped/no_content")
            return
        if "title" in adapter:
            item["title"] = adapter.get("title")
        url = str(adapter.get("url") or response.url)
        try:
            self._judge(url, item, response)
        except Exception as exc:  # store, rules, pictures: one page, never the crawl
            if isinstance(exc, OSError) and disk_of(self.crawler).write_failed(
                "monitor", self.folder, exc
            ):
                return  # a full disk: logged once, counted, the crawl closes
            logger.exception("Monitor: %s could not be judged", url)
            self._count("webrobot/monitor/error")

    def _judge(self, url: str, item: dict[str, Any], response: Response) -> None:
        assert self.store is not None
        snapshot = snapshot_of(item, self.ignore, self._ignored_text(response))
        snapshot = snapshot.under(self.rules_print, self.reader)
        self._count("webrobot/monitor/pages")
        self.templates.add(url, snapshot.text)
        matches = page_matches(self.rules, url, _now(), item)
        for _ in range(ATTEMPTS):
            if self._judge_once(url, snapshot, matches):
                return
        # Another worker kept recording this page: its events tell the change.
        logger.warning("Monitor: %s changed under %d judgements; left to another worker",
                       url, ATTEMPTS)  # fmt: skip
        self._count("webrobot/monitor/contended")

    def _hold(self, url: str, snapshot: Snapshot, matches: list[dict[str, Any]]) -> bool:
        """Keep a changed page for the end of the crawl, when its site's template is known."""
        assert self.store is not None
        held = self.templates.hold(url, snapshot, matches, shared=self.store.shared_by_workers())
        if held is None:
            self._count("webrobot/monitor/template/not_held")
        return bool(held)

    def _judge_once(
        self, url: str, snapshot: Snapshot, matches: list[dict[str, Any]],
        template: frozenset[str] | None = None,
    ) -> bool:  # fmt: skip
        """Judge the page against the stored snapshot and record both; False when a shared
        store's snapshot changed in between (nothing recorded, nothing counted). Without a
        ``template`` (during the crawl) a changed page may be held for :meth:`settle`."""
        assert self.store is not None
        time = _now()
        record = self.store.get(url)
        found: list[dict[str, Any]] = []
        counts: list[str] = []
        how = SAME
        if record is None:
            title = snapshot.fields.get("title")
            found.append(events.new(url, time, title))
            told: frozenset[str] = frozenset()
        else:
            told = record.matches
            old = record.snapshot
            how = how_to_judge(old.rules, old.reader, self.rules_print, self.reader)
            if how != SAME:
                self.templates.rebaselined.add(site_of(url))
            forms = self.templates.kept(self.store, url) if template is None else template
            diff = [] if how == READER else changes(old, snapshot, self.ignore, forms, how == RULES)
            if diff and template is None and self._hold(url, snapshot, matches):
                return True
            if diff:
                found.append(events.changed(url, time, diff))
            else:
                counts.append(
                    "webrobot/monitor/unchanged" if how == SAME else "webrobot/monitor/rebaselined"
                )
        keys = {match_key(m) for m in matches}
        found += [m for m in matches if match_key(m) not in told]
        for event in found:
            counts.append(f"webrobot/monitor/events/{event['event']}")
            if event["event"] == "match":
                counts.append(f"webrobot/monitor/match/{event['kind']}")
        if not self.store.record(url, snapshot, keys, time, found, expected=record):
            return False
        if how != SAME:
            self.rebaselined[how] += 1
        for key in counts:
            self._count(key)
        self._scheduled(url, found)
        for event in found:
            self.tally.add(event)
        if found and self.sender is not None:
            self.sender.wake()
        return True

    def _scheduled(self, url: str, found: list[dict[str, Any]]) -> None:
        """The page's next re-check: soon when it changed or is new, later when not."""
        if self.schedule is None or self.store is None:
            return
        changed = any(e["event"] in ("new", "changed") for e in found)
        self.store.set_check(
            url, next_check(self.schedule, self.store.check(url), clock.time(), changed)
        )

    # -- the end of a crawl: templates learnt, held pages judged, the summary

    def settle(self) -> None:
        """Learn each site's template from this crawl's pages (telling a change of it
        once), judge the pages held for it, and put the re-baselined pages in the summary.
        Once a crawl: at its end, for the report or when the monitor closes."""
        if self._settled:
            return
        self._settled = True
        assert self.store is not None
        templates: dict[str, frozenset[str]] = {}
        for site in self.templates.learner.sites():
            try:
                learnt = self.templates.learn(self.store, site, _now())
                if learnt is None:
                    self._count("webrobot/monitor/contended")
                    continue
                templates[site], found, first = learnt
                if first:
                    self._count("webrobot/monitor/template/learnt")
                for event in found:
                    self._told(event)
            except Exception as exc:  # noqa: BLE001 - the store: one site, never the close
                self._failed(f"the template of {site}", exc)
        for page in self.templates.take():
            try:
                forms = templates.get(site_of(page.url)) or self.templates.kept(
                    self.store, page.url
                )
                for _ in range(ATTEMPTS):
                    if self._judge_once(page.url, page.snapshot, page.matches, forms):
                        break
                else:
                    self._count("webrobot/monitor/contended")
            except Exception as exc:  # noqa: BLE001 - the store: one page, never the close
                self._failed(page.url, exc)
        try:
            self.tally.learnt(self.store.templates())
        except Exception as exc:  # noqa: BLE001 - the store: the report shows no templates
            self._failed("the templates", exc)
        line = rebaselined_entry(self.rebaselined[RULES], self.rebaselined[READER])
        if line:  # logged in the crawl's summary line: no events for what that alone changed
            self.tally.rebaselined = sum(self.rebaselined.values())
            self.tally.note(line)

    def _failed(self, what: str, exc: Exception) -> None:
        if isinstance(exc, OSError) and disk_of(self.crawler).write_failed(
            "monitor", self.folder, exc
        ):
            return
        logger.error("Monitor: %s could not be judged: %s", what, exc)
        self._count("webrobot/monitor/error")

    def _emit_forget(self, url: str, event: dict[str, Any], record: PageRecord) -> bool:
        assert self.store is not None
        if not self.store.forget(url, [event], expected=record):
            return False
        self._told(event)
        return True

    def _told(self, event: dict[str, Any]) -> None:
        """A page's one event was recorded: count it, tally it, wake the webhook."""
        self.tally.add(event)
        self._count(f"webrobot/monitor/events/{event['event']}")
        if self.sender is not None:
            self.sender.wake()


def _says_something(value: Any) -> bool:
    """Whether a mined value holds anything: a metadata dict of nulls says nothing."""
    if isinstance(value, dict):
        return any(_says_something(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_says_something(v) for v in value)
    if isinstance(value, str):
        return bool(value.strip())
    return value is not None
