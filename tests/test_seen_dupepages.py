from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.http import HtmlResponse

from tests.components import webrobot_crawler
from webrobot.items import PageItem
from webrobot.seen.dupepages import DuplicatePageMiddleware
from webrobot.seen.pipelines import DuplicateContentPipeline

#: The checkpoint files under JOBDIR serve Scrapy's own scheduler (webrobot's keeps its
#: job state in the frontier database instead, see tests/test_crashsafe_crawl.py).
SCRAPY_SCHEDULER = "scrapy.core.scheduler.Scheduler"


def response(url: str, body: str, **meta: Any) -> HtmlResponse:
    return HtmlResponse(url, body=body.encode(), encoding="utf-8", request=Request(url, meta=meta))


def page_output(resp: HtmlResponse, md5: str | None = None) -> list[Any]:
    """What the spider yields for a page: its item, then its links."""
    item = PageItem(url=resp.url, status=200, depth=0, referer=None, fetched_at="", content_type="text/html",
                    title=None, md5=md5 or hashlib.md5(resp.body).hexdigest())  # fmt: skip
    return [item, Request(resp.urljoin("more/")), Request(resp.urljoin("other/"))]


def components(**settings: Any) -> tuple[DuplicatePageMiddleware, DuplicateContentPipeline]:
    crawler = webrobot_crawler(**settings)
    return DuplicatePageMiddleware.from_crawler(crawler), DuplicateContentPipeline.from_crawler(
        crawler
    )


def run(mw: DuplicatePageMiddleware, pipeline: DuplicateContentPipeline, resp: HtmlResponse,
        output: list[Any] | None = None) -> tuple[list[Request], list[Any], list[str]]:  # fmt: skip
    """Pass a page's output through the middleware, then its items through the pipeline."""
    out = list(mw.process_spider_output(resp, output if output is not None else page_output(resp)))
    requests = [o for o in out if isinstance(o, Request)]
    kept, dropped = [], []
    for o in out:
        if isinstance(o, Request):
            continue
        try:
            kept.append(pipeline.process_item(o))
        except DropItem as exc:
            dropped.append(str(exc))
    return requests, kept, dropped


SOFT_404 = "<title>Catalogue</title><p>Nothing here yet.</p><a href='more/'>more</a>"


def test_a_duplicate_pages_links_are_suppressed_and_its_item_dropped() -> None:
    mw, pipeline = components()
    requests, kept, dropped = run(mw, pipeline, response("http://a.test/catalog/", SOFT_404))
    assert len(requests) == 2 and len(kept) == 1 and not dropped
    requests, kept, dropped = run(mw, pipeline, response("http://a.test/catalog/more/", SOFT_404))
    assert requests == [] and kept == []
    assert len(dropped) == 1 and "as http://a.test/catalog/" in dropped[0]
    stats = mw.crawler.stats
    assert stats.get_value("webrobot/dupes/links_suppressed") == 2
    assert stats.get_value("webrobot/dupes/content") == 1


def test_start_requests_pass() -> None:
    mw, _ = components()
    start = [Request("http://a.test/"), Request("http://a.test/")]
    assert list(mw.process_spider_output(None, start)) == start


def test_links_first_then_item() -> None:
    """A spider that yields its links before its item: the page is judged on its first output."""
    mw, pipeline = components()
    for url in ("http://a.test/1", "http://a.test/2"):
        resp = response(url, SOFT_404)
        output = page_output(resp)
        requests, kept, dropped = run(mw, pipeline, resp, output[1:] + output[:1])
    assert requests == [] and kept == [] and len(dropped) == 1, "the second page"


def test_body_mode_reuses_the_items_md5() -> None:
    """The spider already hashed the body; the middleware takes its item's md5."""
    mw, pipeline = components()
    run(mw, pipeline, response("http://a.test/1", "<p>one</p>"), None)
    first_md5 = hashlib.md5(b"<p>one</p>").hexdigest()
    resp = response("http://a.test/2", "<p>two</p>")
    requests, kept, dropped = run(mw, pipeline, resp, page_output(resp, md5=first_md5))
    assert requests == [] and kept == [] and len(dropped) == 1


