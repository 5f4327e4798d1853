"""End-to-end: a crawl that asks for metadata reads a Jekyll post as a person reads
it (its date, author and title without the site's name), judged by the items and by
what the site saw requested."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parent / "fixtures" / "dates" / "jekyll-minima-post" / "page.html"
POST = "/notes/2021/03/04/welcome-to-jekyll.html"


def test_a_jekyll_post_gets_its_date_author_and_title(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("jekyll")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/notes/", f"<title>Jane's Notes</title><a href='{POST}'>Welcome</a>")
    site.html(POST, FIXTURE.read_text("utf-8"))
    config = tmp_path / "notes.toml"
    config.write_text(f'start_urls = ["{site.url("/notes/")}"]\nextract = ["metadata"]\n', "utf-8")
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert POST in site.targets(), "the post was fetched"
    post = {item["url"]: item for item in result.items}[site.url(POST)]
    assert post["metadata"]["published"] == "2021-03-04T10:15:00+01:00"
    assert post["metadata"]["authors"] == ["Jane Doe"]
    assert post["metadata"]["title"] == "Welcome to Jekyll!"
    assert post["metadata"]["language"] == "en"
