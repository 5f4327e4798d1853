"""Why each component sits where it does: one test per ordering rule, each saying why.

The order is the one a crawler with the add-on builds (webrobot's ``COMPONENTS`` merged
with Scrapy's own, as docs/reference/components.md lists it), so changing an order number
in webrobot/settingsmodel/model.py against a rule fails the rule's test. Components are named
by class, so a module moving to another package does not change a rule.

How Scrapy runs each list: downloader middlewares see a request lowest order first and
its response highest order first; spider middlewares see a response lowest first and
what the callback yields highest first; item pipelines lowest first; extensions are built
lowest first, so their handlers of one signal run in that order.
"""

from __future__ import annotations

from functools import cache

from tests.components import enabled_components

DOWNLOADER = "DOWNLOADER_MIDDLEWARES"
SPIDER = "SPIDER_MIDDLEWARES"
PIPELINES = "ITEM_PIPELINES"
EXTENSIONS = "EXTENSIONS"


@cache
def built(group: str) -> tuple[str, ...]:
    """The import paths of ``group``'s components, in the order a crawler runs them."""
    return tuple(enabled_components(group))


def at(group: str, name: str) -> int:
    """The place of the component of class ``name`` in ``group``'s built order."""
    [place] = [i for i, path in enumerate(built(group)) if path.rsplit(".", 1)[1] == name]
    return place


def earlier(group: str, first: str, then: str) -> bool:
    return at(group, first) < at(group, then)


# Downloader middlewares: a request goes down (lowest first), its response comes back up.


def test_the_frontier_tap_is_the_first_downloader_middleware() -> None:
    """It must see every request the engine takes out of the scheduler, before any filter
    refuses one, so the report knows each site's frontier; and, last in the exception
    chain, every IgnoreRequest a middleware raised."""
    assert at(DOWNLOADER, "FrontierTapMiddleware") == 0


def test_the_download_error_tap_is_the_last_downloader_middleware() -> None:
    """Next to the downloader, it sees every download exception by type before the retry
    middleware turns it into a new attempt."""
    assert at(DOWNLOADER, "DownloadErrorTapMiddleware") == len(built(DOWNLOADER)) - 1


def test_page_failures_are_recorded_outside_the_retries() -> None:
    """Placed next to the engine, the failure middleware sees a response only after the
    retry middleware is done with it: what retries did not fix has failed for good."""
    assert earlier(DOWNLOADER, "PageFailureMiddleware", "RetryMiddleware")


def test_the_network_guard_is_the_first_url_filter() -> None:
    """A request to a forbidden address is refused as such before the scope, blocklist and
    trap rules judge it, and before the robots.txt middleware would ask that address for
    its robots.txt."""
    for later in ("SiteScopeMiddleware", "BlocklistMiddleware", "UrlTrapMiddleware",
                  "RobotsMiddleware"):  # fmt: skip
        assert earlier(DOWNLOADER, "NetworkGuardMiddleware", later), later


def test_scope_is_judged_before_the_blocklist() -> None:
    """The link gate judges a page's links in the downloader's order (scope, blocklist,
    traps), so a URL refused by several rules gets the same reason wherever it is refused."""
    assert earlier(DOWNLOADER, "SiteScopeMiddleware", "BlocklistMiddleware")


def test_the_blocklist_is_judged_before_the_trap_rules() -> None:
    """As above: the downloader's order is the link gate's (scope, blocklist, traps)."""
    assert earlier(DOWNLOADER, "BlocklistMiddleware", "UrlTrapMiddleware")


def test_the_url_filters_come_before_robots_txt() -> None:
    """robots.txt is decided after the URL filters: a URL out of scope, blocklisted or a
    trap is refused with that reason and never costs a robots.txt fetch of its site, nor
    waits while one is fetched."""
    for url_filter in ("SiteScopeMiddleware", "BlocklistMiddleware", "UrlTrapMiddleware"):
        assert earlier(DOWNLOADER, url_filter, "RobotsMiddleware"), url_filter


def test_the_https_upgrade_rewrites_requests_after_robots_txt_released_them() -> None:
    """The requests held while a site's robots.txt is fetched reach the upgrade only once
    they are released, so they are rewritten with what that fetch's redirect to https
    taught it."""
    assert earlier(DOWNLOADER, "RobotsMiddleware", "UpgradeMiddleware")


