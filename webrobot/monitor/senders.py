"""The monitor's two senders, each a thread (:mod:`webrobot.monitor.delivery`): the
webhook's events (:mod:`webrobot.monitor.webhook`) and the notices
(:mod:`webrobot.monitor.notify`).
Started when the monitor's folder opens; at the crawl's end the crawl's digest is
kept for the notices, and both threads are given ``WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT``
seconds, side by side, to deliver what is left (the rest waits in the folder for the
next crawl).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webrobot.settingsmodel.startup import setting

if TYPE_CHECKING:
    from pathlib import Path

    from scrapy.crawler import Crawler

    from webrobot.monitor.notify import NotifySender
    from webrobot.monitor.webhook import WebhookSender

logger = logging.getLogger(__name__)

Count = Callable[..., None]


def start_senders(
    crawler: Crawler, folder: Path, webhook_url: str, notify_urls: list[str], count: Count,
    outbox: Any,
) -> tuple[WebhookSender | None, NotifySender | None]:  # fmt: skip
    """The webhook's sender and the notices' sender, started (``None`` where not asked)."""
    sender: WebhookSender | None = None
    notifier: NotifySender | None = None
    if webhook_url:
        from webrobot.monitor.webhook import WebhookSender

        sender = WebhookSender(
            folder, webhook_url,
            timeout=setting(crawler, "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT"),
            ceiling=setting(crawler, "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX"),
            user_agent=str(crawler.settings.get("USER_AGENT") or "webrobot"),
            count=count, outbox=outbox,
            retries=setting(crawler, "WEBROBOT_MONITOR_WEBHOOK_RETRIES"),
        )  # fmt: skip
        sender.start()
    if notify_urls:
        from webrobot.monitor.notify import Notices, NotifySender

        notices = Notices(folder)
        try:
            notices.start()
        finally:
            notices.close()
        notifier = NotifySender(
            folder, notify_urls,
            ceiling=setting(crawler, "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX"),
            count=count,
        )  # fmt: skip
        notifier.start()  # the notices a last crawl left go out first
    return sender, notifier


def keep_digest(
    folder: Path, spider: str, notify_urls: list[str], summary: Any, count: Count
) -> None:
    """Keep the crawl's digest in the folder, for the notices' thread to send."""
    from webrobot.monitor.notify import Notices

    notices = Notices(folder)
    try:
        count("webrobot/monitor/notify/digested", notices.add_digest(spider, notify_urls, summary))
    except Exception as exc:  # noqa: BLE001 - a folder that cannot be written
        logger.error("Monitor: the crawl's notice could not be kept in %s: %s", folder, exc)
        count("webrobot/monitor/error")
    finally:
        notices.close()


async def close_senders(
    crawler: Crawler, folder: Path, sender: WebhookSender | None, notifier: NotifySender | None
) -> None:
    """Give both threads the close wait, side by side; say and count what is left."""
    from scrapy.utils.defer import maybe_deferred_to_future
    from twisted.internet.threads import deferToThread

    wait = float(setting(crawler, "WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT"))
    # Delivery goes on in the threads, side by side; the reactor waits without being held.
    closing = [
        (what, deferToThread(thread.close, wait))
        for what, thread in (("webhook", sender), ("notify", notifier))
        if thread is not None
    ]
    for what, closed in closing:
        left = await maybe_deferred_to_future(closed)
        if left:
            logger.warning(
                "Monitor %s: %d %s not delivered yet; they wait in %s for the next crawl",
                what, left, "events" if what == "webhook" else "notices", folder,
            )  # fmt: skip
        if crawler.stats is not None:
            crawler.stats.set_value(f"webrobot/monitor/{what}/left", max(0, left))
