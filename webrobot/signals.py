"""webrobot's own signals, so the report and monitors see every decision.

Send with ``crawler.signals.send_catch_log(signal=..., **kwargs)``.
"""

#: A request was not downloaded by webrobot's choice.
#: kwargs: request (scrapy.Request), reason (str, e.g. "too_long"), site (site key)
request_refused = object()

#: A response carried robots directives for webrobot (meta robots / X-Robots-Tag).
#: kwargs: response (scrapy.http.Response), directives (list of lower-case str), site (site key)
page_directives = object()
