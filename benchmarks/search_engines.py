"""``python -m benchmarks.search_engines``: webrobot's index (tantivy,
:mod:`webrobot.search.index`) against SQLite FTS5 (:mod:`benchmarks.fts5_index`)
on the same corpus, through the same interface the crawl uses (``put`` per page,
replacing by URL, a commit every 200 pages): pages indexed per second, index
bytes per page, and query latency (p50/p99, top 10 with highlighted snippets)
for word, two-word, phrase and prefix queries. The engines alternate
(``--reps``), so load on a shared machine hits both alike.

The corpus is synthetic but shaped like text: a 30,000-word vocabulary drawn
with Zipf's law (a few very common words, a long tail of rare ones), pages of
150-600 words with a short title. ``--pages 100000`` is the size the latency
goal names. Prints ``BENCH-RESULT`` JSON lines.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.fts5_index import SearchIndex as FtsIndex
from webrobot.search.index import IndexedPage, SearchIndex

VOCABULARY = 30_000
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "bar", "den", "fis", "gon", "hul", "jet",
             "pra", "sto", "tri", "wen", "xa", "yul")  # fmt: skip


def vocabulary(size: int, rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words, key=lambda w: (len(w), w))  # short words are the common ones


def pages(count: int, seed: int = 7) -> Iterator[IndexedPage]:
    rng = random.Random(seed)
    words = vocabulary(VOCABULARY, rng)
    cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))
    total = cumulative[-1]

    def draw(k: int) -> list[str]:
        return [words[bisect.bisect(cumulative, rng.random() * total)] for _ in range(k)]

    for n in range(count):
        site = f"http://site{n % 50}.test:80"
        yield IndexedPage(
            url=f"{site}/page/{n}", site=site, host=f"site{n % 50}.test",
            title=" ".join(draw(5)).title(), text=" ".join(draw(rng.randint(150, 600))),
            fetched_at="2026-11-24T12:00:00Z", lang="en",
        )  # fmt: skip


def queries(seed: int = 11) -> dict[str, list[str]]:
    rng = random.Random(seed)
    words = vocabulary(VOCABULARY, random.Random(7))
    common, middle, rare = words[20:200], words[1000:5000], words[15000:]
    return {
        "rare word": [rng.choice(rare) for _ in range(100)],
        "common word": [rng.choice(common) for _ in range(100)],
        "two words": [f"{rng.choice(middle)} {rng.choice(common)}" for _ in range(100)],
        "phrase": [f'"{rng.choice(common)} {rng.choice(common)}"' for _ in range(100)],
        "prefix": [rng.choice(middle)[:3] + "*" for _ in range(100)],
    }


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def latency(
    search: Callable[[str], int], by_kind: dict[str, list[str]]
) -> dict[str, dict[str, float]]:
    out = {}
    for kind, items in by_kind.items():
        search(items[0])  # warm the page cache
        times = []
        for query in items:
            started = time.perf_counter()
            search(query)
            times.append(1000 * (time.perf_counter() - started))
        times.sort()
        out[kind] = {"p50_ms": round(statistics.median(times), 2),
                     "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 2)}  # fmt: skip
    return out


def bench(engine: str, count: int, folder: Path) -> dict[str, object]:
    index: Any
    if engine == "sqlite-fts5":
        path = folder / "fts5.sqlite"
        index = FtsIndex(path, create=True)
    else:
        path = folder / "index"
        index = SearchIndex(path, create=True)
    started = time.perf_counter()
    for page in pages(count):
        index.put(page)
    index.optimize()
    index.close()
    elapsed = time.perf_counter() - started
    size = folder_bytes(folder)
    reader = FtsIndex(path) if engine == "sqlite-fts5" else SearchIndex(path)

    def search(query: str) -> int:
        return len(reader.search(query, limit=10))

    return {"engine": engine, "pages": count, "pages_per_second": round(count / elapsed),
            "bytes_per_page": round(size / count), "latency": latency(search, queries())}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--engines", default="sqlite-fts5,tantivy")
    parser.add_argument("--reps", type=int, default=1)
    args = parser.parse_args(argv)
    for rep in range(args.reps):
        for engine in args.engines.split(","):
            folder = Path(tempfile.mkdtemp(prefix=f"bench-{engine}-"))
            try:
                result = {"rep": rep, **bench(engine, args.pages, folder)}
                print("BENCH-RESULT " + json.dumps(result), flush=True)
            finally:
                shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
