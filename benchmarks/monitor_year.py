"""A year of weekly re-crawls of one site through the monitor: how big its state grows,
and what the re-checks cost.

Not a crawl: a simulation that drives the monitor's own store
(:class:`webrobot.monitor.store.MonitorStore`), snapshots, change judgement and
re-check schedule (:mod:`webrobot.monitor.schedule`) as the crawl's middleware does,
for ``--crawls`` weekly crawls (52) of a site of ``--pages`` pages (10,000). Each page
has about 20 sentences of generated text, 30 % a price too; before each crawl the
site changes with a realistic mix: 3 % of the pages change nearly every week (listings,
front pages), 12 % about every five weeks, 25 % a few times a year, 60 % almost never
(0.5 % a week); 0.3 % of the pages are removed (a 404) and as many new ones linked.
Every crawl ends as a real one does: the store is compacted and ``events.jsonl``
rotated by size.

Two ways of re-checking are compared: every known page at every crawl (the monitor's
default), and by change rate (``WEBROBOT_MONITOR_RECHECK_INTERVAL`` one week,
``..._MAX_INTERVAL`` eight weeks). For each: the pages fetched, the changes found and
how many weeks after they happened, the intermediate versions never seen, and the
state's size on disk (SQLite file, its WAL, ``events.jsonl`` and its rotated files)
after crawls 1, 13, 26 and 52.

``python -m benchmarks.monitor_year`` (under a minute on 2 cores, the scheduled way
only), ``--compare`` adds the every-page way, ``--quick`` runs 1,000 pages.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from webrobot.monitor import events
from webrobot.monitor.schedule import next_check, rules
from webrobot.monitor.snapshot import changes, snapshot_of
from webrobot.monitor.store import MonitorStore

WEEK = 7 * 86400.0
#: (share of the pages, chance that one changes in a week)
MIX = ((0.03, 0.9), (0.12, 0.2), (0.25, 0.03), (0.60, 0.005))
#: share of the pages removed each week (as many new ones are added)
CHURN = 0.003
SENTENCES = 20
PRODUCTS = 0.3
#: the first crawl: a Monday
START = datetime(2027, 1, 4, 6, 0, tzinfo=UTC).timestamp()
CHECKPOINTS = (1, 13, 26, 52)


def _vocabulary(count: int = 4000) -> list[str]:
    rng = random.Random(7)
    syllables = ["ka", "lo", "mi", "ten", "ar", "vo", "shi", "pre", "dun", "el", "ost", "ri"]
    return ["".join(rng.choices(syllables, k=rng.randint(1, 4))) for _ in range(count)]


VOCABULARY = _vocabulary()


def sentence(page: int, slot: int, revision: int) -> str:
    rng = random.Random(page * 7919 + slot * 104729 + revision * 1299709)
    words = rng.choices(VOCABULARY, k=rng.randint(8, 22))
    return " ".join(words).capitalize() + "."


@dataclass
class Page:
    number: int
    weekly_change: float
    product: bool
    revisions: list[int] = field(default_factory=lambda: [0] * SENTENCES)
    price: int = 0
    alive: bool = True
    #: the week of the oldest change no check has seen yet
    unseen_since: int | None = None
    unseen_versions: int = 0
    _text: str = ""

    @property
    def url(self) -> str:
        return f"https://site.example/page/{self.number}"

    def item(self) -> dict[str, Any]:
        if not self._text:  # the page's text, made again only when it changed
            self._text = "\n".join(
                sentence(self.number, j, r) for j, r in enumerate(self.revisions)
            )
        item: dict[str, Any] = {"main_text": self._text}
        if self.product:
            item["product"] = {"price": f"{19 + self.price}.99", "currency": "EUR"}
        return item

    def change(self, rng: random.Random, week: int) -> None:
        if self.product and rng.random() < 0.5:
            self.price += 1
        else:
            self.revisions[rng.randrange(SENTENCES)] += 1
            self._text = ""
        if self.unseen_since is None:
            self.unseen_since = week
        self.unseen_versions += 1


@dataclass
class Year:
    """What one way of re-checking did over the simulated year."""

    way: str
    fetched: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    state: dict[int, dict[str, int]] = field(default_factory=dict)
    delays: list[int] = field(default_factory=list)  # weeks from a change to its event
    unseen_versions: int = 0  # versions overwritten before any check saw them
    changed_events: int = 0
    removal_delays: list[int] = field(default_factory=list)
    seconds: float = 0.0


def state_size(folder: Path) -> dict[str, int]:
    """Bytes on disk: the SQLite store (with its WAL) and the events files."""
    sizes = {"store": 0, "events": 0}
    for path in folder.iterdir():
        if path.name.startswith("monitor.sqlite3"):
            sizes["store"] += path.stat().st_size
        elif path.name.startswith("events.jsonl"):
            sizes["events"] += path.stat().st_size
    sizes["total"] = sizes["store"] + sizes["events"]
    return sizes


def _iso(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def simulate(
    folder: Path, pages: int, crawls: int, *, scheduled: bool, seed: int = 1,
    max_bytes: int = 64 * 1024 * 1024, files: int = 4,
    interval: float = WEEK, max_interval: float = 8 * WEEK,
) -> Year:  # fmt: skip
    """Run ``crawls`` weekly crawls of a site of ``pages`` pages through the monitor's
    store in ``folder``; ``scheduled``: re-check by change rate, else every page."""
    rng = random.Random(seed)
    schedule = rules(interval, max_interval) if scheduled else None
    site: dict[str, Page] = {}
    numbers = iter(range(10**9))

    def add_page() -> Page:
        pick, weekly = rng.random(), MIX[-1][1]
        for share, chance in MIX:
            if pick < share:
                weekly = chance
                break
            pick -= share
        page = Page(next(numbers), weekly, rng.random() < PRODUCTS)
        site[page.url] = page
        return page

    for _ in range(pages):
        add_page()
    year = Year("by change rate" if scheduled else "every page, every crawl")
    store = MonitorStore(folder)
    started = time.perf_counter()
    try:
        for week in range(1, crawls + 1):
            now = START + (week - 1) * WEEK
            fresh: list[str] = []
            if week > 1:  # the site changes between two crawls
                for page in site.values():
                    if page.alive and rng.random() < page.weekly_change:
                        page.change(rng, week)
                alive = [p for p in site.values() if p.alive]
                for page in rng.sample(alive, int(len(alive) * CHURN)):
                    page.alive, page.unseen_since = False, week
                fresh = [add_page().url for _ in range(int(len(alive) * CHURN))]
            known = list(store.due(now) if schedule else store.urls())
            linked = fresh if week > 1 else list(site)
            fetched = list(dict.fromkeys(known + linked))
            told = 0
            for url in fetched:
                page = site[url]
                time_text = _iso(now)
                record = store.get(url)
                if not page.alive:
                    if record is not None:
                        store.forget(url, [events.removed(url, time_text, 404)], record)
                        told += 1
                        year.removal_delays.append(week - (page.unseen_since or week))
                    continue
                snapshot = snapshot_of(page.item())
                if record is None:
                    found = [events.new(url, time_text)]
                else:
                    diff = changes(record.snapshot, snapshot)
                    found = [events.changed(url, time_text, diff)] if diff else []
                if found and found[0]["event"] == "changed":
                    year.changed_events += 1
                    year.delays.append(week - (page.unseen_since or week))
                    year.unseen_versions += page.unseen_versions - 1
                page.unseen_since, page.unseen_versions = None, 0
                store.record(url, snapshot, [], time_text, found, expected=record)
                if schedule is not None:
                    store.set_check(url, next_check(schedule, store.check(url), now, bool(found)))
                told += len(found)
            store.compact()
            store.rotate_log(max_bytes, 0.0, files, now)
            year.fetched.append(len(fetched))
            year.events.append(told)
            if week in CHECKPOINTS or week == crawls:
                year.state[week] = state_size(folder)
    finally:
        store.close()
    year.seconds = time.perf_counter() - started
    return year


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f}"


def table(years: list[Year], pages: int) -> str:
    rows = [
        (
            "| re-checks | pages fetched, crawls 2-52 | per crawl (of ~"
            f"{pages:,}) | changes told | weeks to tell a change (mean / p90) | versions never seen "
            "| state after crawl 1 / 13 / 26 / 52, MB | of which events files at 52, MB | run, s |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for year in years:
        later = year.fetched[1:]
        delays = sorted(year.delays) or [0]
        p90 = delays[int(0.9 * (len(delays) - 1))]
        states = " / ".join(_mb(year.state[w]["total"]) for w in sorted(year.state))
        last = year.state[max(year.state)]
        rows.append(
            f"| {year.way} | {sum(later):,} | {statistics.mean(later or [0]):,.0f} | "
            f"{year.changed_events:,} | {statistics.mean(delays):.2f} / {p90} | "
            f"{year.unseen_versions:,} | {states} | {_mb(last['events'])} | {year.seconds:.0f} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--crawls", type=int, default=52)
    parser.add_argument("--quick", action="store_true", help="1,000 pages")
    parser.add_argument("--compare", action="store_true", help="also re-check every page")
    opts = parser.parse_args(argv)
    pages = 1000 if opts.quick else opts.pages
    years = []
    ways = [True, False] if opts.compare else [True]
    for scheduled in ways:
        with tempfile.TemporaryDirectory() as folder:
            years.append(simulate(Path(folder), pages, opts.crawls, scheduled=scheduled))
    print(f"{opts.crawls} weekly crawls of {pages:,} pages")
    print(table(years, pages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
