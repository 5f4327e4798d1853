"""webrobot's own signals, so the report and monitors see every decision.

Send with ``crawler.signals.send_catch_log(signal=..., **kwargs)``.
"""

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
#: reason (str: the status or error of the failed attempt)
site_deferred = object()

#: A downloaded page was kept out of the results, or its links were not followed.
#: kwargs: request (scrapy.Request), site (site key), flag (str: "noindex",
#: "nofollow" or "duplicate")
page_flagged = object()
