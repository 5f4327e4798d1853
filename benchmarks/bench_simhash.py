"""The near-duplicate filter's cost per page: the SimHash of a real article's text and
a look-up in the banded index (``webrobot.seen.simhash``).

The texts are the public article-extraction benchmark's articles
(``../shared/benchdata``, read in place); without them, generated texts of the same
length. The target: under 5 ms per page for both together, a small part of what
parsing and extracting the page costs. Also shown, not judged: saving the index to a
``JOBDIR`` checkpoint file and loading it back (done once per run, with Scrapy's scheduler).
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from benchmarks.micro import fmt_time, per_call, print_table, quick, report_target
from webrobot.seen.simhash import NearIndex, simhash
from webrobot.seen.storefile import load_store, save_store

TARGET_SECONDS = 0.005


def texts() -> list[str]:
    from scripts.eval_simhash import DATA, articles

    if DATA.exists():
        return [body for _, body in articles()]
    rng = random.Random(3)
    return [
        "\n".join(" ".join(f"w{rng.randrange(5000)}" for _ in range(40)) for _ in range(18))
        for _ in range(180)
    ]


def main() -> int:
    pages = texts()[: 40 if quick() else None]
    index = NearIndex(3)
    rng = random.Random(1)
    for n in range(100_000 if not quick() else 10_000):  # a crawl's worth of kept pages
        index.first(rng.getrandbits(64), f"https://www.example.com/news/2026/11/article-{n}.html")
    prints = [simhash(text) for text in pages]
    hashing = per_call(simhash, pages)
    lookup = per_call(index.near, prints)
    words = sum(len(text.split()) for text in pages) / len(pages)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "webrobot-near.store")
        started = time.perf_counter()
        size = save_store(index, path)
        saving = (time.perf_counter() - started) / len(index)
        started = time.perf_counter()
        load_store(path)
        loading = (time.perf_counter() - started) / len(index)
    print_table(
        f"{len(pages)} article texts, {words:.0f} words on average; index of {len(index):,} pages",
        ("step", "per page"),
        [
            ("SimHash of the text", fmt_time(hashing)),
            ("look-up in the banded index", fmt_time(lookup)),
            (f"checkpoint: save ({size / len(index):.0f} bytes a page)", fmt_time(saving)),
            ("checkpoint: load", fmt_time(loading)),
        ],
    )
    total = hashing + lookup
    report_target("near-duplicate check per page < 5 ms", fmt_time(total), total < TARGET_SECONDS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
