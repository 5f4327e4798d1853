"""webrobot's own signals, so the report and monitors see every decision.

Send with ``crawler.signals.send_catch_log(signal=..., **kwargs)``.
"""

#: A request was not downloaded by webrobot's choice.
#: kwargs: request (scrapy.Request), reason (str, e.g. "too_long"), site (site key)
request_refused = object()

#: A site's robots.txt rules are decided (sent by the robots.txt middleware once per
#: fetch, after redirects and retries). Only ``site`` is required; the crawl report
#: records whatever else is given.
#: kwargs: site (site key), status (int | None: HTTP status of the final robots.txt
#: response, None when none came), outcome (str: "rules", "allow_all",
#: "disallow_all", or "unreachable" when the robot gave up on it), rules (str: a
#: one-line summary), fetched_at (float: epoch seconds), expires (float | None: epoch
#: seconds), crawl_delay (float | None: the Crawl-delay that applies to us)
robots_resolved = object()

#: Requests to a site are held back for a while (robots.txt unavailable, 503 with
#: Retry-After, ...). Sent when a deferral starts or is extended; robots_resolved
#: ends it early.
#: kwargs: site (site key), delay (float: seconds from now), reason (str)
site_deferred = object()

#: A downloaded page was kept out of the results, or its links were not followed.
#: kwargs: request (scrapy.Request), site (site key), flag (str: "noindex",
#: "nofollow" or "duplicate")
page_flagged = object()
