"""``scrapy search QUERY``: search the crawl's full-text index; ``--serve`` for a
search page on 127.0.0.1.

Exit status: 0 with results, 1 when nothing matches, 2 for a bad query or a
missing, empty or unreadable index (one line on stderr saying which), 141 when the
program reading the output stopped early (``--json | head -c 800``: no traceback).
Messages and the usage line say the name it was run by (``webrobot search:``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from webrobot.commands import name_parser, output_closed, program
from webrobot.search.extension import DEFAULT_INDEX
from webrobot.search.index import Hit, IndexUnavailable, SearchIndex
from webrobot.search.query import QueryError
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    import argparse

BOLD, PLAIN = "\x1b[1m", "\x1b[0m"


NAME = "search"


def _fail(message: str, code: int) -> int:
    print(f"{program(NAME)}: {message}", file=sys.stderr)
    return code


def _default_index(folder: Path | None = None) -> Path:
    """``webrobot-index`` in ``folder`` (the current one); else the one ``*.index``
    folder there, where a crawl with ``-O items.jsonl`` keeps its index."""
    folder = folder or Path()
    default = folder / DEFAULT_INDEX
    if default.exists():
        return default
    beside_feeds = sorted(p for p in folder.glob("*.index") if p.is_dir())
    return beside_feeds[0] if len(beside_feeds) == 1 else default


def hit_json(hit: Hit) -> dict[str, Any]:
    return {
        "url": hit.url,
        "title": hit.title,
        "site": hit.site,
        "fetched_at": hit.fetched_at,
        "lang": hit.lang,
        "score": round(hit.score, 4),  # BM25: higher is better
        "snippet": hit.plain_snippet(),
        "highlights": hit.highlights(),
    }


def hit_text(number: int, hit: Hit, colour: bool) -> str:
    start, end = (BOLD, PLAIN) if colour else ("[", "]")
    snippet = "".join(
        f"{start}{text}{end}" if marked else text for text, marked in hit.snippet_parts()
    )
    snippet = " ".join(snippet.split())
    return f"{number}. {hit.title or '(no title)'}\n   {hit.url}\n   {snippet}\n"


class Command(ScrapyCommand):
    # Also outside a project: ``webrobot search`` (webrobot/__main__.py) runs it anywhere.
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[options] QUERY | --serve"

    def short_desc(self) -> str:
        return "Search the crawled pages (full-text index), or serve a search page"

    def long_desc(self) -> str:
        return (
            "Search the full-text index a crawl kept (WEBROBOT_INDEX, or --index PATH). Words "
            'must all occur; "a phrase" must occur as written; word* matches words starting so; '
            "OR between terms accepts either. Results are ranked by BM25, the title counting "
            "more than the text. --serve serves a search page on 127.0.0.1 instead."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        name_parser(parser, NAME, self.syntax())
        parser.add_argument(
            "--index",
            metavar="PATH",
            help=f"the index folder (default: WEBROBOT_INDEX, else {DEFAULT_INDEX}, else the one "
            "*.index folder here)",
        )
        parser.add_argument(
            "--site", metavar="SITE", help="only pages of this site (http://host:port) or host"
        )
        parser.add_argument(
            "--limit", type=int, default=10, metavar="N", help="at most N results (default 10)"
        )
        parser.add_argument(
            "--json", action="store_true", help="one JSON object per result, one per line"
        )
        parser.add_argument("--serve", action="store_true", help="serve a search page on 127.0.0.1")
        parser.add_argument("--port", type=int, default=8780, metavar="PORT",
                            help="port of the search page (default 8780; 0: any free port)")  # fmt: skip

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        path = Path(opts.index or read(self.settings, "WEBROBOT_INDEX") or _default_index())
        if opts.limit < 1:
            raise UsageError("--limit must be at least 1")
        if opts.serve:
            self.exitcode = self._serve(path, opts.port, opts.limit)
            return
        query = " ".join(args).strip()
        if not query:
            raise UsageError(
                f"give a query, e.g. {program(NAME)} 'robots \"crawl delay\"', or --serve"
            )
        try:
            self.exitcode = self._search(path, query, opts.site, opts.limit, opts.json)
            sys.stdout.flush()
        except BrokenPipeError:  # read by a program that stopped reading (| head)
            self.exitcode = output_closed()

    def _open(self, path: Path) -> SearchIndex | int:
        if not path.exists():
            return _fail(f"no search index at {path}: crawl first (the index is kept while crawling), "
                         "or give --index PATH", 2)  # fmt: skip
        try:
            index = SearchIndex(path)
        except IndexUnavailable as exc:
            return _fail(str(exc), 2)
        if len(index) == 0:
            return _fail(f"the search index at {path} holds no pages yet", 2)
        return index

    def _search(self, path: Path, query: str, site: str | None, limit: int, as_json: bool) -> int:
        index = self._open(path)
        if isinstance(index, int):
            return index
        try:
            hits = index.search(query, site=site, limit=limit)
        except QueryError as exc:
            return _fail(str(exc), 2)
        if as_json:
            for hit in hits:
                print(json.dumps(hit_json(hit), ensure_ascii=False))
        else:
            colour = sys.stdout.isatty()
            for number, hit in enumerate(hits, 1):
                print(hit_text(number, hit, colour))
            if not hits:
                print(f"No page matches {query!r}" + (f" on {site}" if site else "") + ".")
        return 0 if hits else 1

    def _serve(self, path: Path, port: int, limit: int) -> int:
        try:
            from webrobot.search.web import SearchServer
        except ImportError as exc:
            return _fail(f"--serve needs Jinja2 (pip install 'webrobot[search]'): {exc}", 2)

        index = self._open(path)
        if isinstance(index, int):
            return index
        try:
            server = SearchServer(path, port, limit)
        except (IndexUnavailable, OSError) as exc:
            return _fail(f"cannot serve {path}: {exc}", 2)
        print(f"Serving search of {path} on {server.url} (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.httpd.server_close()
        return 0
