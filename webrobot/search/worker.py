"""The index writer in its own process (no Scrapy here).

Extracting a page's main text costs about as much CPU as everything else the
crawler does for that page; done in the crawl's process it would cut pages/s
by a third. :class:`IndexWorker` hands each page (URL, title, fetch time, body
bytes and encoding) to a child process that extracts and writes, on another
core, through the durable spool of :mod:`webrobot.search.spool`: the crawl
appends the page to a file before it goes on, the child applies the records in
order and checkpoints after each index commit. One writer, one ordered spool: a
page's removal never overtakes its earlier addition. When the child is 500
pages behind, the crawl waits (the index never falls unboundedly behind); when
the child has died the crawl goes on without the index, counted; when the crawl
was killed, the child indexes what was spooled, commits, closes and exits; and
whatever a kill left spooled but not committed is indexed by the next run's
child before anything new.

The text indexed is the item's own main text when it brought one (the mining's
full reading, a document's text), else the fast reading of
:func:`webrobot.extract.maintext.main_text` (:func:`page_text`): one extractor
for the mining and the index, its cheap mode here because this process runs
beside every crawl (docs/search.md has the measurements).
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
from typing import TYPE_CHECKING, Any

from webrobot.job.diskspace import describe_error, is_disk_error
from webrobot.optional import check
from webrobot.search import lifeline

if TYPE_CHECKING:
    # The readers run in the index process only (imported there at its first page):
    # the crawl's process, which imports this module for the worker's handle, is
    # spared the extraction package.
    from webrobot.extract.maintext import Mode

logger = logging.getLogger(__name__)

#: Pages the child may be behind the crawl before the crawl waits.
QUEUE_SIZE = 500
#: Text kept per page: enough for any snippet and for ranking; a 10 MiB text
#: dump must not become a 10 MiB index row.
MAX_TEXT = 200_000
#: How the index reads a page's main text when the item brought none: the fast
#: reading (see :mod:`webrobot.extract.maintext` and docs/search.md for why).
TEXT_MODE: Mode = "fast"


#: What the search extra serves, as its missing-package message names it.
FEATURE = "The full-text index (WEBROBOT_INDEX_ENABLED)"


def check_installed() -> None:
    """:class:`~webrobot.optional.MissingExtra` unless the search extra is installed:
    resiliparse (the fast main text) and the index's engine, tantivy (found, not
    imported: the crawl's own process never extracts text)."""
    for name in ("resiliparse", "tantivy"):
        check(name, "search", FEATURE)


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
    #: The item's own main text (mining's ``text`` part, a document's text): indexed as
    #: it is instead of the text extracted here from ``body``.
    main_text: str | None = None


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
    replayed: int = 0  # records a killed run left spooled, applied by this run
    cut: int = 0  # bytes of a spool record cut by a kill, dropped
    first_error: str = ""
    cpu_seconds: float = 0.0  # the child's own CPU time (user + system)
    disk_full: bool = False  # the child stopped: no room to write the index


def page_text(page: PageToIndex) -> str:
    """The text the index keeps of ``page``: the item's own main text when it brought
    one (the mining's full reading, a document's text), else the fast main text of
    its body; at most :data:`MAX_TEXT` characters, ``""`` when there is none."""
    given = getattr(page, "main_text", None)  # a record spooled by an older version has none
    if given is None:
        from webrobot.extract.maintext import main_text
        from webrobot.extract.page import SourcePage

        html = page.body.decode(page.encoding or "utf-8", errors="replace")
        given = main_text(SourcePage(page.url, html), mode=TEXT_MODE)
    return (given or "")[:MAX_TEXT]


def _apply(index: Any, kind: str, value: Any, totals: IndexTotals) -> None:
    from webrobot.extract.pagelanguage import page_language
    from webrobot.search.index import IndexedPage

    try:
        if kind == "put":
            page: PageToIndex = value
            text = page_text(page)
            if not text:
                totals.empty += 1
            outcome = index.put(IndexedPage(
                url=page.url, site=page.site, host=page.host, title=page.title,
                text=text, fetched_at=page.fetched_at,
                lang=page_language(page.body, page.content_language),
            ))  # fmt: skip
            if outcome == "added":
                totals.added += 1
            else:
                totals.updated += 1
        elif kind == "remove" and index.remove(value):
            totals.removed += 1
    except Exception as exc:  # one page's failure (hostile body, tantivy) is counted
        if _cannot_write(exc):
            raise  # not one bad page: nothing more can be written (see _child)
        totals.errors += 1
        if not totals.first_error:
            totals.first_error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"


#: tantivy's words when its writer thread died of an I/O error (a full disk, most likely)
WRITER_KILLED = "index writer was killed"


def _cannot_write(exc: BaseException) -> bool:
    """A full disk, or the index writer dead of an I/O error: nothing more can be written."""
    return is_disk_error(exc) or WRITER_KILLED in str(exc).lower()


