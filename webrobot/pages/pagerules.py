"""A page's robots rules, as the crawl's parts read them: the directives of a response
(``X-Robots-Tag`` and the head's robots meta elements, :func:`response_directives`), where
:class:`~webrobot.pages.metarobotsmiddleware.MetaRobotsMiddleware` records them
(:data:`META_KEY`), and what they let a spider do with the page (:func:`page_rules`:
index it, follow its links, keep a copy of its body).

The middleware, the spider middleware that enforces ``noindex`` and ``nofollow``, the
``webrobot`` spider, the archive and the re-crawl cache all take the rules from here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scrapy.http import HtmlResponse

from webrobot import signals
from webrobot.pages.metarobots import (
    ALLOW_ALL,
    RobotsPolicy,
    dedupe,
    head_meta_directives,
    headers_directives,
    policy,
    relabelled_text,
)
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import site_key

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from webrobot.pages.page import Link

logger = logging.getLogger(__name__)

#: response.meta key holding the directives that applied (a list of lower-case strings)
META_KEY = "robots"
#: request meta key: do not read or obey robots directives for this request
OPT_OUT_KEY = "dont_obey_meta_robots"


def response_directives(response: Response, agent: str) -> list[str]:
    """The directives for ``agent`` in ``response``'s X-Robots-Tag headers and,
    for HTML, the robots meta elements of its head (may raise on undecodable text)."""
    values = [v.decode("latin-1") for v in response.headers.getlist("X-Robots-Tag")]
    found = headers_directives(values, agent) if values else []
    if isinstance(response, HtmlResponse):
        text = response.text
        in_head = head_meta_directives(text, agent)
        if not in_head:
            relabelled = relabelled_text(text, response.body)
            if relabelled is not None:
                in_head = head_meta_directives(relabelled, agent)
        found += in_head
    return dedupe(found)


@dataclass(frozen=True, slots=True)
class PageRules:
    """What the spider may do with one page; see :func:`page_rules`."""

    index: bool = True
    follow: bool = True
    store_body: bool = False  # keep a copy of the body in the item
    honor_rel_nofollow: bool = False
    crawler: Crawler | None = None

    def links(self, links: Iterable[Link]) -> Iterator[Link]:
        """The links to request: not the ``rel="nofollow"`` ones (counted
        ``webrobot/meta/rel_nofollow``); a nofollow page's requests are dropped
        by the spider middleware."""
        if not self.follow:  # all dropped there: none is counted as rel="nofollow"
            yield from links
            return
        skipped = 0
        for link in links:
            if link.nofollow and self.honor_rel_nofollow:
                skipped += 1
                continue
            yield link
        if skipped and self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value("webrobot/meta/rel_nofollow", skipped)


def flag_page(crawler: Crawler, response: Response, flag: str) -> None:
    """Tell the crawl report (``page_flagged``) that ``response``'s page is ``flag`` (noindex, nofollow)."""
    crawler.signals.send_catch_log(
        signal=signals.page_flagged,
        request=response.request,
        site=site_key(response.url),
        flag=flag,
    )


def verdict(response: Response) -> RobotsPolicy:
    """What the robots directives recorded on ``response`` allow (everything, for a
    request that opted out): the one reading of them, for every component that
    enforces one."""
    meta = response.request.meta if response.request is not None else {}
    directives = meta.get(META_KEY) if not meta.get(OPT_OUT_KEY) else None
    return policy(directives) if directives else ALLOW_ALL


def indexable(response: Response) -> bool:
    """Whether ``response``'s page may be indexed (no ``noindex`` it obeys): its items
    go out."""
    return verdict(response).index


def page_rules(crawler: Crawler, response: Response) -> PageRules:
    """The rules of the robots directives the middleware recorded on ``response``;
    counts ``webrobot/meta/noarchive`` (one per page carrying it) and logs it at
    DEBUG (``noindex`` and ``nofollow`` are counted, and signalled with
    ``page_flagged``, where they are enforced:
    :class:`~webrobot.pages.metarobotsspidermiddleware.MetaRobotsSpiderMiddleware`)."""
    settings = crawler.settings
    store_body = read(settings, "WEBROBOT_STORE_BODY")
    if response.meta.get(OPT_OUT_KEY) or not read(settings, "WEBROBOT_META_ROBOTS_ENABLED"):
        return PageRules(store_body=store_body)
    allowed = verdict(response)
    stats = crawler.stats
    assert stats is not None
    if not allowed.archive:
        stats.inc_value("webrobot/meta/noarchive")
        logger.debug(
            "Storing no copy of %s: robots directives %s", response.url, response.meta.get(META_KEY)
        )
    return PageRules(
        index=allowed.index,
        follow=allowed.follow,
        store_body=store_body and allowed.archive,
        honor_rel_nofollow=read(settings, "WEBROBOT_HONOR_REL_NOFOLLOW"),
        crawler=crawler,
    )
