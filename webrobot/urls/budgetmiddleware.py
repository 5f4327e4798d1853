"""A site's page budget (``WEBROBOT_MAX_PAGES_PER_SITE``, or ``max_pages`` in a
site config): once a site (a host: ``http://h/`` and ``https://h/`` spend one
budget, :func:`webrobot.urls.sitekey.host_key`) has had that many requests let
through to the network, further requests for it are refused (reason ``budget``).

Placed late in the downloader middleware chain (after robots.txt, redirects
and retries have decided), so a page is spent only when it is really about to
be fetched. Every fetch counts, retries and redirect hops included: the budget
bounds what a site serves. Internal fetches whose response no spider callback
sees (``callback=NO_CALLBACK``: robots.txt) are not pages and spend nothing.

A request let go when the crawl stops (Ctrl-C) was not fetched: its page is given back.
With ``JOBDIR``, the pages spent live in ``spider.state`` (which Scrapy's
``SpiderState`` saves at a clean close), so a resumed job continues the
budget instead of starting a new one.

The budget's class is named by ``WEBROBOT_PAGE_BUDGET_CLASS`` (built with the
limit), so that the workers of a distributed crawl can share one budget per
site (:mod:`webrobot.distributed.budget`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import non_negative_setting, setting_error
from webrobot.signals import LET_GO_META
from webrobot.urls.budget import PageBudget
from webrobot.urls.refusals import Refuser
from webrobot.urls.sitekey import request_host
from webrobot.urls.traps import BUDGET

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


#: ``spider.state`` key of the pages spent per site ({site key: pages}).
STATE_KEY = "webrobot_pages_spent"


class PageBudgetMiddleware:
    """Refuses a site's requests once its page budget is spent."""

    def __init__(self, crawler: Crawler) -> None:
        try:
            limit = non_negative_setting(crawler, "WEBROBOT_MAX_PAGES_PER_SITE")
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None
        if not limit:
            raise NotConfigured("WEBROBOT_MAX_PAGES_PER_SITE is 0 (no budget)")
        budget_class = load_object(read(crawler.settings, "WEBROBOT_PAGE_BUDGET_CLASS"))
        self.budget: PageBudget = build_from_crawler(budget_class, crawler, limit)
        self.refuser = Refuser(crawler)
        self.crawler = crawler
        self._resumed = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if request.callback is NO_CALLBACK:
            return
        if not self._resumed:
            self._resumed = True
            state = getattr(self.crawler.spider, "state", None)
            if isinstance(state, dict) and type(self.budget) is PageBudget:  # JOBDIR is set
                self.budget.spent = state.setdefault(STATE_KEY, self.budget.spent)
        if not self.budget.spend(request_host(request)):
            raise self.refuser.refuse(
                request, BUDGET, f"the site's budget of {self.budget.limit} pages is spent"
            )

    def process_exception(self, request: Request, exception: Exception) -> None:
        """A request let go when the crawl stopped was not fetched: its page is given back
        (the resumed job spends it when it fetches it)."""
        del exception
        if request.meta.get(LET_GO_META) and request.callback is not NO_CALLBACK:
            refund = getattr(self.budget, "refund", None)  # a shared budget may not give back
            if callable(refund) and type(self.budget) is PageBudget:
                refund(request_host(request))