def _release(index: Any) -> None:
    """Let go of an index whose writes failed (its writer lock with it)."""
    try:
        index.close()
    except Exception:  # noqa: BLE001, S110 - it cannot be committed; the lock goes with the process
        pass


def _child(path: str, results: Any, applied: Any, stop: Any, disk_error: Any, parent: int) -> None:
    """The child's loop: apply the spool's records, commit and checkpoint every
    200 records or 2 seconds; finish when told to stop (or orphaned) and the
    spool is read to its end."""
    # Ctrl-C reaches the whole process group: the crawl stops gracefully and then
    # says stop; the child must live until then to finish the spool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # First of all: die with the crawl (SIGTERM when it dies; gone already: leave).
    # Until the index is open, SIGTERM ends the child at once; nothing is lost,
    # the spool is on disk.
    if not lifeline.bind_to_parent(parent):
        return
    from webrobot.search.index import SearchIndex
    from webrobot.search.spool import SPOOL, SpoolReader

    totals = IndexTotals()
    try:
        index = SearchIndex(Path(path), create=True, auto_commit=False)
        spool = SpoolReader(Path(path) / SPOOL)
        first_new = spool.repair()
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        totals.errors += 1
        totals.first_error = f"cannot open {path}: {exc}"
        results.put(totals)
        return
    totals.already, totals.cut = len(index), spool.cut
    backlog = len(spool.pending_segments())
    # From now on the crawl's death (SIGTERM, sent by the kernel) means: finish the
    # spool, commit, close, exit.
    dead: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: dead.append(signum))
    results.put(("ready", totals.already, first_new, backlog, spool.cut, index.notes))

    def checkpoint() -> None:
        index.commit()
        spool.committed(spool.position)

    try:
        while True:
            finishing = stop.is_set() or bool(dead) or lifeline.orphaned(parent)
            batch = spool.read(final=finishing)
            for position, (kind, value) in batch:
                _apply(index, kind, value, totals)
                if position.segment >= first_new:
                    applied.value += 1
                else:
                    totals.replayed += 1
            if index.commit_due():
                checkpoint()
            if not batch:
                if finishing:
                    break
                time.sleep(0.02)
    except Exception as exc:  # all but a disk that cannot be written is re-raised
        if not _cannot_write(exc):
            raise
        # No room for the index: what is not committed stays in the spool (the
        # checkpoint did not move) and is indexed by the next run.
        disk_error.value = 1
        totals.errors += 1
        totals.first_error = f"{path}: {describe_error(exc)}"
        totals.disk_full = True
        _release(index)
        results.put(totals)
        return
    try:
        checkpoint()
        spool.drained()
        totals.pages = len(index)
        index.close()
        totals.bytes = sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file())
    except Exception as exc:  # noqa: BLE001 - tantivy's and the disk's errors: told to the parent
        totals.errors += 1
        totals.first_error = totals.first_error or f"cannot close {path}: {exc}"
        if _cannot_write(exc):
            disk_error.value = 1
            totals.disk_full = True
            _release(index)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    totals.cpu_seconds = usage.ru_utime + usage.ru_stime
    results.put(totals)


class IndexWorker:
    """Starts the child for the index at ``path``; :meth:`put`, :meth:`remove`,
    then :meth:`close` (which waits for the child to finish and returns its totals)."""

    def __init__(self, path: Path, start_timeout: float = 120.0) -> None:
        from webrobot.search.spool import SPOOL, SpoolWriter

        context = multiprocessing.get_context("spawn")  # no fork of a running reactor
        self.path = path
        self.results: Any = context.Queue()
        self.applied: Any = context.Value("q", 0)
        self.stop: Any = context.Event()
        self.disk_error: Any = context.Value("b", 0)  # the child found no room to write
        self.process = context.Process(
            target=_child,
            args=(str(path), self.results, self.applied, self.stop, self.disk_error, os.getpid()),
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
        _, self.already, first_segment, self.backlog, self.cut, self.notes = first
        self.spool = SpoolWriter(path / SPOOL, first_segment)

    def _abandon(self) -> None:
        self.alive = False
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)

    def _send(self, record: tuple[str, Any]) -> bool:
        while self.alive and self.spool.records - self.applied.value >= QUEUE_SIZE:
            if not self.process.is_alive():
                self.alive = False
                break
            time.sleep(0.01)
        if not self.alive:
            return False
        self.spool.append(record)
        return True

    def put(self, page: PageToIndex) -> bool:
        return self._send(("put", page))

    def remove(self, url: str) -> bool:
        return self._send(("remove", url))

    def close(self, timeout: float = 600.0) -> IndexTotals:
        """Let the child finish the spool, commit and close the index."""
        self.spool.close()
        self.stop.set()
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
        self.results.close()
        return totals
