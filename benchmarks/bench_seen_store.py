"""Memory per stored URL at 1,000,000 URLs: webrobot's seen-stores against Scrapy's dupefilter.

    python benchmarks/bench_seen_store.py [--urls N]

Each store receives N distinct request fingerprints (20-byte SHA-1 digests made
fresh for each add, as Scrapy's fingerprinter does). Memory is what
``tracemalloc`` still sees allocated after the adds (the store plus whatever
it keeps alive), and the peak while adding (a growing table briefly holds its
old and new arrays); time per add comes from a separate run without tracing.

* Scrapy 2.19 ``RFPDupeFilter``: the real class, a ``set`` of 20-byte ``bytes``.
* "set of 40-char hex str": what older Scrapy kept (and what the issue describes).
* webrobot ``exact``: ExactStore, the default ``WEBROBOT_SEEN_STORE``.
* webrobot ``bloom``: BloomStore sized for N keys at 1 % and at 0.1 %.

The webrobot rows include ``uniform_key`` (BLAKE2b of the fingerprint), as
``SeenUrlFilter`` does.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrapy.dupefilters import RFPDupeFilter

from webrobot.seen.stores import BloomStore, ExactStore, uniform_key


class _DigestFingerprinter:
    """Stands in for Scrapy's fingerprinter: the 'request' is an int, its fingerprint a fresh SHA-1."""

    def fingerprint(self, request: Any) -> bytes:
        return hashlib.sha1(request.to_bytes(8, "little"), usedforsecurity=False).digest()


def _fingerprint(i: int) -> bytes:
    return hashlib.sha1(i.to_bytes(8, "little"), usedforsecurity=False).digest()


def scrapy_rfp(n: int) -> Any:
    df = RFPDupeFilter(fingerprinter=_DigestFingerprinter())  # type: ignore[arg-type]
    for i in range(n):
        df.request_seen(i)  # type: ignore[arg-type]
    return df


def hex_set(n: int) -> Any:
    seen: set[str] = set()
    for i in range(n):
        seen.add(_fingerprint(i).hex())
    return seen


def webrobot_exact(n: int) -> Any:
    store = ExactStore()
    for i in range(n):
        store.add(uniform_key(_fingerprint(i)))
    return store


def webrobot_bloom(error_rate: float) -> Callable[[int], Any]:
    def build(n: int) -> Any:
        store = BloomStore(n, error_rate)
        for i in range(n):
            store.add(uniform_key(_fingerprint(i)))
        return store

    return build


STORES: list[tuple[str, Callable[[int], Any]]] = [
    ("Scrapy 2.19 RFPDupeFilter (set of bytes)", scrapy_rfp),
    ("set of 40-char hex str (older Scrapy)", hex_set),
    ("webrobot exact (default)", webrobot_exact),
    ("webrobot bloom, 1 %", webrobot_bloom(0.01)),
    ("webrobot bloom, 0.1 %", webrobot_bloom(0.001)),
]


def measure(build: Callable[[int], Any], n: int) -> tuple[float, float, float]:
    """(bytes per URL kept, peak bytes per URL, microseconds per add)."""
    gc.collect()
    started = time.perf_counter()
    store = build(n)
    seconds = time.perf_counter() - started
    del store
    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    store = build(n)
    after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del store
    return (after - before) / n, (peak - before) / n, seconds / n * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--urls", type=int, default=1_000_000, help="URLs to store (default 1,000,000)"
    )
    args = parser.parse_args(argv)
    n = args.urls
    print(f"Memory per stored URL at {n:,} URLs (tracemalloc), Python {sys.version.split()[0]}")
    print()
    rows = [(name, *measure(build, n)) for name, build in STORES]
    width = max(len(r[0]) for r in rows)
    print(f"| {'store':<{width}} | bytes/URL | peak bytes/URL | us/add |")
    print(f"| {'-' * width} | ---: | ---: | ---: |")
    for name, kept, peak, micros in rows:
        print(f"| {name:<{width}} | {kept:9.1f} | {peak:14.1f} | {micros:6.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
