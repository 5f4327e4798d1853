"""The index writer in its own process (no Scrapy here).

Extracting a page's main text costs about as much CPU as everything else the
crawler does for that page; done in the crawl's process it would cut pages/s
by a third. :class:`IndexWorker` hands each page (URL, title, fetch time, body
bytes and encoding) through a bounded queue to a child process that extracts
and writes, on another core. One producer, one FIFO queue: a page's removal
never overtakes its earlier addition. When the queue is full the crawl waits
(the index never falls unboundedly behind, nor holds every page in memory);
when the child has died the crawl goes on without the index, counted; when the
crawl was killed, the child commits what it has, closes the index and exits.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import resource
import signal
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

#: Pages waiting for the child at most; each holds one body (~15 KB typical).
QUEUE_SIZE = 500


@dataclass(frozen=True, slots=True)
class PageToIndex:
    url: str
    site: str
    host: str
    title: str
    fetched_at: str
    body: bytes
    encoding: str
    content_language: str | None = None


@dataclass
class IndexTotals:
    added: int = 0
    updated: int = 0
    removed: int = 0
    empty: int = 0  # pages with no main text (indexed by title only)
    errors: int = 0
    pages: int = 0
    bytes: int = 0
    already: int = 0  # pages in the index when it was opened
    first_error: str = ""
    cpu_seconds: float = 0.0  # the child's own CPU time (user + system)


def _child(path: str, jobs: Any, results: Any) -> None:
    """The child's loop: ("put", PageToIndex) / ("remove", url) / ("stop", None)."""
    # Ctrl-C reaches the whole process group: the crawl stops gracefully and then
    # sends "stop"; the child must live until then to finish the queue.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from webrobot import textextract
    from webrobot.searchindex import IndexedPage, SearchIndex

    totals = IndexTotals()
    try:
        index = SearchIndex(Path(path), create=True)
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        totals.errors += 1
        totals.first_error = f"cannot open {path}: {exc}"
        results.put(totals)
        return
    totals.already = len(index)
    results.put(("ready", totals.already))
    parent = os.getppid()
    while True:
        try:
            kind, value = jobs.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:  # the crawl was killed: keep what is indexed, exit
                break
            continue
        if kind == "stop":
            break
        try:
            if kind == "put":
                page: PageToIndex = value
                html = page.body.decode(page.encoding or "utf-8", errors="replace")
                extracted = textextract.extract(html, page.body, page.content_language)
                if not extracted.text:
                    totals.empty += 1
                outcome = index.put(IndexedPage(
                    url=page.url, site=page.site, host=page.host, title=page.title,
                    text=extracted.text, fetched_at=page.fetched_at, lang=extracted.lang,
                ))  # fmt: skip
                if outcome == "added":
                    totals.added += 1
                else:
                    totals.updated += 1
            elif kind == "remove" and index.remove(value):
                totals.removed += 1
        except Exception as exc:  # noqa: BLE001 - one bad page must not stop the index
            totals.errors += 1
            if not totals.first_error:
                totals.first_error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"
    try:
        index.optimize()
        totals.pages = len(index)
        index.close()
        totals.bytes = sum(p.stat().st_size for p in Path(path).parent.glob(Path(path).name + "*"))
    except Exception as exc:  # noqa: BLE001
        totals.errors += 1
        totals.first_error = totals.first_error or f"cannot close {path}: {exc}"
    usage = resource.getrusage(resource.RUSAGE_SELF)
    totals.cpu_seconds = usage.ru_utime + usage.ru_stime
    results.put(totals)


class IndexWorker:
    """Starts the child for the index at ``path``; :meth:`put`, :meth:`remove`,
    then :meth:`close` (which waits for the child to finish and returns its totals)."""

    def __init__(self, path: Path, start_timeout: float = 120.0) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a running reactor
        self.path = path
        self.jobs: Any = context.Queue(QUEUE_SIZE)
        self.results: Any = context.Queue()
        self.process = context.Process(
            target=_child,
            args=(str(path), self.jobs, self.results),
            name="webrobot-index",
            daemon=True,
        )
        self.process.start()
        self.alive = True
        try:
            first = self.results.get(timeout=start_timeout)
        except queue.Empty:
            self._abandon()
            raise RuntimeError(
                f"the index process did not start within {start_timeout:.0f} s"
            ) from None
        if not isinstance(first, tuple):  # IndexTotals: it failed to open the index
            self._abandon()
            raise RuntimeError(getattr(first, "first_error", "the index process failed"))  # noqa: TRY004
        self.already: int = first[1]

    def _abandon(self) -> None:
        self.alive = False
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)

    def _send(self, job: tuple[str, Any]) -> bool:
        while self.alive:
            try:
                self.jobs.put(job, timeout=1.0)
                return True
            except queue.Full:
                if not self.process.is_alive():
                    self.alive = False
        return False

    def put(self, page: PageToIndex) -> bool:
        return self._send(("put", page))

    def remove(self, url: str) -> bool:
        return self._send(("remove", url))

    def close(self, timeout: float = 600.0) -> IndexTotals:
        """Let the child finish the queue, optimise and close the index."""
        if not self._send(("stop", None)):
            self._abandon()
            return IndexTotals(errors=1, first_error="the index process died")
        deadline = time.monotonic() + timeout
        while True:
            try:
                totals: IndexTotals = self.results.get(timeout=1.0)
                break
            except queue.Empty:
                if not self.process.is_alive():
                    self._abandon()
                    return IndexTotals(errors=1, first_error="the index process died")
                if time.monotonic() > deadline:
                    self._abandon()
                    return IndexTotals(
                        errors=1,
                        first_error=f"the index process did not finish within {timeout:.0f} s",
                    )
        self.process.join(timeout=30)
        self.jobs.close()
        self.results.close()
        return totals