def test_text_mode_shares_the_verdict_with_the_pipeline() -> None:
    mw, pipeline = components(WEBROBOT_FINGERPRINT="text")
    a = response(
        "http://a.test/a", "<title>News</title><p>Hello world</p><!-- 10:01 --><a href='x'>x</a>"
    )
    b = response(
        "http://a.test/b",
        "<title>News</title><div>Hello\n world</div><script>t=2</script><a href='x'>x</a>",
    )
    c = response("http://a.test/c", "<title>News</title><p>Hello world again</p>")
    assert run(mw, pipeline, a)[1]
    requests, kept, dropped = run(mw, pipeline, b)
    assert requests == [] and kept == []
    assert "same text fingerprint" in dropped[0] and "as http://a.test/a" in dropped[0]
    requests, kept, _ = run(mw, pipeline, c)
    assert len(requests) == 2 and len(kept) == 1


def test_dont_dedupe_exempts_a_page() -> None:
    mw, pipeline = components()
    run(mw, pipeline, response("http://a.test/1", SOFT_404))
    requests, kept, dropped = run(
        mw, pipeline, response("http://a.test/2", SOFT_404, dont_dedupe=True)
    )
    assert len(requests) == 2 and len(kept) == 1 and not dropped


def test_switched_off() -> None:
    with pytest.raises(NotConfigured):
        components(WEBROBOT_DUPES_ENABLED=False)


def test_a_first_copy_without_an_item_does_not_cost_the_content_its_item() -> None:
    """The first copy is noindex (links, no item): the next copy's item is the first item."""
    mw, pipeline = components()
    noindex = response("http://a.test/print/", SOFT_404)
    requests, kept, _ = run(mw, pipeline, noindex, page_output(noindex)[1:])
    assert len(requests) == 2 and kept == []
    requests, kept, dropped = run(mw, pipeline, response("http://a.test/page/", SOFT_404))
    assert requests == [], "the first copy's links were followed"
    assert len(kept) == 1 and not dropped, "no item of this content was kept yet"
    requests, kept, dropped = run(mw, pipeline, response("http://a.test/third/", SOFT_404))
    assert requests == [] and kept == [] and "as http://a.test/page/" in dropped[0]


def test_a_first_copy_without_links_does_not_cost_the_content_its_links() -> None:
    """The first copy is nofollow (item, no links): the next copy's links are followed once."""
    mw, pipeline = components()
    nofollow = response("http://a.test/print/", SOFT_404)
    assert run(mw, pipeline, nofollow, page_output(nofollow)[:1])[1]
    requests, kept, dropped = run(mw, pipeline, response("http://a.test/page/", SOFT_404))
    assert len(requests) == 2, "no page of this content had its links followed yet"
    assert kept == [] and "as http://a.test/print/" in dropped[0]
    requests, kept, _ = run(mw, pipeline, response("http://a.test/third/", SOFT_404))
    assert requests == [] and kept == []


