"""The crawl's full-text index: one folder holding a tantivy index (no Scrapy).

Why tantivy: it is a maintained search library made for this job (a Rust
port of Lucene's design, with official Python bindings). Measured against
SQLite FTS5 on the same 100,000 pages (``python -m benchmarks.search_engines``,
numbers in docs/search.md) it indexes faster, takes about a third of the space,
and answers a query for a common word or a short prefix in about a millisecond
where FTS5 takes a fifth of a second or more.

One document per URL: a page indexed again replaces its old text; a page now
marked noindex is removed (:meth:`SearchIndex.remove`). One process writes
(tantivy holds a lock file; a second writer gets :class:`IndexUnavailable`),
any number read; a reader sees what the writer last committed.

Queries (:mod:`webrobot.search.query`) are built with tantivy's query objects,
never with its query parser, so no input is a syntax error; a prefix stands for
the most frequent matching words, so it ranks and highlights like words.
Ranking is BM25 with a title match counting four times a text match.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webrobot.job.diskspace import is_disk_error
from webrobot.optional import MissingExtra, require
from webrobot.search import writerlock
from webrobot.search.query import QueryError, Term, parse_query, site_keys

if TYPE_CHECKING:
    from types import ModuleType

#: What tantivy serves, as its missing-package message names it.
FEATURE = "The search index"
SCHEMA_VERSION = 2
#: The file that marks a folder as a webrobot index (and says which schema).
MARKER = "webrobot-index.json"
#: BM25 boosts of the indexed text fields: a word in the title counts 4 times one in the text.
TITLE_WEIGHT, TEXT_WEIGHT = 4.0, 1.0
#: Snippet highlight markers (never in page text: control characters are dropped).
MARK_START, MARK_END = "\x02", "\x03"
#: Characters of text around the matches shown in a snippet.
SNIPPET_CHARS = 180
#: A prefix query stands for at most this many words (the most frequent ones).
PREFIX_EXPANSIONS = 64
#: Memory of the writer (tantivy flushes a segment when it is full).
WRITER_HEAP = 48_000_000
ANALYZER = "webrobot_words"
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SQLITE_MAGIC = b"SQLite format 3\x00"


class IndexUnavailable(Exception):
    """The index is missing, unreadable, not a webrobot index, or (for a
    writer) being written by another process."""


@functools.cache
def _engine() -> ModuleType:
    """tantivy, imported on first use: the ``search`` extra, loaded only by a crawl or
    a command that opens an index."""
    try:
        return require("tantivy", "search", FEATURE)
    except MissingExtra as exc:
        raise IndexUnavailable(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class IndexedPage:
    url: str
    site: str  # scheme://host:port
    host: str
    title: str
    text: str
    fetched_at: str  # ISO 8601 UTC
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    url: str
    title: str
    site: str
    fetched_at: str
    lang: str | None
    snippet: str  # with MARK_START/MARK_END around matches
    score: float  # BM25 (higher is better)

    def snippet_parts(self) -> Iterator[tuple[str, bool]]:
        """The snippet as (text, highlighted) pieces."""
        for i, piece in enumerate(re.split(f"[{MARK_START}{MARK_END}]", self.snippet)):
            if piece:
                yield piece, i % 2 == 1

    def plain_snippet(self) -> str:
        return "".join(text for text, _ in self.snippet_parts())

    def highlights(self) -> list[tuple[int, int]]:
        """(start, end) offsets of the matches in :meth:`plain_snippet`."""
        spans, pos = [], 0
        for text, marked in self.snippet_parts():
            if marked:
                spans.append((pos, pos + len(text)))
            pos += len(text)
        return spans


def clean(text: str) -> str:
    return _CONTROL_RE.sub(" ", text)


def analyzer() -> Any:
    """Words split at anything not a letter or digit, lowercased, accents folded
    (``Crème`` is found by ``creme``), words over 40 characters dropped."""
    tantivy = _engine()
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .build()
    )


def schema() -> Any:
    tantivy = _engine()
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("url", stored=True, tokenizer_name="raw")
    builder.add_text_field("site", stored=True, tokenizer_name="raw")
    builder.add_text_field("host", stored=False, tokenizer_name="raw")
    builder.add_text_field("title", stored=True, tokenizer_name=ANALYZER)
    builder.add_text_field("body", stored=True, tokenizer_name=ANALYZER)
    builder.add_text_field("fetched_at", stored=True, tokenizer_name="raw")
    builder.add_text_field("lang", stored=True, tokenizer_name="raw")
    return builder.build()


def check_folder(path: Path) -> None:
    """Raise :class:`IndexUnavailable` unless ``path`` holds a webrobot index."""
    if not path.exists():
        raise IndexUnavailable(f"no search index at {path}")
    if path.is_file():
        with path.open("rb") as head:
            if head.read(16) == _SQLITE_MAGIC:
                raise IndexUnavailable(
                    f"{path} is an index of an older webrobot (SQLite): crawl again with "
                    "WEBROBOT_INDEX naming a new folder"
                )
        raise IndexUnavailable(f"{path} is a file, not a webrobot search index (a folder)")
    try:
        marker = json.loads((path / MARKER).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexUnavailable(f"{path} is not a webrobot search index (no {MARKER})") from exc
    if not isinstance(marker, dict) or marker.get("schema") != SCHEMA_VERSION:
        found = marker.get("schema") if isinstance(marker, dict) else "none"
        raise IndexUnavailable(f"{path} has an unknown index schema ({found})")


@dataclass
class SearchIndex:
    """Open (or create, with ``create=True``: then this object is the one writer)
    the index in the folder ``path``."""

    path: Path
    create: bool = False
    #: commit after this many changes or seconds, whichever first
    batch: int = 1000
    batch_seconds: float = 5.0
    #: commit by itself when due (off: the owner calls :meth:`commit` when :meth:`commit_due`)
    auto_commit: bool = True
    _pending: int = field(default=0, init=False)
    _last_commit: float = field(default_factory=time.monotonic, init=False)
    #: URL -> present, for the changes not committed yet (the searcher cannot see them)
    _changed_urls: dict[str, bool] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self.writer: Any = None
        #: what opening the index had to do (a stale writer lock taken over), one line each
        self.notes: list[str] = []
        tantivy = _engine()
        if self.create:
            self._create()
        else:
            check_folder(self.path)
        try:
            self.index = tantivy.Index.open(str(self.path))
            self.index.register_tokenizer(ANALYZER, analyzer())
            if self.create:
                self._take_writer()
        except ValueError as exc:
            raise IndexUnavailable(f"{self.path} is not a readable search index: {exc}") from exc
        except OSError as exc:
            if is_disk_error(exc):
                raise IndexUnavailable(f"cannot open the search index {self.path}: {exc}") from exc
            raise IndexUnavailable(f"{self.path} is not a readable search index: {exc}") from exc
        self.schema = self.index.schema

    def _writer(self) -> bool:
        try:
            self.writer = self.index.writer(heap_size=WRITER_HEAP, num_threads=1)
        except ValueError as exc:
            if "LockBusy" in str(exc):
                return False
            raise
        return True

    def _take_writer(self) -> None:
        """Become the writer; a lock left by a dead writer, or held by one whose crawl
        died, is taken over (said in :attr:`notes`); a live crawl's writer is refused."""
        dead = writerlock.stale(self.path)
        if dead is not None:
            self.notes.append(
                f"the writer lock of {self.path} left by process {dead.pid}, which is no "
                "longer running, is stale: taken over"
            )
        if not self._writer():
            owner = writerlock.orphan(self.path)
            if owner is not None:
                writerlock.end_orphan(owner)
                deadline = time.monotonic() + 10.0  # the kernel drops its lock as it exits
                while not self._writer() and time.monotonic() < deadline:
                    time.sleep(0.05)
                if self.writer is not None:
                    self.notes.append(
                        f"the writer lock of {self.path} was held by process {owner.pid}, "
                        "whose crawl had died: it was stopped and its lock taken over"
                    )
            if self.writer is None:
                holder = writerlock.read(self.path)
                who = f" (process {holder.pid})" if holder else ""
                raise IndexUnavailable(
                    f"the search index at {self.path} is being written by another process{who}"
                )
        writerlock.record(self.path)

    def _create(self) -> None:
        tantivy = _engine()
        path = self.path
        if path.exists() and (path.is_file() or any(path.iterdir())):
            check_folder(path)  # an existing index is reopened; anything else refused
            return
        # Made whole in a sibling folder, then renamed into place: a crawl killed
        # while the index is being created leaves no half-made index (tantivy's
        # files without webrobot's marker) that the next run would refuse.
        staging = path.with_name(f".{path.name}.creating")
        try:
            shutil.rmtree(staging, ignore_errors=True)  # left by a creation cut short
            staging.mkdir(parents=True)
            tantivy.Index(schema(), path=str(staging), reuse=False)
            (staging / MARKER).write_text(
                json.dumps({"format": "webrobot search index", "schema": SCHEMA_VERSION})
            )
            if path.exists():
                path.rmdir()  # empty (checked above)
            staging.rename(path)
        except (OSError, ValueError) as exc:
            raise IndexUnavailable(f"cannot create a search index at {path}: {exc}") from exc

    # -- writing -------------------------------------------------------------------
    def _present(self, url: str) -> bool:
        tantivy = _engine()
        if url in self._changed_urls:
            return self._changed_urls[url]
        query = tantivy.Query.term_query(self.schema, "url", url)
        return bool(self.index.searcher().search(query, 1, count=False).hits)

    def put(self, page: IndexedPage) -> str:
        """Add or replace ``page``; returns ``"added"`` or ``"updated"``."""
        tantivy = _engine()
        assert self.writer is not None, "opened for reading"
        outcome = "updated" if self._present(page.url) else "added"
        self.writer.delete_documents_by_term("url", page.url)
        fields: dict[str, Any] = {
            "url": page.url, "site": page.site, "host": page.host.lower(),
            "title": clean(page.title), "body": clean(page.text), "fetched_at": page.fetched_at,
        }  # fmt: skip
        if page.lang:
            fields["lang"] = page.lang
        self.writer.add_document(tantivy.Document(**fields))
        self._changed_urls[page.url] = True
        self._changed()
        return outcome

    def remove(self, url: str) -> bool:
        """Remove ``url``'s page; whether it was there."""
        assert self.writer is not None, "opened for reading"
        if not self._present(url):
            return False
        self.writer.delete_documents_by_term("url", url)
        self._changed_urls[url] = False
        self._changed()
        return True

    def _changed(self) -> None:
        self._pending += 1
        if self.auto_commit and self.commit_due():
            self.commit()

    def commit_due(self) -> bool:
        """Whether ``batch`` changes wait, or any for ``batch_seconds``."""
        return self._pending >= self.batch or (
            bool(self._pending) and time.monotonic() - self._last_commit >= self.batch_seconds
        )

    def commit(self) -> None:
        if self.writer is not None and self._pending:
            self.writer.commit()
            self.index.reload()
            self._changed_urls.clear()
        self._pending = 0
        self._last_commit = time.monotonic()

    def optimize(self) -> None:
        """Commit, and let tantivy finish merging segments (smaller, faster to query)."""
        self.commit()

    def close(self) -> None:
        if self.writer is not None:
            self.commit()
            self.writer.wait_merging_threads()  # releases the writer's lock
            self.writer = None
            writerlock.release(self.path)

    # -- reading ---------------------------------------------------------------------
    def _searcher(self) -> Any:
        if self._pending:  # the writer reads what it wrote, as a reader would after a commit
            self.commit()
        self.index.reload()  # see the writer's latest commit
        return self.index.searcher()

    def __len__(self) -> int:
        return int(self._searcher().num_docs)

    def stored(self, url: str) -> dict[str, str] | None:
        """The stored fields of ``url``'s document (title, body, fetched_at...), or None."""
        searcher = self._searcher()
        query = _engine().Query.term_query(self.schema, "url", url)
        hits = searcher.search(query, 1, count=False).hits
        if not hits:
            return None
        document = searcher.doc(hits[0][1]).to_dict()
        return {name: values[0] for name, values in document.items() if values}

    def _analyse(self, text: str) -> list[str]:
        return [str(token) for token in analyzer().analyze(text)]

    def _text_query(self, searcher: Any, term: Term) -> Any:
        tantivy = _engine()
        tokens: list[Any] = self._analyse(term.text)
        if not tokens:
            return None
        per_field = []
        for name, boost in (("title", TITLE_WEIGHT), ("body", TEXT_WEIGHT)):
            query: Any
            if term.kind == "prefix" and len(tokens) == 1:
                words = searcher.terms_with_prefix(name, tokens[0], limit=PREFIX_EXPANSIONS)
                if not words:
                    continue
                query = tantivy.Query.boolean_query(
                    [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, name, w))
                     for w, _ in words]
                )  # fmt: skip
            elif term.kind == "prefix":
                query = tantivy.Query.phrase_prefix_query(self.schema, name, tokens)
            elif len(tokens) == 1:
                query = tantivy.Query.term_query(self.schema, name, tokens[0])
            else:
                query = tantivy.Query.phrase_query(self.schema, name, tokens)
            per_field.append((tantivy.Occur.Should, tantivy.Query.boost_query(query, boost)))
        if not per_field:
            return tantivy.Query.empty_query()
        return tantivy.Query.boolean_query(per_field)

    def query(self, searcher: Any, text: str, site: str | None = None) -> Any:
        tantivy = _engine()
        alternatives = []
        for group in parse_query(text):
            musts = [q for term in group if (q := self._text_query(searcher, term)) is not None]
            if musts:
                alternatives.append(
                    tantivy.Query.boolean_query([(tantivy.Occur.Must, q) for q in musts])
                )
        if not alternatives:
            raise QueryError("the query has no word to search for")
        query = tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in alternatives])
        if site:
            where = tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "site", key))
                 for key in site_keys(site)]
                + [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "host", site.lower()))]
            )  # fmt: skip
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, query), (tantivy.Occur.Must, where)]
            )
        return query

    def search(
        self, query: str, site: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[Hit]:
        """Pages matching ``query`` (see :func:`parse_query`), best first (BM25)."""
        tantivy = _engine()
        searcher = self._searcher()
        parsed = self.query(searcher, query, site)
        try:
            found = searcher.search(parsed, max(0, limit), count=False, offset=max(0, offset))
        except ValueError as exc:
            raise QueryError(f"cannot search for {query!r}: {exc}") from exc
        if not found.hits:
            return []
        snippets = tantivy.SnippetGenerator.create(searcher, parsed, self.schema, "body")
        snippets.set_max_num_chars(SNIPPET_CHARS)
        hits = []
        for score, address in found.hits:
            doc = searcher.doc(address)
            hits.append(
                Hit(
                    url=doc.get_first("url") or "",
                    title=doc.get_first("title") or "",
                    site=doc.get_first("site") or "",
                    fetched_at=doc.get_first("fetched_at") or "",
                    lang=doc.get_first("lang"),
                    snippet=_marked(snippets.snippet_from_doc(doc), doc.get_first("body") or ""),
                    score=float(score),
                )
            )
        return hits


def _marked(snippet: Any, body: str) -> str:
    """The snippet's fragment with MARK_START/MARK_END around the matches; the
    text's beginning when the matches are in the title only."""
    fragment = snippet.fragment()
    if not fragment:
        cut = body[:SNIPPET_CHARS]
        return cut.rsplit(" ", 1)[0] + " …" if len(body) > SNIPPET_CHARS else cut
    raw = fragment.encode("utf-8")  # the highlighted ranges are byte offsets
    out, pos = [], 0
    for span in sorted(snippet.highlighted(), key=lambda s: s.start):
        if span.start < pos:
            continue
        out += [
            raw[pos : span.start],
            MARK_START.encode(),
            raw[span.start : span.end],
            MARK_END.encode(),
        ]
        pos = span.end
    out.append(raw[pos:])
    return b"".join(out).decode("utf-8", errors="replace")
