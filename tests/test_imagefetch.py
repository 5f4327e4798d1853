"""ImageFetcher.describe downloads a page's images through the crawl's own rules
(robots.txt, scope, politeness) and describes each; judged by what a real local
server saw requested and by the described images."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import FAST_SETTINGS, scrapy_command
from tests.imagefiles import huge_png_header, picture
from webrobot.demo.server import Reply, SiteServer

pytest.importorskip("imagehash")

PAGE = """<html><head><meta property="og:image" content="/og.jpg"></head><body>
<img src="/logo.png" alt="Logo" width="40" height="30">
<img src="/private/secret.png" alt="Secret">
<img src="/huge.png" alt="Huge">
<img src="/missing.png">
<img src="/fake.png">
<img srcset="/small.jpg 100w, /large.jpg 800w" src="/small.jpg">
</body></html>"""


def crawl(tmp_path: Path, site: SiteServer, **settings: Any) -> list[dict[str, Any]]:
    out = tmp_path / "images.jsonl"
    args = ["runspider", "tests/imagespider.py", "-a", f"start={site.url('/page.html')}"]
    args += ["-O", str(out)]
    for name, value in {**FAST_SETTINGS, "LOG_FILE": str(tmp_path / "crawl.log"),
                        "WEBROBOT_STATS_FILE": str(tmp_path / "stats.json"), **settings}.items():  # fmt: skip
        args += ["-s", f"{name}={value}"]
    result = scrapy_command(*args, timeout=120, cwd=None)
    assert result.returncode == 0, result.stderr[-3000:]
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_describe_through_the_crawls_rules(tmp_path: Path) -> None:
    site = SiteServer("images")
    site.html("/page.html", PAGE)
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    png = picture(40, 30)
    site.add("/logo.png", Reply(200, png, {"Content-Type": "image/png"}))
    site.add("/private/secret.png", Reply(200, picture(8, 8), {"Content-Type": "image/png"}))
    site.add("/huge.png", Reply(200, huge_png_header(), {"Content-Type": "image/png"}))
    site.add("/fake.png", Reply.html("<p>not an image</p>"))
    site.add(
        "/large.jpg", Reply(200, picture(80, 60, "JPEG", seed=3), {"Content-Type": "image/jpeg"})
    )
    site.add(
        "/og.jpg", Reply(200, picture(120, 60, "JPEG", seed=5), {"Content-Type": "image/jpeg"})
    )
    with site:
        images = crawl(tmp_path, site)
        targets = site.targets()
        origin = site.origin
    by_path = {image["url"].split(origin, 1)[1]: image for image in images if "again" not in image}
    # what the server saw: robots.txt first, never the disallowed image, each image once
    assert targets[0] == "/robots.txt"
    assert "/private/secret.png" not in targets
    assert "/small.jpg" not in targets  # the srcset's best candidate only
    for path in ("/logo.png", "/huge.png", "/missing.png", "/fake.png", "/large.jpg", "/og.jpg"):
        assert targets.count(path) == 1, (path, targets)
    logo = by_path["/logo.png"]
    assert logo["alt"] == "Logo"
    assert (logo["format"], logo["width"], logo["height"], logo["bytes"]) == (
        "png",
        40,
        30,
        len(png),
    )
    assert len(logo["phash"]) == 16
    assert by_path["/og.jpg"]["format"] == "jpeg"
    assert by_path["/large.jpg"]["width"] == 80
    assert by_path["/private/secret.png"]["error"] == "robots_txt"
    assert by_path["/private/secret.png"]["alt"] == "Secret"  # markup fields kept
    assert by_path["/huge.png"]["error"] == "too_many_pixels"
    assert by_path["/missing.png"]["error"] == "http_error"
    assert by_path["/fake.png"]["error"] == "not_an_image"
    again = next(image for image in images if image.get("again"))
    assert again["phash"] == by_path["/og.jpg"]["phash"] or again["phash"] == logo["phash"]
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["webrobot/extract/images/described"] == 3
    assert stats["webrobot/extract/images/cached"] == 1
    for reason in ("robots_txt", "too_many_pixels", "http_error", "not_an_image"):
        assert stats[f"webrobot/extract/images/{reason}"] == 1


def test_size_cap(tmp_path: Path) -> None:
    site = SiteServer("images")
    site.html("/page.html", '<img src="/big.png"><img src="/ok.png">')
    site.add("/big.png", Reply(200, picture(300, 300), {"Content-Type": "image/png"}))
    site.add("/ok.png", Reply(200, picture(10, 10), {"Content-Type": "image/png"}))
    with site:
        images = crawl(tmp_path, site, WEBROBOT_IMAGE_MAX_BYTES=600)
    by_path = {image["url"].rsplit("/", 1)[1]: image for image in images if "again" not in image}
    assert by_path["big.png"]["error"] == "too_large"
    assert by_path["ok.png"]["format"] == "png"


def test_a_landed_download_is_kept_before_any_page_waiting_on_it_resumes() -> None:
    """Another page whose turn comes between the download landing and its followers
    resuming must find the description, not start a second download of the picture."""
    from collections import OrderedDict

    from twisted.internet.defer import Deferred

    from webrobot.extract.imagefetch import ImageFetcher, _Download

    fetcher = object.__new__(ImageFetcher)
    fetcher._cache = OrderedDict()
    fetcher._downloads = {}
    url = "http://site.test/logo.png"
    download = _Download(Deferred())
    fetcher._downloads[url] = download
    seen: list[bool] = []
    follower: Deferred[dict[str, Any]] = Deferred()
    follower.addCallback(lambda fields: seen.append(url in fetcher._cache))
    download.followers.append(follower)
    fetcher._landed({"status": "described", "width": 24}, url, download)
    assert seen == [True]
    assert url not in fetcher._downloads
    # A description that may change next time is not kept.
    again = _Download(Deferred())
    fetcher._landed({"status": "failed", "error": "download_error"}, "http://site.test/x", again)
    assert "http://site.test/x" not in fetcher._cache
