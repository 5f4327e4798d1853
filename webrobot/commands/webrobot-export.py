# ruff: noqa: N999 - the module name is the command name
"""``scrapy webrobot-export SPIDER -o FILE [-t FORMAT] [--events FILE]``: write the
items a shared crawl stored in Redis, one per page, with Scrapy's item exporters,
and (``--events``) the monitor's events, one JSON line each.

Workers add each page's items to the crawl's item stream in the same Lua
script that acknowledges the page's lease (see :mod:`webrobot.distributed.items`),
so the stream holds the items of every page that finished, even of workers
that were killed. A page fetched twice (its lease expired while its worker
still held it) may be in the stream twice: the export writes the first entry
of each page's items only.

The module name is the command name (Scrapy's rule), hence the hyphen.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.misc import load_object

from webrobot.commands import load_spider_class, shared_crawl_problem
from webrobot.distributed.items import FirstPerKey, decode_item, entry_items
from webrobot.optional import REDIS_FEATURE, require

if TYPE_CHECKING:
    import argparse

    import redis
    from scrapy.settings import BaseSettings

#: Stream entries read per round trip.
BATCH = 1000


def _fail(message: str, code: int) -> int:
    print(f"webrobot-export: {message}", file=sys.stderr)
    return code


def export_items(
    server: redis.Redis, stream: str, exporter: Any, batch: int = BATCH
) -> tuple[int, int, int]:
    """Export the first entry of each key in ``stream``; returns (written,
    repeated, unreadable)."""
    first = FirstPerKey()
    written = unreadable = 0
    start = "-"
    exporter.start_exporting()
    while True:
        entries: list[Any] = server.xrange(stream, min=start, max="+", count=batch)  # type: ignore[assignment]
        if not entries:
            break
        for _, fields in entries:
            for key, data in entry_items(fields):
                if not first.first(key):
                    continue
                try:
                    if data is None:
                        raise ValueError("an entry without the item of its key")
                    item = decode_item(data)
                except Exception:  # noqa: BLE001 - another version's item class, a truncated entry...
                    unreadable += 1
                    continue
                exporter.export_item(item)
                written += 1
        start = "(" + entries[-1][0].decode()
    exporter.finish_exporting()
    return written, first.repeated, unreadable


def export_events(server: redis.Redis, keys: Any, output: str) -> int:
    """Write the monitor's events of the crawl (JSON lines, oldest first); returns how many."""
    from webrobot.distributed.monitorstore import read_events

    count = 0
    with (
        open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)
        if output == "-"
        else Path(output).open("w", encoding="utf-8")
    ) as file:
        for line in read_events(server, keys):
            file.write(line + "\n")
            count += 1
    return count


def exporter_for(settings: BaseSettings, fmt: str, file: BinaryIO) -> Any:
    exporters = settings.getwithbase("FEED_EXPORTERS")
    if fmt not in exporters:
        raise UsageError(f"unknown format {fmt!r} (known: {', '.join(sorted(exporters))})")
    return load_object(exporters[fmt])(
        file,
        fields_to_export=settings.getlist("FEED_EXPORT_FIELDS") or None,
        encoding=settings.get("FEED_EXPORT_ENCODING"),
        indent=settings.getint("FEED_EXPORT_INDENT"),
    )  # fmt: skip


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "SPIDER [-o FILE [-t FORMAT]] [--events FILE]"

    def short_desc(self) -> str:
        return "Export the items a shared crawl stored in Redis (WEBROBOT_REDIS_URL), one per page"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="FILE", help="where to write ('-': stdout)")
        parser.add_argument(
            "-t", "--format", metavar="FORMAT",
            help="a FEED_EXPORTERS format (jsonlines, json, csv, xml...); default: FILE's extension",
        )  # fmt: skip
        parser.add_argument(
            "--events", metavar="FILE",
            help="also write the monitor's events (WEBROBOT_MONITOR_DIR), one JSON line each ('-': stdout)",
        )  # fmt: skip

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("name the spider whose crawl to export")
        if not opts.output and not opts.events:
            raise UsageError("say where to write: -o FILE (items), --events FILE (events)")
        fmt = opts.format or (Path(opts.output or "").suffix.lstrip(".") or "jsonlines")
        self.exitcode = self._run(
            args[0], opts.output, {"jsonl": "jsonlines"}.get(fmt, fmt), opts.events
        )

    def _run(self, spider_name: str, output: str | None, fmt: str, events: str | None) -> int:
        assert self.settings is not None
        settings = self.settings
        _, problem = load_spider_class(get_spider_loader(settings), spider_name)
        problem = problem or shared_crawl_problem(settings) or ""
        if problem:
            return _fail(problem, 2)
        redis = require("redis", "redis", REDIS_FEATURE)  # shared_crawl_problem looked
        from webrobot.distributed.keys import CrawlKeys, explain, redis_from_settings, safe_url

        keys = CrawlKeys.from_settings(settings, spider_name)
        where = f"{keys.prefix} at {safe_url(settings['WEBROBOT_REDIS_URL'])}"
        server = redis_from_settings(settings)
        written = repeated = unreadable = told = 0
        try:
            server.ping()
            if events:
                told = export_events(server, keys, events)
            if output == "-":
                exporter = exporter_for(settings, fmt, sys.stdout.buffer)
                written, repeated, unreadable = export_items(server, keys.items, exporter)
                sys.stdout.flush()
            elif output:
                with Path(output).open("wb") as file:
                    exporter = exporter_for(settings, fmt, file)
                    written, repeated, unreadable = export_items(server, keys.items, exporter)
        except (redis.RedisError, ValueError, OSError) as exc:
            return _fail(f"cannot export {where}: {explain(exc)}", 1)
        finally:
            server.close()
        if events:
            print(f"Exported {told} monitor events of {where} to {events}", file=sys.stderr)
        if not output:
            return 0
        message = f"Exported {written} items of {where} to {output}"
        if repeated:
            message += f" ({repeated} repeated entries of pages fetched twice left out)"
        print(message, file=sys.stderr)
        if unreadable:
            return _fail(
                f"{unreadable} stored items could not be read (another webrobot version?)", 1
            )
        return 0
