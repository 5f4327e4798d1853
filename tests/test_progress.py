"""The progress line: switched by its interval, and what a real crawl logs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.report.progress import Progress


def test_interval_zero_switches_it_off() -> None:
    with pytest.raises(NotConfigured):
        Progress.from_crawler(get_crawler(settings_dict={"WEBROBOT_PROGRESS_INTERVAL": "0"}))
    assert (
        Progress.from_crawler(
            get_crawler(settings_dict={"WEBROBOT_PROGRESS_INTERVAL": "5"})
        ).interval
        == 5
    )


def page(title: str, *links: str) -> str:
    return f"<title>{title}</title>" + "".join(f"<a href='{u}'>{u}</a>" for u in links)


@pytest.mark.slow
def test_progress_line_shows_sites_waiting_on_robots_and_refusals(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    slow, other = make_site("slow"), make_site("other")
    slow.add(
        "/robots.txt",
        Reply(200, "User-agent: *\nDisallow:\n", {"Content-Type": "text/plain"}, delay=1.5),
    )
    slow.html("/", page("slow", other.url("/"), "/a.html"))
    slow.add(
        "/a.html", Reply(200, page("a"), {"Content-Type": "text/html"}, delay=0.75)
    )  # lasts past the refusal
    result = run_crawl(tmp_path, args={"start_urls": slow.url("/")},
                       settings={"WEBROBOT_PROGRESS_INTERVAL": "0.25", "LOG_LEVEL": "INFO"})  # fmt: skip
    assert result.returncode == 0
    lines = re.findall(r"INFO: (Progress: .*)", result.log)
    assert len(lines) >= 3, result.log[-3000:]
    pattern = re.compile(
        r"Progress: \d+ pages? \(\d+/min\), \d+ items \(\d+/min\)(, also 1 robots\.txt)?"
        r" \| frontier \d+ \+ \d+ in downloader"
        r" \| sites: \d+ active, \d+ waiting robots\.txt, \d+ deferred, \d+ exhausted \| refused: .+"
    )
    assert all(pattern.fullmatch(line) for line in lines), lines
    assert any("1 waiting robots.txt" in line for line in lines), "robots.txt took 1.5 s"
    (last,) = re.findall(r"INFO: (Progress at close: .*)", result.log)
    assert re.match(
        r"Progress at close: 2 pages \(\d+/min\), 2 items \(\d+/min\), also 1 robots\.txt \|", last
    ), "robots.txt counted apart from the pages"
    refused = [line for line in lines if "refused: none" not in line]
    assert len(refused) == 1 and refused[0].endswith("refused: offsite 1"), (
        "each refusal shown once"
    )
