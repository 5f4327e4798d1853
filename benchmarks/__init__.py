"""webrobot's benchmarks: a fast local web, crawl comparisons against bare Scrapy,
and micro-benchmarks of the per-URL and per-page decisions.

Run ``make bench`` (``python -m benchmarks.run``); ``python -m benchmarks.run --help``
lists the options. Not part of ``make test``: a smoke test runs the same code on a
tiny web (``tests/test_benchmarks_smoke.py``).
"""
