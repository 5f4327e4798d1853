# ruff: noqa: N999 - the module name is the command name
"""``scrapy webrobot-wacz -o CRAWL.wacz [--items FILE] [--index DIR] WARC_OR_FOLDER...``:
package a crawl's WARC files as one WACZ 1.1.1 file, the format ReplayWeb.page
and pywb open directly.

The WACZ holds the WARC files (``archive/``), a CDXJ index of every record
(``indexes/index.cdxj``), the list of pages (``pages/pages.jsonl``: URL, fetch
time, title, and the main text the search index keeps when there is one) and
``datapackage.json`` with each file's SHA-256. It is written by Webrecorder's
``wacz`` package (the reference implementation, whose ``wacz validate`` checks
it); webrobot only lists the pages, which it knows better than a guess from
the WARC records: the items of the crawl when their feed is given, else every
HTML page answered 200 that was not fetched as another page's requisite.

Folders are searched for ``*.warc.gz`` files: the files of every worker of a
shared crawl written to one folder, or several folders, go into one WACZ.
Files still being written (``.open``) are left out and named.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from webrobot.optional import MissingExtra, require

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator

#: The WARC field webrobot gives a requisite's record (webrobot.archive.warc.REQUISITE_FIELD).
REQUISITE_FIELD = "X-Webrobot-Requisite"


def _fail(message: str, code: int = 1) -> int:
    print(f"webrobot-wacz: {message}", file=sys.stderr)
    return code


def warc_files(inputs: list[str]) -> tuple[list[Path], list[Path]]:
    """The finished WARC files named or found in folders, and the ``.open`` ones left out."""
    files: list[Path] = []
    still_open: list[Path] = []
    for name in inputs:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(path.glob("*.warc.gz")))
            files.extend(sorted(path.glob("*.warc")))
            still_open.extend(sorted(path.glob("*.warc.gz.open")))
        elif path.name.endswith(".open"):
            still_open.append(path)
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"{name}: no such file or folder")
    return list(dict.fromkeys(files)), still_open


def _title(payload: bytes) -> str | None:
    from lxml import html

    try:
        root = html.fromstring(payload)
    except Exception:  # noqa: BLE001 - lxml refuses some inputs: no title then
        return None
    title = root.findtext(".//title")
    return " ".join(title.split()) if title else None


def warc_pages(files: list[Path]) -> Iterator[dict[str, Any]]:
    """``{url, ts, title}`` of each HTML 200 response in the files, the first of each URL."""
    from warcio.archiveiterator import ArchiveIterator

    requisites: set[str] = set()
    candidates: dict[str, dict[str, Any]] = {}
    for path in files:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                url = record.rec_headers.get_header("WARC-Target-URI")
                if record.rec_headers.get_header(REQUISITE_FIELD):
                    requisites.add(url)
                    continue
                if record.rec_type != "response" or url in candidates:
                    continue
                http = record.http_headers
                if http is None or http.get_statuscode() != "200":
                    continue
                if "html" not in (http.get_header("Content-Type") or "").lower():
                    continue
                payload = record.content_stream().read()
                candidates[url] = {
                    "url": url,
                    "ts": record.rec_headers.get_header("WARC-Date"),
                    "title": _title(payload),
                }
    for url, page in candidates.items():
        if url not in requisites:
            yield page


def item_pages(items: Path, dates: dict[str, str]) -> Iterator[dict[str, Any]]:
    """The pages of an items feed (JSON lines): url, fetch time and title."""
    seen: set[str] = set()
    with items.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise UsageError(f"{items}:{number}: not a JSON line ({exc})") from None
            url = item.get("url")
            if not url or url in seen or url not in dates:
                continue  # not archived (noarchive) or repeated
            seen.add(url)
            yield {
                "url": url,
                "ts": item.get("fetched_at") or dates[url],
                "title": item.get("title"),
            }


def response_dates(files: list[Path]) -> dict[str, str]:
    from warcio.archiveiterator import ArchiveIterator

    dates: dict[str, str] = {}
    for path in files:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type in ("response", "revisit"):
                    url = record.rec_headers.get_header("WARC-Target-URI")
                    dates.setdefault(url, record.rec_headers.get_header("WARC-Date"))
    return dates


def add_text(pages: list[dict[str, Any]], index_folder: Path) -> int:
    """Put each page's main text from the search index in ``text``; returns how many got one."""
    from webrobot.search.index import SearchIndex

    index = SearchIndex(index_folder, create=False)
    found = 0
    for page in pages:
        stored = index.stored(page["url"])
        if stored and stored.get("body"):
            page["text"] = stored["body"]
            page["title"] = page.get("title") or stored.get("title")
            found += 1
    index.close()
    return found


def write_pages(pages: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        header = {"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}
        header["hasText"] = any("text" in p for p in pages)  # type: ignore[assignment]
        out.write(json.dumps(header) + "\n")
        for number, page in enumerate(pages):
            entry = {"id": f"p{number}", **{k: v for k, v in page.items() if v is not None}}
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "-o FILE.wacz [--items ITEMS.jsonl] [--index DIR] WARC_OR_FOLDER..."

    def short_desc(self) -> str:
        return "Package a crawl's WARC files as a WACZ file (archive, CDXJ index, pages, hashes)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", required=True, help="the WACZ file to write")
        parser.add_argument(
            "--items", default="", help="the crawl's items feed (JSON lines): its pages are listed"
        )
        parser.add_argument(
            "--index", default="", help="the crawl's search index folder: each page's main text"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        self.exitcode = self.package(args, opts)

    def package(self, args: list[str], opts: argparse.Namespace) -> int:
        if not args:
            raise UsageError("name the WARC files or their folders")
        try:
            require("warcio", "warc", "WACZ files")
            wacz_main = require("wacz.main", "wacz", "WACZ files")
        except MissingExtra as exc:
            return _fail(str(exc))
        files, still_open = warc_files(args)
        for path in still_open:
            print(f"webrobot-wacz: left out {path}: still being written (.open)", file=sys.stderr)
        if not files:
            return _fail("no finished WARC files (*.warc.gz) in " + ", ".join(args))
        if opts.items:
            pages = list(item_pages(Path(opts.items), response_dates(files)))
        else:
            pages = list(warc_pages(files))
        if not pages:
            return _fail("no pages in the WARC files (no HTML answered 200)")
        with_text = add_text(pages, Path(opts.index)) if opts.index else 0
        output = Path(opts.output)
        output.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            pages_path = Path(tmp) / "pages.jsonl"
            write_pages(pages, pages_path)
            # wacz prints its progress on stdout: sent to stderr, stdout is ours
            stdout, sys.stdout = sys.stdout, sys.stderr
            try:
                code = wacz_main.main(
                    ["create", "-o", str(output), "-p", str(pages_path), "--copy-pages",
                     *map(str, files)]
                )  # fmt: skip
            finally:
                sys.stdout = stdout
        if code:
            return _fail(f"the wacz package could not write {output} (exit status {code})")
        print(
            f"{output}: {len(files)} WARC files, {len(pages)} pages"
            + (f" ({with_text} with their text)" if opts.index else "")
        )
        return 0
