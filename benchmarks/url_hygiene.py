"""Per-URL cost of webrobot's URL hygiene against Scrapy's default fingerprint.

    PYTHONPATH=. .venv/bin/python benchmarks/url_hygiene.py

Every link a page yields is fingerprinted (the dupefilter) and every request
passes the trap rules and the blocklist, so these run once per URL.
20,000 URLs, best of 3 runs; under ``WEBROBOT_BENCH_QUICK`` 2,000 URLs, and under
``WEBROBOT_BENCH_SMOKE`` 100 URLs in one run (``benchmarks.micro``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from scrapy import Request
from scrapy.utils.request import RequestFingerprinter

from benchmarks.micro import size
from webrobot.seen.requestfingerprinter import CanonicalRequestFingerprinter
from webrobot.urls.blocklist import Blocklist
from webrobot.urls.canonical import Canonicalizer
from webrobot.urls.traps import TrapRules

N = size(20000, 2000, 100)
URLS = [
    f"http://shop.example.com:80/products/{i % 97}/item-{i}.html?utm_source=x&b={i}&a=1#reviews"
    for i in range(N)
]
RUNS = size(3, 3, 1)


def per_url(label: str, func: Callable[[Any], object], make: Callable[[], list[Any]]) -> None:
    """Best of three runs over fresh inputs (fingerprints are cached per request)."""
    best = float("inf")
    for _ in range(RUNS):
        items = make()
        start = time.perf_counter()
        for item in items:
            func(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    print(f"{label:<52} {best * 1e6:7.2f} us/URL")


def main() -> None:
    def requests() -> list[Request]:
        return [Request(u) for u in URLS]

    def ours() -> Callable[[Request], bytes]:
        fingerprinter = CanonicalRequestFingerprinter(None)
        # What a spider whose config has these alias rules gets (fresh cache).
        fingerprinter._canonicalizer = Canonicalizer(["index.html"], ["sessionid", "utm_*"])
        return fingerprinter.fingerprint

    per_url("scrapy RequestFingerprinter", RequestFingerprinter().fingerprint, requests)
    fingerprint = ours()
    per_url(
        "webrobot CanonicalRequestFingerprinter, alias rules", lambda r: fingerprint(r), requests
    )
    canon = Canonicalizer(["index.html"], ["sessionid", "utm_*"])
    per_url("webrobot canonical URL, uncached", canon._canonical, lambda: URLS)
    per_url("webrobot canonical URL, cached (scope, blocklist)", canon, lambda: URLS[: N // 5])
    per_url("webrobot trap rules (length, segments)", TrapRules().refusal, lambda: URLS)
    blocklist = Blocklist.from_entries(
        ["ads.example", "https://tracker.example", r"re:/calendar/\d{4}/"]
    )
    per_url("webrobot blocklist match (3 entries)", blocklist.match, lambda: URLS)


if __name__ == "__main__":
    main()
