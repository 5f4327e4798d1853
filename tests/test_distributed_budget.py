"""One page budget per site for all workers, against a real redis-server."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import IgnoreRequest

from tests.components import webrobot_crawler
from tests.redisserver import RedisServer
from webrobot.distributed.budget import RedisPageBudget
from webrobot.urls.budget import PageBudget
from webrobot.urls.budgetmiddleware import PageBudgetMiddleware

SITE = "http://a.example:80"


def middleware(redis_url: str, **settings: Any) -> PageBudgetMiddleware:
    crawler = webrobot_crawler(
        WEBROBOT_REDIS_URL=redis_url, WEBROBOT_MAX_PAGES_PER_SITE=3, **settings
    )
    crawler.spidercls = type("PagesSpider", (Spider,), {"name": "pages"})
    crawler._apply_settings()
    crawler.stats.open_spider()
    return PageBudgetMiddleware.from_crawler(crawler)


def test_workers_spend_one_budget_per_site(redis_server: RedisServer) -> None:
    workers = [middleware(redis_server.url) for _ in range(2)]
    assert all(isinstance(w.budget, RedisPageBudget) for w in workers), (
        "the add-on picks the shared budget"
    )
    workers[0].process_request(Request("http://a.example/1"))
    workers[1].process_request(Request("http://a.example/2"))
    workers[0].process_request(Request("http://a.example/3"))
    with pytest.raises(IgnoreRequest, match="refused http://a.example/4: budget"):
        workers[1].process_request(Request("http://a.example/4"))
    workers[1].process_request(Request("http://b.example/1"))
    # One budget per host: http://a.example/ and https://a.example/ spend the same one.
    assert workers[1].budget.left("a.example") == 0 and workers[0].budget.left("b.example") == 2
    with pytest.raises(IgnoreRequest, match="budget"):
        workers[0].process_request(Request("https://a.example/5"))
    assert workers[1].crawler.stats.get_value("webrobot/url/refused/budget") == 1


def test_concurrent_spending_never_passes_the_budget(redis_server: RedisServer) -> None:
    taken: list[bool] = []
    lock = threading.Lock()

    def spend() -> None:
        budget = RedisPageBudget(redis_server.client(), "webrobot:pages:budget", 50)
        for _ in range(40):
            ok = budget.spend(SITE)
            with lock:
                taken.append(ok)

    threads = [threading.Thread(target=spend) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(True) == 50 and len(taken) == 120


def test_without_redis_pages_are_let_through() -> None:
    worker = middleware("redis://127.0.0.1:1/0")
    for i in range(5):
        worker.process_request(Request(f"http://a.example/{i}"))
    assert worker.crawler.stats.get_value("webrobot/redis/error_count") == 5


def test_in_process_the_budget_is_the_plain_one() -> None:
    crawler = webrobot_crawler(WEBROBOT_MAX_PAGES_PER_SITE=3)
    assert type(PageBudgetMiddleware.from_crawler(crawler).budget) is PageBudget