def test_what_was_kept_and_followed_survives_a_resume(tmp_path: Path) -> None:
    mw, pipeline = components(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    noindex = response("http://a.test/print/", SOFT_404)
    run(mw, pipeline, noindex, page_output(noindex)[1:])
    pipeline.close_spider()
    mw, pipeline = components(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    requests, kept, _ = run(mw, pipeline, response("http://a.test/page/", SOFT_404))
    assert requests == [] and len(kept) == 1


def _article(seed: int) -> str:
    import random

    rng = random.Random(seed)
    return "\n".join(" ".join(f"w{rng.randrange(3000)}" for _ in range(30)) for _ in range(4))


def test_near_copies_are_judged_on_the_items_main_text_and_counted_apart() -> None:
    mw, pipeline = components(WEBROBOT_NEAR_DUPLICATES=3)
    text = _article(1)
    first = response("http://a.example/story", "<p>same chrome</p><p>Ad one</p>")
    copy = response("http://b.example/story", "<p>same chrome</p><p>Ad two</p>")
    other = response("http://c.example/story", "<p>same chrome</p><p>Ad three</p>")

    def output(resp: HtmlResponse, main_text: str) -> list[Any]:
        _, *links = page_output(resp)
        return [{"url": resp.url, "main_text": main_text}, *links]

    _, kept, _ = run(mw, pipeline, first, output(first, f"Published 1 May 2026\n{text}"))
    assert len(kept) == 1
    requests, kept, dropped = run(
        mw, pipeline, copy, output(copy, f"Updated 2 May 2026 09:14\n{text}")
    )
    assert (requests, kept) == ([], [])
    assert "Near-duplicate content" in dropped[0] and "http://a.example/story" in dropped[0]
    requests, kept, _ = run(mw, pipeline, other, output(other, _article(2)))
    assert len(kept) == 1 and len(requests) == 2, "another text: kept, its links followed"
    stats = mw.crawler.stats
    assert stats.get_value("webrobot/dupes/near/items") == 1
    assert stats.get_value("webrobot/dupes/near/links_suppressed") == 2
    assert stats.get_value("webrobot/dupes/content") is None


def test_a_near_copy_of_a_page_kept_before_a_resume_is_dropped(tmp_path: Path) -> None:
    job = {"JOBDIR": str(tmp_path), "SCHEDULER": SCRAPY_SCHEDULER, "WEBROBOT_NEAR_DUPLICATES": 3}
    text = _article(1)

    def output(resp: HtmlResponse, main_text: str) -> list[Any]:
        _, *links = page_output(resp)
        return [{"url": resp.url, "main_text": main_text}, *links]

    mw, pipeline = components(**job)
    first = response("http://a.example/story", "<p>Ad one</p>")
    _, kept, _ = run(mw, pipeline, first, output(first, f"Published 1 May 2026\n{text}"))
    assert len(kept) == 1
    pipeline.close_spider()
    assert (tmp_path / "webrobot-near.store").exists()
    assert mw.crawler.stats.get_value("webrobot/dupes/stored/near") == 1

    mw, pipeline = components(**job)
    assert mw.crawler.stats.get_value("webrobot/dupes/near/resumed") == 1
    copy = response("http://b.example/story", "<p>Ad two</p>")
    requests, kept, dropped = run(mw, pipeline, copy, output(copy, f"Updated 2 May\n{text}"))
    assert (requests, kept) == ([], []), "the near copy's item dropped, its links not followed"
    assert "http://a.example/story" in dropped[0]
    again = response("http://a.example/story", "<p>Ad three</p>")  # not an exact copy
    _, kept, _ = run(mw, pipeline, again, output(again, f"Published 1 May 2026\n{text}"))
    assert len(kept) == 1, "a page fetched again is not its own near copy"

    # Without the setting the file is neither read nor written.
    mw, pipeline = components(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    assert mw.crawler.stats.get_value("webrobot/dupes/near/resumed") is None
    pipeline.close_spider()
    assert mw.crawler.stats.get_value("webrobot/dupes/stored/near") is None


def test_an_unreadable_near_index_is_set_aside_and_the_job_starts_empty(tmp_path: Path) -> None:
    (tmp_path / "webrobot-near.store").write_bytes(b"not a store")
    mw, _ = components(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER, WEBROBOT_NEAR_DUPLICATES=3)
    assert mw.crawler.stats.get_value("webrobot/dupes/checkpoint_unreadable") == 1
    assert (tmp_path / "webrobot-near.store.bad").exists()
    assert len(mw.content.near_index) == 0
