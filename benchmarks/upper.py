"""The upper bound: the same crawl by a minimal asyncio fetch loop, no politeness.

    python -m benchmarks.upper --out items.jsonl --stats stats.json [--concurrency 32] URL...

aiohttp fetches, lxml extracts ``<a href>`` links, a set of URLs (with the
fragment cut) keeps each page to one fetch, and links stay on the start
sites. No robots.txt, no per-site limit, no canonicalisation, no traps, no
retries: what a crawl of this web costs at least in Python. Writes one JSON
line per HTML page (url, status, title) and a stats file with
``elapsed_time_seconds``, as the Scrapy crawls of the benchmark do, so that
:mod:`benchmarks.crawls` measures it the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from urllib.parse import urldefrag, urljoin, urlsplit

import aiohttp
import lxml.html


async def crawl(start_urls: list[str], concurrency: int, out_path: str) -> dict[str, int]:
    allowed = {urlsplit(url).netloc for url in start_urls}
    seen: set[str] = set(start_urls)
    queue: asyncio.Queue[str] = asyncio.Queue()
    for url in start_urls:
        queue.put_nowait(url)
    counts = {"pages": 0, "errors": 0}
    connector = aiohttp.TCPConnector(limit=concurrency, limit_per_host=0, ttl_dns_cache=None)
    with open(out_path, "w", encoding="utf-8") as out:  # noqa: ASYNC230 - small writes, as a crawler's feed
        async with aiohttp.ClientSession(connector=connector) as session:

            async def worker() -> None:
                while True:
                    url = await queue.get()
                    try:
                        async with session.get(url, allow_redirects=False) as response:
                            body = await response.read()
                            html = "text/html" in response.headers.get("Content-Type", "")
                            status = response.status
                        if html and body:
                            root = lxml.html.fromstring(body)
                            title = root.findtext(".//title") or ""
                            out.write(
                                json.dumps({"url": url, "status": status, "title": title}) + "\n"
                            )
                            counts["pages"] += 1
                            for href in root.xpath("//a/@href"):
                                link = urldefrag(urljoin(url, href.strip()))[0]
                                if link not in seen and urlsplit(link).netloc in allowed:
                                    seen.add(link)
                                    queue.put_nowait(link)
                    except (aiohttp.ClientError, ValueError, lxml.etree.LxmlError):
                        counts["errors"] += 1
                    finally:
                        queue.task_done()

            workers = [asyncio.create_task(worker()) for _ in range(concurrency)]
            await queue.join()
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.upper", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--out", required=True)
    parser.add_argument("--stats", required=True)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("start_urls", nargs="+")
    args = parser.parse_args(argv)
    started = time.monotonic()
    counts = asyncio.run(crawl(args.start_urls, args.concurrency, args.out))
    stats = {"elapsed_time_seconds": time.monotonic() - started, "item_scraped_count": counts["pages"],
             "upper/errors": counts["errors"], "finish_reason": "finished"}  # fmt: skip
    with open(args.stats, "w", encoding="utf-8") as handle:
        json.dump(stats, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
