"""URL-template traps (:mod:`webrobot.urls.templates`): a chain of pages of one
template (a calendar's next day, an endless list's next page) is cut after
``WEBROBOT_TEMPLATE_MAX_CHAIN`` pages, and a template gets at most
``WEBROBOT_TEMPLATE_MAX_PAGES`` pages; a site config's ``[[templates]]``
tables raise or lower both for the URLs they match.

Two components:

* :class:`TemplateChainMiddleware`, a spider middleware, writes each link's
  chain length into its request (meta ``_template_chain``): one more than its
  page's when the link has the page's template, else 0;
* :class:`UrlTemplateMiddleware`, a downloader middleware placed after the
  site's page budget (so a page is counted only when it is about to be
  fetched), refuses a request over either limit through the
  :class:`~webrobot.urls.refusals.Refuser` (``webrobot/url/refused/template_chain``,
  ``.../template_budget``) and counts the pages of each template for the
  crawl report.

``dont_limit_template`` in a request's meta lets it through uncounted.
With ``JOBDIR`` the pages per template live in ``spider.state``, so a resumed
job continues its budgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http.request import NO_CALLBACK
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import non_negative_setting, setting_error
from webrobot.urls.refusals import Refuser
from webrobot.urls.templates import TemplateRules, TemplateTally, next_chain, url_template
from webrobot.wiring import find_per_crawler, set_per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

#: request meta: how many pages of this request's template led to it in a row
CHAIN_KEY = "_template_chain"
#: request meta: opt out of the template limits
DONT_KEY = "dont_limit_template"
#: ``spider.state`` key of the pages requested per template
STATE_KEY = "webrobot_template_pages"


def template_tally(crawler: Crawler) -> TemplateTally | None:
    """The crawl's per-template tally (``None`` when the limits are off)."""
    return find_per_crawler(crawler, TemplateTally)


def _enabled(crawler: Crawler) -> bool:
    return read(crawler.settings, "WEBROBOT_TRAPS_ENABLED")


class TemplateChainMiddleware(BaseSpiderMiddleware):
    """Gives each link its chain of pages of one URL template, for the URL-template trap rule."""

    def __init__(self, crawler: Crawler) -> None:
        if not _enabled(crawler):
            raise NotConfigured("WEBROBOT_TRAPS_ENABLED is off")
        super().__init__(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:
            return request
        parent = url_template(response.url)
        chain = int(response.meta.get(CHAIN_KEY, 0))
        request.meta[CHAIN_KEY] = next_chain(parent, chain, url_template(request.url))
        return request


class UrlTemplateMiddleware:
    """Refuses a page of a URL template once its chain of pages of that template is too long."""

    def __init__(self, crawler: Crawler) -> None:
        if not _enabled(crawler):
            raise NotConfigured("WEBROBOT_TRAPS_ENABLED is off")
        try:
            self.max_chain = non_negative_setting(crawler, "WEBROBOT_TEMPLATE_MAX_CHAIN")
            self.max_pages = non_negative_setting(crawler, "WEBROBOT_TEMPLATE_MAX_PAGES")
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self.tally = TemplateTally()
        set_per_crawler(crawler, TemplateTally, self.tally)
        self._rules: TemplateRules | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def rules(self) -> TemplateRules:
        if self._rules is None:
            spider = self.crawler.spider
            config = getattr(spider, "config", None)
            self._rules = TemplateRules(
                self.max_chain, self.max_pages, tuple(getattr(config, "templates", ()) or ())
            )
            state: Any = getattr(spider, "state", None)
            if isinstance(state, dict):  # JOBDIR: continue the budgets of the paused job
                self.tally.pages = state.setdefault(STATE_KEY, self.tally.pages)
        return self._rules

    def process_request(self, request: Request) -> None:
        if request.callback is NO_CALLBACK or request.meta.get(DONT_KEY):
            return
        rules = self.rules()
        refusal = self.tally.check(rules, request.url, int(request.meta.get(CHAIN_KEY, 0)))
        if refusal is not None:
            reason, _template, detail = refusal
            raise self.refuser.refuse(request, reason, detail)