def test_the_https_upgrade_sees_a_redirect_before_scrapy_follows_it() -> None:
    """The upgrade learns from an http URL redirected to its https form, so it must see
    the 3xx response before Scrapy's redirect middleware turns it into a new request."""
    assert earlier(DOWNLOADER, "RedirectMiddleware", "UpgradeMiddleware")


def test_a_redirect_to_another_scheme_is_refused_before_scrapy_follows_it() -> None:
    """A Location that is not http(s) (javascript:, file:, data:) is refused and counted
    before Scrapy's redirect middleware reads it, instead of ending in a traceback."""
    assert earlier(DOWNLOADER, "RedirectMiddleware", "RedirectSchemeMiddleware")


def test_a_compressed_robots_txt_is_decoded_before_scrapys_decompression() -> None:
    """Scrapy's decompression refuses a whole body that inflates past DOWNLOAD_MAXSIZE;
    robots.txt is decoded first, up to its own parse limit."""
    assert earlier(DOWNLOADER, "HttpCompressionMiddleware", "RobotsBodyMiddleware")


def test_meta_robots_reads_bodies_after_decompression() -> None:
    """The robots meta elements are read from the decompressed body."""
    assert earlier(DOWNLOADER, "MetaRobotsMiddleware", "HttpCompressionMiddleware")


def test_meta_robots_reads_bodies_after_redirects() -> None:
    """A redirect is no page: only the final answer's directives are read."""
    assert earlier(DOWNLOADER, "MetaRobotsMiddleware", "RedirectMiddleware")


def test_meta_robots_reads_bodies_after_retries() -> None:
    """A response that will be retried is no page either: only the final one is read."""
    assert earlier(DOWNLOADER, "MetaRobotsMiddleware", "RetryMiddleware")


def test_a_requisite_is_taken_in_after_retries_redirects_and_decompression() -> None:
    """The requisite middleware counts a requisite's final answer and reads what a
    stylesheet embeds from its decoded body, so it sits below retries, redirects and
    decompression."""
    for before in ("RetryMiddleware", "RedirectMiddleware", "HttpCompressionMiddleware"):
        assert earlier(DOWNLOADER, "RequisiteDownloaderMiddleware", before), before


def test_the_page_budget_is_spent_after_every_filter_and_rewrite() -> None:
    """A page is spent only when it is really about to be fetched: after the URL filters,
    robots.txt and the https upgrade (whose rewritten request would spend a second page)
    have let it through."""
    for before in ("NetworkGuardMiddleware", "SiteScopeMiddleware", "BlocklistMiddleware",
                   "UrlTrapMiddleware", "RobotsMiddleware", "UpgradeMiddleware"):  # fmt: skip
        assert earlier(DOWNLOADER, before, "PageBudgetMiddleware"), before


def test_a_url_template_counts_its_pages_after_the_site_budget() -> None:
    """A page of a URL template counts only when it is about to be fetched, so a request
    the site budget refuses is not counted against its template."""
    assert earlier(DOWNLOADER, "PageBudgetMiddleware", "UrlTemplateMiddleware")


def test_rendering_is_decided_after_every_rule() -> None:
    """A page to render goes through every downloader rule first (scope, traps, robots.txt,
    budgets, URL templates), like any other page."""
    for rule in ("SiteScopeMiddleware", "UrlTrapMiddleware", "RobotsMiddleware",
                 "PageBudgetMiddleware", "UrlTemplateMiddleware"):  # fmt: skip
        assert earlier(DOWNLOADER, rule, "RenderMiddleware"), rule


def test_the_freshness_tap_is_just_outside_the_http_cache() -> None:
    """It counts what a re-crawled page turned out to be from the outcome the cache policy
    records in the request's meta, so it comes right after the cache on the way back."""
    assert at(DOWNLOADER, "FreshnessTapMiddleware") + 1 == at(DOWNLOADER, "HttpCacheMiddleware")


def test_the_archive_sees_each_response_as_it_came_off_the_wire() -> None:
    """The WARC records are the exchange on the wire: before decompression, redirects,
    retries and the HTTP cache change or replace the response."""
    for inner in ("HttpCompressionMiddleware", "RedirectMiddleware", "RetryMiddleware",
                  "HttpCacheMiddleware"):  # fmt: skip
        assert earlier(DOWNLOADER, inner, "WarcArchiveMiddleware"), inner


