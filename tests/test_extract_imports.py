"""What a crawl process imports of the mining: a crawl that mines nothing imports no
extractor (the mining middleware steps aside on the settings' words alone, before the
table of parts and the extractors it imports), and one that asks for a part, by its
settings or through another component's ``ExtractMiddleware.require``, imports them.

Each case is a real ``scrapy crawl`` in a fresh process, against a local site, that
writes the modules it holds when it ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import FAST_SETTINGS, INDEX_ON, PROJECT_ROOT
from webrobot.demo.server import Reply, SiteServer

#: ``scrapy crawl`` as Scrapy's command line runs it (argv from the third on), then
#: the names of the modules loaded, as JSON, to the file argv[1] names. ``NeedsText``:
#: a user's extension that asks for the main text from its ``from_crawler``.
CRAWL_THEN_MODULES = """
import json, sys
from scrapy.cmdline import execute


class NeedsText:
    @classmethod
    def from_crawler(cls, crawler):
        from webrobot.extract.middleware import ExtractMiddleware

        ExtractMiddleware.require(crawler, ["text"])
        return cls()


try:
    execute(sys.argv[2:])
finally:
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        json.dump(sorted(sys.modules), out)
"""

PAGE = """<html lang="en"><head><title>{title}</title></head><body>
<article><h1>{title}</h1><p>{text}</p></article>{links}</body></html>"""
#: The table of parts, an extractor, and the library the main text is read with.
MINING = ("webrobot.extract.parts", "webrobot.extract.maintext", "trafilatura")


def crawl_modules(site: SiteServer, workdir: Path, settings: dict[str, str]) -> tuple[set, list]:
    """The modules a crawl of ``site`` held at its end, and its items."""
    workdir.mkdir(parents=True, exist_ok=True)
    # The full-text index on, as users have it: its handle is in every default crawl.
    merged = {**FAST_SETTINGS, **INDEX_ON, **settings, "LOG_FILE": str(workdir / "crawl.log"),
              "WEBROBOT_STATS_FILE": str(workdir / "stats.json")}  # fmt: skip
    command = [sys.executable, "-c", CRAWL_THEN_MODULES, str(workdir / "modules.json"), "scrapy",
               "crawl", "webrobot", "-O", str(workdir / "items.jsonl"), "-a",
               f"start_urls={site.url('/')}"]  # fmt: skip
    for name, value in merged.items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    modules = set(json.loads((workdir / "modules.json").read_text("utf-8")))
    lines = (workdir / "items.jsonl").read_text("utf-8").splitlines()
    return modules, [json.loads(line) for line in lines if line]


@pytest.mark.parametrize(
    ("settings", "mines"),
    [
        ({}, False),
        ({"WEBROBOT_EXTRACT": "text"}, True),
        ({"EXTENSIONS": json.dumps({"__main__.NeedsText": 0})}, True),
    ],
    ids=["nothing-asked", "text-by-setting", "text-by-require"],
)
def test_only_a_crawl_that_mines_imports_the_extractors(
    make_site: Callable[..., SiteServer], tmp_path: Path, settings: dict[str, str], mines: bool
) -> None:
    site = make_site("blog")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    text = "A paragraph of the post that a person reads, long enough to be its text. " * 4
    site.html("/", PAGE.format(title="Home", text=text, links="<a href='/post'>Post</a>"))
    site.html("/post", PAGE.format(title="Post", text=text, links=""))
    modules, items = crawl_modules(site, tmp_path, settings)
    assert sorted(item["url"] for item in items) == [site.url("/"), site.url("/post")]
    if mines:
        assert all(item["main_text"].startswith("A paragraph") for item in items)
        assert set(MINING) <= modules
    else:
        assert all("main_text" not in item for item in items), "an unmined item has no mined keys"
        assert "webrobot.extract.middleware" in modules, "the middleware was in the crawl"
        loaded = sorted(set(MINING) & modules)
        assert not loaded, f"a crawl that mines nothing imported {loaded}"
        extractors = {m for m in modules if m.startswith("webrobot.extract.")}
        assert extractors <= {
            "webrobot.extract.middleware", "webrobot.extract.page",
            "webrobot.extract.documentintake", "webrobot.extract.version",
        }, "glue only, no extractor"  # fmt: skip
