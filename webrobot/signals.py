"""webrobot's own signals, so the report and monitors see every decision.

Send with ``crawler.signals.send_catch_log(signal=..., **kwargs)``. The crawl
report (:mod:`webrobot.report.collector`) is built from these, Scrapy's own
signals and the marks below, never from reading what was downloaded or from
guessing what a URL was for.
"""

#: Request meta set by the robots.txt middleware on every robots.txt request it
#: sends (each redirect hop too): the site key of the site whose robots.txt it is.
ROBOTS_FETCH_META = "_robots_fetch"

#: Request meta set by the crawl report while a request waits in this worker's frontier.
REPORT_FRONTIER_META = "_report_frontier"

#: Request meta that marks a sitemap fetch (value: where the sitemap was found).
SITEMAP_META = "_sitemap"

#: Request meta set when a page finally failed (value: the reason), so the
#: frontier records it instead of acknowledging the page as done.
FAILED_META = "_webrobot_failed"
#: Request meta set on a request let go when the crawl stopped (Ctrl-C, SIGTERM:
#: :mod:`webrobot.politeness.letgo`): it was not fetched, and what it spent (a page of
#: its site's budget) is given back; with ``JOBDIR`` the next run fetches it.
LET_GO_META = "_webrobot_let_go"
#: Request meta marking a page requisite (a stylesheet, script, image, font, media
#: file or frame an archived page needs): its kind. Requisites pass the scope as
#: embeds (within WEBROBOT_REQUISITES_MAX_HOPS of an in-scope page), bypass the
#: content-type gate, and are never itemised or followed for links.
REQUISITE_META = "webrobot_requisite"
#: Request meta of a requisite: how many embeds it is away from its page (1: the page names it).
HOPS_META = "_requisite_hops"

#: Request meta keys that describe a request as one worker sees it; a frontier
#: shared with other workers leaves them out of its copy of the request.
WORKER_LOCAL_META = (REPORT_FRONTIER_META,)

#: Sent by the crawl report as it is written: a part of the crawl above the report
#: (the archive) returns a dict of its own sections, merged into report.json.
#: kwargs: finished (bool: the final report; False while the crawl runs)
report_parts = object()

#: A request was not downloaded by webrobot's choice.
#: kwargs: request (scrapy.Request), reason (str, e.g. "too_long"), site (site key)
request_refused = object()

#: A response carried robots directives for webrobot (meta robots / X-Robots-Tag).
#: kwargs: response (scrapy.http.Response), directives (list of lower-case str), site (site key)
page_directives = object()

#: A site's robots.txt was decided (fetched, or given up on), once per fetch.
#: kwargs: site (site key), status (int or None), outcome ("rules", "unavailable",
#: "forbidden", "unreachable"), rules (str: summary of what applies to us),
#: fetched_at and expires (Unix times), crawl_delay (seconds between request
#: starts asked for, capped; None if none), crawl_delay_source ("crawl_delay",
#: "request_rate" or None), url (the robots.txt URL finally fetched)
robots_resolved = object()

#: A site's requests are held because its robots.txt could not be fetched.
#: kwargs: site (site key), seconds (until the next attempt), attempt (int, 1 first),
#: reason (str: the status or error of the failed attempt), status (int: the
#: failed attempt's HTTP status; None if it got no response), gives_up_in (float:
#: seconds until the site counts as unreachable; None: no limit)
site_deferred = object()

#: The crawl has nothing left but requests held for sites whose robots.txt keeps
#: failing (active=True), or has work again (active=False).
#: kwargs: sites (list of site keys holding requests), closes_in (float: seconds
#: until the crawl closes for it, WEBROBOT_ROBOTS_HELD_ONLY_MAX; None: no limit or
#: not active), active (bool)
held_sites_only = object()

#: A downloaded page was kept out of the results, or its links were not followed.
#: kwargs: request (scrapy.Request; None for an item judged in a pipeline), site
#: (site key), flag (str: "noindex", "nofollow" or "duplicate")
page_flagged = object()

#: A request scheduled in this worker went to a frontier shared with other
#: workers: it is no longer in this worker's frontier.
#: kwargs: request (scrapy.Request)
request_shared = object()
