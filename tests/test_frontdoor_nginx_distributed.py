"""End-to-end: the real web's front door in a shared crawl. Two ``scrapy crawl``
workers share one crawl through a real redis-server and crawl sites on a real
nginx (tests/nginxbed.py) on ports 80 and 443; judged by nginx's access log,
whichever worker made each request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.nginxbed import (
    NginxBed,
    by_host,
    describe,
    expected_pages,
    figures,
    moved_to_tls,
    moved_to_www,
    overlaps,
    page_paths,
    pages_served,
    requests_per_page,
    robots,
    robots_fetches,
    site_pages,
    unspaced,
)
from tests.redisserver import RedisServer
from tests.test_distributed_crawl import LONG_LEASES, Worker, redis_state, stop_all
from tests.test_frontdoor_nginx import GROUP_BY_IP, TLS_STATS, TLS_STATS_PREFIX

pytestmark = pytest.mark.slow


def run_workers(tmp_path: Path, bed: NginxBed, redis_server: RedisServer, start_urls: list[str],
                monkeypatch: pytest.MonkeyPatch, settings: dict[str, str] | None = None,
                n: int = 2) -> list[Worker]:  # fmt: skip
    """``n`` workers of one shared crawl, every name of the bed resolved to its
    address and its certificate authority trusted; waited for."""
    monkeypatch.setenv("SSL_CERT_FILE", str(bed.ca_file))
    common = {
        "WEBROBOT_REDIS_URL": redis_server.url,
        "WEBROBOT_RESOLVE": json.dumps(bed.hosts),
        **LONG_LEASES,  # every page once: no worker here stops, none may lose its leases
        **(settings or {}),
    }
    args = {"start_urls": ",".join(start_urls)}
    workers = [Worker(tmp_path / f"worker-{i}", f"worker-{i}", args, common) for i in range(n)]
    try:
        codes = [worker.wait(120) for worker in workers]
    finally:
        stop_all(workers)
    for host, numbers in figures(bed.hits()).items():
        print(f"front door figures: {host} {json.dumps(numbers)}")
    assert codes == [0] * n, [w.log()[-2000:] for w in workers]
    return workers


def stats_sum(workers: list[Worker], key: str) -> Any:
    return sum(w.stats().get(key, 0) for w in workers)


def test_two_workers_through_the_front_door(
    nginx_bed: NginxBed, redis_server: RedisServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A site moved to TLS, a site moved to ``https://www.`` and a site under both
    schemes, started as a person types them: every page fetched once across
    the workers, never two requests to one host at once, each host's
    Crawl-delay held across schemes and workers, each origin's robots.txt
    fetched once, about one request per page on the site moved to TLS."""
    shop = site_pages(40, ["http://shop.test", "https://shop.test", ""], title="shop")
    shop["/robots.txt"] = robots(crawl_delay=0.1)
    moved_to_tls(nginx_bed, "shop.test", shop, delay=0.03)
    blog = site_pages(8, ["http://blog.test", "https://www.blog.test", ""], title="post")
    blog["/robots.txt"] = robots(crawl_delay=0.2)
    moved_to_www(nginx_bed, "blog.test", blog, delay=0.03)
    for scheme in ("http", "https"):  # each its own text: not copies of one another
        both = site_pages(5, ["http://both.test", "https://both.test", ""], title=scheme)
        both["/robots.txt"] = robots(crawl_delay=0.3)
        nginx_bed.serve(f"{scheme}://both.test", both, delay=0.03)
    bed = nginx_bed.start()

    workers = run_workers(
        tmp_path, bed, redis_server,
        ["http://shop.test/p/0", "http://blog.test/", "http://both.test/p/0"], monkeypatch,
    )  # fmt: skip

    hits = bed.hits()
    served = pages_served(hits)
    expected = (
        expected_pages("https://shop.test", shop, page_paths(40))
        | expected_pages("https://www.blog.test", blog)
        | expected_pages("http://both.test", both, page_paths(5))
        | expected_pages("https://both.test", both, page_paths(5))
    )
    assert set(served) == expected, describe(hits)
    assert {url for url, n in served.items() if n > 1} == set(), "each page fetched once"
    assert len({h.agent for h in hits}) == 2, "both workers fetched pages"
    for host, host_hits in by_host(hits).items():
        assert overlaps(host_hits) == [], f"{host}: two requests at once\n{describe(host_hits)}"
    for host, delay in (("shop.test", 0.1), ("www.blog.test", 0.2), ("both.test", 0.3)):
        pages = [h for h in bed.hits(host) if h.path != "/robots.txt"]
        assert unspaced(pages, delay) == [], f"{host}\n{describe(pages)}"
    ratio = requests_per_page(bed.hits("shop.test"))
    assert ratio <= 1.05, f"{ratio:.3f} requests per page\n{describe(bed.hits('shop.test'))}"
    assert redis_state(redis_server) == (0, 0, 0)
    items = [item["url"] for w in workers for item in w.items()]
    assert sorted(items) == sorted(served), "one item per page across workers"
    assert set(robots_fetches(hits).values()) == {1}, (
        f"each robots.txt asked for once across workers: {robots_fetches(hits)}"
    )


def test_two_workers_grouped_by_ip_send_one_request_at_a_time_to_the_address(
    nginx_bed: NginxBed, redis_server: RedisServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    for host in ("a.test", "b.test"):
        pages = site_pages(5, ["", f"https://{host}"], title=host)
        pages["/robots.txt"] = robots()
        nginx_bed.serve(f"https://{host}", pages, delay=0.15)
    bed = nginx_bed.start()

    run_workers(
        tmp_path, bed, redis_server, ["https://a.test/p/0", "https://b.test/p/0"], monkeypatch,
        GROUP_BY_IP,
    )  # fmt: skip

    hits = bed.hits()
    assert set(pages_served(hits)) == expected_pages(
        "https://a.test", {}, page_paths(5)
    ) | expected_pages("https://b.test", {}, page_paths(5)), describe(hits)
    assert overlaps(hits) == [], f"two requests to one address at once:\n{describe(hits)}"


def test_two_workers_count_tls_problems_and_lose_nothing(
    nginx_bed: NginxBed, redis_server: RedisServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    kinds = ("selfsigned", "expired", "wrongname", "good")
    for kind in kinds:
        pages = site_pages(3, ["", f"https://{kind}.test"], title=kind)
        pages["/robots.txt"] = robots()
        nginx_bed.serve(f"https://{kind}.test", pages, cert=kind)  # type: ignore[arg-type]
    bed = nginx_bed.start()

    workers = run_workers(
        tmp_path, bed, redis_server, [f"https://{k}.test/p/0" for k in kinds], monkeypatch
    )

    hits = bed.hits()
    for kind in kinds:
        served = pages_served(bed.hits(f"{kind}.test"))
        assert set(served) == expected_pages(f"https://{kind}.test", {}, page_paths(3)), describe(
            hits
        )
        assert set(served.values()) == {1}
    tls: dict[str, int] = {}
    for worker in workers:
        for key, value in worker.stats().items():
            if key.startswith(TLS_STATS_PREFIX):
                tls[key] = tls.get(key, 0) + value
    assert set(tls) == set(TLS_STATS.values()), tls
    assert all(1 <= n <= len(workers) for n in tls.values()), (
        f"each bad origin counted once, or once by each worker that met it: {tls}"
    )