def test_certificate_problems_are_counted_on_redirects_too() -> None:
    """Near the download, the TLS middleware sees every https response, a redirect
    included, before Scrapy's redirect middleware replaces it with a new request."""
    assert earlier(DOWNLOADER, "RedirectMiddleware", "TlsProblemsMiddleware")


# Spider middlewares: a response goes down (lowest first), what the callback yields comes up.


def test_requisites_are_queued_outside_every_link_rule() -> None:
    """A page's requisites are not links: the requisite middleware is the outermost spider
    middleware, so scope, depth, file extensions and nofollow never see them."""
    assert at(SPIDER, "RequisiteSpiderMiddleware") == 0


def test_the_parse_tree_is_freed_outside_every_middleware_that_reads_it() -> None:
    """The tree is freed once the callback's output is consumed: every other middleware
    (the requisites' aside, which reads the tree before the callback) has used it by then."""
    release = at(SPIDER, "ReleaseParseTreeMiddleware")
    assert release == 1 and at(SPIDER, "RequisiteSpiderMiddleware") < release


def test_the_monitor_sees_error_pages_before_scrapy_drops_them() -> None:
    """A page that now answers 404 or 410 is a change to watch: the monitor sees the
    response before Scrapy's HttpErrorMiddleware drops it."""
    assert earlier(SPIDER, "MonitorMiddleware", "HttpErrorMiddleware")


def test_the_monitor_sees_items_once_extracted() -> None:
    """On the way out the monitor snapshots each item after the extractors have filled it."""
    assert earlier(SPIDER, "MonitorMiddleware", "ExtractMiddleware")


def test_non_text_responses_are_judged_after_http_errors() -> None:
    """An error page is dropped as an HTTP error first; only a successful response that is
    not text is counted as webrobot/page/non_html."""
    assert earlier(SPIDER, "HttpErrorMiddleware", "NonTextMiddleware")


def test_extraction_is_closest_to_the_spider() -> None:
    """The extractors read the page's tree while the crawl's parse is alive, and a noindex
    page's items are mined by nobody: extraction sees the items before every other spider
    middleware, the meta robots one included."""
    extract = at(SPIDER, "ExtractMiddleware")
    for place, path in enumerate(built(SPIDER)):
        if path.startswith("webrobot.") and place != extract:
            assert place < extract, path


def test_meta_robots_is_obeyed_before_duplicate_pages_are_judged() -> None:
    """A noindex first copy keeps its links and a nofollow first copy its item: the meta
    robots middleware withholds them before the duplicate-page middleware records the
    content as having had its links or item."""
    assert earlier(SPIDER, "DuplicatePageMiddleware", "MetaRobotsSpiderMiddleware")


def test_links_are_upgraded_to_https_before_the_link_gate() -> None:
    """The link gate and the duplicate filter see the https form of a link to an https-only
    host, so its http and https forms are one URL."""
    assert earlier(SPIDER, "LinkGateMiddleware", "UpgradeLinksMiddleware")


def test_a_duplicate_pages_links_are_dropped_before_the_link_gate() -> None:
    """The links of a page whose content was seen are dropped before the link gate judges
    them, so they are neither counted as refusals nor marked visited."""
    assert earlier(SPIDER, "LinkGateMiddleware", "DuplicatePageMiddleware")


# Item pipelines and extensions.


def test_one_item_per_url_is_the_last_pipeline() -> None:
    """It marks a URL as having its item in the feeds: only an item that no other pipeline
    drops (a duplicate's, say) may be marked."""
    assert at(PIPELINES, "OneItemPerUrlPipeline") == len(built(PIPELINES)) - 1
    assert earlier(PIPELINES, "DuplicateContentPipeline", "OneItemPerUrlPipeline")


def test_the_stats_file_is_written_after_the_report_and_the_index_close() -> None:
    """At spider_closed (the only write when a failed start never stops the engine) the
    stats file holds the report's health flags and the index's totals, which those
    extensions set in their own spider_closed handlers."""
    for closing in ("CrawlReport", "FullTextIndex"):
        assert earlier(EXTENSIONS, closing, "StatsFile"), closing
