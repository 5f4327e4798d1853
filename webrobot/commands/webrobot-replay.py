# ruff: noqa: N999 - the module name is the command name
"""``scrapy webrobot-replay [SPIDER] [--wait SECONDS] [--list]``: send the monitor's
parked webhook events again.

An event the webhook kept failing (5xx, time-outs) for ``WEBROBOT_MONITOR_WEBHOOK_RETRIES``
tries is parked, so the events behind it go on (:mod:`webrobot.monitor.webhook`).
Once the receiver is back, this command puts the parked events back in the outbox
of ``WEBROBOT_MONITOR_DIR`` (a shared crawl's in Redis: name its SPIDER) and
delivers the outbox to ``WEBROBOT_MONITOR_WEBHOOK`` for at most ``--wait`` seconds;
what is left waits for the next crawl, as after any crawl.

The module name is the command name (Scrapy's rule), hence the hyphen.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.misc import load_object

from webrobot.commands import shared_crawl_problem
from webrobot.monitor.database import DATABASE
from webrobot.monitor.outbox import EventOutbox, Outbox
from webrobot.settingsmodel.parse import SettingValueError, read

if TYPE_CHECKING:
    import argparse

    from scrapy.settings import BaseSettings


def _fail(message: str, code: int) -> int:
    print(f"webrobot-replay: {message}", file=sys.stderr)
    return code


def outbox_opener(
    settings: BaseSettings, spider: str | None
) -> tuple[Callable[[], EventOutbox] | None, str]:
    """What opens the monitor's outbox (its folder's, or a shared crawl's in Redis), or
    None and why not."""
    folder = Path(read(settings, "WEBROBOT_MONITOR_DIR"))
    try:
        store_class = load_object(read(settings, "WEBROBOT_MONITOR_STORE_CLASS"))
    except (ImportError, AttributeError, NameError, ValueError) as exc:
        return None, f"WEBROBOT_MONITOR_STORE_CLASS cannot be loaded: {exc}"
    # a shared crawl's store (Redis, an optional extra: imported only when named)
    if str(getattr(store_class, "__module__", "")).startswith("webrobot.distributed"):
        if not spider:
            return None, "a shared crawl's monitor: name its SPIDER"
        problem = shared_crawl_problem(settings)
        if problem:
            return None, problem
        from webrobot.distributed.keys import CrawlKeys, redis_from_settings
        from webrobot.distributed.monitorstore import RedisOutbox, worker_name

        keys = CrawlKeys.from_settings(settings, spider)
        hold = 2 * float(read(settings, "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT")) + 5
        name = worker_name()
        return lambda: RedisOutbox(redis_from_settings(settings), keys, name, hold), ""
    if not (folder / DATABASE).is_file():
        return None, f"{folder} holds no monitor ({DATABASE}): check WEBROBOT_MONITOR_DIR"
    return lambda: Outbox(folder), ""


def replay(settings: BaseSettings, spider: str | None, wait: float, listing: bool) -> int:
    """Put the parked events back and deliver; the command's exit status."""
    try:
        if not read(settings, "WEBROBOT_MONITOR_DIR"):
            return _fail("WEBROBOT_MONITOR_DIR is empty: pass -s WEBROBOT_MONITOR_DIR=FOLDER", 2)
        url = str(read(settings, "WEBROBOT_MONITOR_WEBHOOK"))
    except SettingValueError as exc:
        return _fail(str(exc), 2)
    opener, problem = outbox_opener(settings, spider)
    if opener is None:
        return _fail(problem, 2)
    try:
        outbox = opener()
        try:
            if listing:
                print(f"{outbox.parked()} parked events, {outbox.waiting()} waiting")
                return 0
            if not url:
                return _fail("WEBROBOT_MONITOR_WEBHOOK is empty: where should the events go?", 2)
            count = outbox.replay()
        finally:
            outbox.close()
    except Exception as exc:  # noqa: BLE001 - SQLite's or Redis's errors, said in one line
        return _fail(f"the monitor's outbox cannot be used: {exc}", 1)
    from webrobot.monitor.webhook import WebhookSender

    counts: Counter[str] = Counter()
    sender = WebhookSender(
        read(settings, "WEBROBOT_MONITOR_DIR"), url,
        timeout=read(settings, "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT"),
        ceiling=read(settings, "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX"),
        user_agent=str(settings.get("USER_AGENT") or "webrobot"),
        count=lambda key: counts.update([key]), outbox=opener,
        retries=read(settings, "WEBROBOT_MONITOR_WEBHOOK_RETRIES"),
    )  # fmt: skip
    sender.start()
    left = sender.close(wait)
    delivered = counts["webrobot/monitor/webhook/delivered"]
    parked = counts["webrobot/monitor/webhook/parked"]
    print(f"webrobot-replay: {count} parked events put back; {delivered} events delivered, "
          f"{parked} parked again, {max(0, left)} waiting for the next crawl")  # fmt: skip
    return 0 if left == 0 and not parked else 1


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[SPIDER] [--wait SECONDS] [--list]"

    def short_desc(self) -> str:
        return "Send the monitor's parked webhook events again (WEBROBOT_MONITOR_DIR)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--wait", metavar="SECONDS", type=float, default=60.0,
            help="deliver for at most this long (default: 60); what is left waits for the next crawl",
        )  # fmt: skip
        parser.add_argument(
            "--list", action="store_true", help="only count the parked and waiting events"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) > 1:
            raise UsageError("at most one SPIDER (a shared crawl's)")
        assert self.settings is not None
        self.exitcode = replay(self.settings, args[0] if args else None, opts.wait, opts.list)
