"""webrobot's own signals, so the report and monitors see every decision.

Send with ``crawler.signals.send_catch_log(signal=..., **kwargs)``.
"""

#: A request was not downloaded by webrobot's choice.
#: kwargs: request (scrapy.Request), reason (str, e.g. "too_long"), site (site key)
request_refused = object()
