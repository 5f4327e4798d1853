"""End-to-end: what the robot tells a site about itself, judged by the headers the server saw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.version import __version__

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]
WARNING = "This robot gives site owners no way to reach its operator"


def small_site(make_site: MakeSite) -> SiteServer:
    site = make_site()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<html><body><a href='/a'>a</a></body></html>")
    site.html("/a", "<html><body>a</body></html>")
    return site


def test_no_contact_is_warned_about_at_start(make_site: MakeSite, tmp_path: Path) -> None:
    site = small_site(make_site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert WARNING in result.log and "WARNING" in result.log.split(WARNING)[0].splitlines()[-1]
    assert result.log.index(WARNING) < result.log.index("robots.txt of"), (
        "said at start, before any fetch"
    )
    assert result.stat("webrobot/identity/no_contact") == 1
    assert all("from" not in hit.headers for hit in site.hits)


def test_from_and_contact_url_reach_every_request(make_site: MakeSite, tmp_path: Path) -> None:
    site = small_site(make_site)
    contact = site.url("/about-our-crawler")
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/")},
        settings={"WEBROBOT_FROM": "ops@example.org", "WEBROBOT_CONTACT_URL": contact},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [h.target for h in site.hits] == ["/robots.txt", "/", "/a"]
    for hit in site.hits:  # robots.txt included
        assert hit.headers["from"] == "ops@example.org"
        assert hit.headers["user-agent"] == f"webrobot/{__version__} (+{contact})"
    assert WARNING not in result.log
    assert result.stat("webrobot/identity/no_contact") == 0


def test_site_config_contact_url(make_site: MakeSite, tmp_path: Path) -> None:
    site = small_site(make_site)
    config = tmp_path / "ours.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\ncontact_url = "https://ops.example/bot"\n', "utf-8"
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert {h.headers["user-agent"] for h in site.hits} == {
        f"webrobot/{__version__} (+https://ops.example/bot)"
    }
    assert WARNING not in result.log, "a contact URL of the operator is a contact"
