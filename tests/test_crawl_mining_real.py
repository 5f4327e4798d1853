"""End to end on real pages: a local site made of news pages from the article extraction
benchmark (read in place from the shared benchmark folder, never copied) and of the
annotated shop pages, crawled by the bundled spider with ``WEBROBOT_EXTRACT=all``. Judged
by the items: each article's main text against the text people marked, each shop page's
product fields against its annotation, metadata and structured data present."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.quality.maintext import default_data, load_pages, precision_recall_f1, tp_fp_fn
from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).parent / "fixtures" / "product"
#: Shop pages whose price, currency and availability stand in their structured data or
#: markup whatever host serves them (no currency told by the shop's domain).
SHOPS = ("shopify-dawn-jsonld-usd", "magento2-luma-microdata", "markup-only-eur-fr",
         "woocommerce-out-of-stock-es", "late-shopware6-de")  # fmt: skip
ARTICLES = 8


def _articles() -> list:
    try:
        return load_pages(default_data())[:: 181 // ARTICLES][:ARTICLES]
    except FileNotFoundError:
        if os.environ.get("CI"):
            raise
        pytest.skip("the article extraction benchmark is not beside the repository")


def test_a_crawl_of_real_pages_mines_what_they_say(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    articles = _articles()
    site = make_site("real")
    links = []
    for page in articles:
        site.add(f"/news/{page.key}", Reply(200, page.html.encode("utf-8"), {"Content-Type": "text/html; charset=utf-8"}))  # fmt: skip
        links.append(f"/news/{page.key}")
    for case in SHOPS:
        html = (FIXTURES / case / "page.html").read_bytes()
        site.add(f"/shop/{case}", Reply(200, html, {"Content-Type": "text/html; charset=utf-8"}))
        links.append(f"/shop/{case}")
    site.html(
        "/", "<title>Index</title>" + "".join(f"<a href='{link}'>{link}</a>" for link in links)
    )
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={
            "WEBROBOT_EXTRACT": "all",
            "DEPTH_LIMIT": "1",
            "WEBROBOT_IMAGES_PER_PAGE": "2",
            "WEBROBOT_REQUISITES_MAX_HOPS": "0",
        },  # the pages' own CDNs are not here
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.log
    items = {item["url"]: item for item in result.items}

    counts = []
    for page in articles:
        item = items[site.url(f"/news/{page.key}")]
        assert item["main_text"], page.key
        assert item["metadata"]["title"], page.key
        assert set(item["structured_data"]) >= {"json-ld", "microdata", "opengraph"}
        counts.append(tp_fp_fn(page.truth, item["main_text"]))
    precision, recall, f1 = precision_recall_f1(counts)
    assert f1 >= 0.85, (precision, recall, f1)

    for case in SHOPS:
        expected = json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))["product"]
        product = items[site.url(f"/shop/{case}")]["product"]
        assert product is not None, case
        for key in ("price", "currency", "availability"):
            assert product[key] == expected[key], (case, key, product[key], expected[key])
    assert result.stat("webrobot/extract/pages") == len(articles) + len(SHOPS) + 1
    assert not result.stat("webrobot/extract/text/error")
    assert not result.stat("webrobot/extract/product/error")
