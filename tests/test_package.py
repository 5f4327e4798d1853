"""Adopting webrobot in an existing project: the built wheel, a fresh virtualenv,
``scrapy startproject``, the add-on line and a ten-line ``CrawlSpider``.

The wheel is built from this checkout (``python -m build --wheel
--no-isolation``, so no build dependency is downloaded) and installed with
``pip install --no-deps --no-index`` into a new virtualenv (no
``--system-site-packages``). Its dependencies come from this environment's
site-packages through a ``.pth`` file instead of a download, which keeps the
test offline and fast; the venv's own site-packages comes first on
``sys.path``, so ``import webrobot`` is the installed wheel, never this
checkout (the crawl runs outside it, with no ``PYTHONPATH``). ``pip check``
in that venv then judges the wheel's requirements against every package of
this environment (Scrapy, Scrapyd, pytest, redis, mypy, ruff...).

The crawl is judged by what the local sites saw requested.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.crawling import PROJECT_ROOT
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

SPIDER = """\
import os
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

class ShopSpider(CrawlSpider):
    name = "shop"
    start_urls = os.environ["SHOP_START_URLS"].split()
    rules = [Rule(LinkExtractor(), callback="parse_page", follow=True)]

    def parse_page(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
"""
CRAWL_DELAY = 0.5


def page(title: str, body: str = "", head: str = "") -> str:
    return (
        f"<html><head><title>{title}</title>{head}</head><body><h1>{title}</h1>{body}</body></html>"
    )


def link(path: str) -> str:
    return f'<a href="{path}">{path}</a> '


@dataclass
class Adopted:
    venv_python: Path
    project: Path
    wheel: Path
    #: ``pip check``'s complaints about this environment before the wheel was installed.
    conflicts_before: set[str]


def _run(
    args: list[str], cwd: Path, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environment.update(env)
    return subprocess.run(
        args, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def adopted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Adopted]:
    root = tmp_path_factory.mktemp("adopt")
    dist = root / "dist"
    build = _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(PROJECT_ROOT)],
                 cwd=root)  # fmt: skip
    assert build.returncode == 0, build.stderr[-3000:]
    [wheel] = dist.glob("webrobot-*.whl")
    venv = root / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], cwd=root)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site_packages = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              cwd=root).stdout.strip())  # fmt: skip
    (site_packages / "shared-dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", "utf-8"
    )
    before = _run([str(python), "-m", "pip", "check"], cwd=root)
    conflicts_before = set(before.stdout.splitlines()) if before.returncode else set()
    install = _run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        cwd=root,
    )
    assert install.returncode == 0, install.stderr
    where = _run([str(python), "-c", "import webrobot; print(webrobot.__file__)"], cwd=root)
    assert where.stdout.startswith(str(site_packages)), where.stdout + where.stderr
    start = _run([str(python), "-m", "scrapy", "startproject", "shopcrawl"], cwd=root)
    assert start.returncode == 0, start.stderr
    project = root / "shopcrawl"
    settings = project / "shopcrawl" / "settings.py"
    settings.write_text(settings.read_text("utf-8") + '\nADDONS = {"webrobot.Addon": 0}\n', "utf-8")
    (project / "shopcrawl" / "spiders" / "shop.py").write_text(SPIDER, "utf-8")
    assert len(SPIDER.splitlines()) <= 11
    yield Adopted(python, project, wheel, conflicts_before)


def test_pip_check_passes_with_the_wheel_beside_common_packages(adopted: Adopted) -> None:
    """The wheel's requirements hold beside everything this environment has, and it adds
    no conflict (one between two other packages of a shared environment is not the wheel's)."""
    check = _run([str(adopted.venv_python), "-m", "pip", "check"], cwd=adopted.project)
    conflicts = set(check.stdout.splitlines()) if check.returncode else set()
    assert not [line for line in conflicts if "webrobot" in line.lower()], check.stdout
    assert conflicts == adopted.conflicts_before, check.stdout + check.stderr
    shown = _run(
        [str(adopted.venv_python), "-m", "pip", "show", "webrobot"], cwd=adopted.project
    ).stdout
    assert "Requires: itemadapter, protego, scrapy, tldextract, w3lib" in shown


def test_the_wheel_carries_its_package_data_and_license(adopted: Adopted) -> None:
    import zipfile

    with zipfile.ZipFile(adopted.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert {"webrobot/sites/demo.toml", "webrobot/demo/pages/shop/index.html"} <= names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Provides-Extra: redis" in metadata and "Provides-Extra: charts" in metadata
    assert "Requires-Dist: scrapy<3,>=2.18" in metadata


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, SiteServer]]:
    shop, locked, forbidden, down = (
        SiteServer(n).start() for n in ("shop", "locked", "forbidden", "down")
    )
    shop.add(
        "/robots.txt",
        Reply.text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY}\nDisallow: /private/\n"),
    )
    loops = "".join(link(p) for p in ("/loop/",))
    # rel="nofollow": /sponsored is linked only that way; /partner also plainly, from /noindex.
    loops += (
        '<a rel="Sponsored NOFOLLOW" href="/sponsored">ad</a><a rel=nofollow href="/partner">p</a>'
    )
    shop.html("/", page("home", "".join(link(p) for p in (
        "/noindex", "/nofollow", "/header-noindex", "/copy-1", "/copy-2", "/private/secret",
    )) + loops))  # fmt: skip
    shop.html(
        "/noindex",
        page(
            "noindex",
            link("/noindex-child") + link("/partner"),
            '<meta name="robots" content="noindex">',
        ),
    )
    shop.html("/noindex-child", page("noindex child"))
    shop.html("/sponsored", page("sponsored"))
    shop.html("/partner", page("partner"))
    shop.html(
        "/nofollow",
        page("nofollow", link("/nofollow-child"), '<meta name="robots" content="nofollow">'),
    )
    shop.html("/nofollow-child", page("nofollow child"))
    shop.html("/header-noindex", page("header noindex"), **{"X-Robots-Tag": "noindex"})
    copy = page("the same page", "twice, at two addresses")
    shop.html("/copy-1", copy)
    shop.html("/copy-2", copy)
    shop.html("/private/secret", page("secret"))
    # A repeated-segment trap: every page links to "loop/" below itself.
    for depth in range(1, 5):
        path = "/" + "loop/" * depth
        shop.html(path, page(f"loop {depth}", link("loop/")))
    locked.add("/robots.txt", Reply.text("who are you?", 401))
    forbidden.add("/robots.txt", Reply.text("go away", 403))
    down.add("/robots.txt", Reply.text("later", 503))
    for site in (locked, forbidden, down):
        site.html("/", page(f"home of {site.name}", link("/inside")))
        site.html("/inside", page(f"inside {site.name}"))
    yield {"shop": shop, "locked": locked, "forbidden": forbidden, "down": down}
    for site in (shop, locked, forbidden, down):
        site.stop()


def test_a_crawlspider_gets_every_part_from_the_add_on_line(
    adopted: Adopted, sites: dict[str, SiteServer]
) -> None:
    shop = sites["shop"]
    out, stats_file = adopted.project / "items.jsonl", adopted.project / "stats.json"
    crawl = _run(
        [str(adopted.venv_python), "-m", "scrapy", "crawl", "shop", "-O", str(out),
         # -s beats the add-on's defaults: no base delay, so Crawl-delay is what spaces requests.
         "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "WEBROBOT_ROBOTS_DEFER_MAX=3",
         "-s", "WEBROBOT_ROBOTS_BACKOFF_BASE=1", "-s", f"WEBROBOT_STATS_FILE={stats_file}"],
        cwd=adopted.project, timeout=240,
        SHOP_START_URLS=" ".join(site.url("/") for site in sites.values()),
    )  # fmt: skip
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    items = {json.loads(line)["url"] for line in out.read_text("utf-8").splitlines()}
    stats = json.loads(stats_file.read_text("utf-8"))
    seen = set(shop.targets())

    # robots.txt: 401 and 403 disallow the site; 5xx holds it, retries, then gives up.
    for name in ("locked", "forbidden"):
        assert sites[name].targets() == ["/robots.txt"], name
    down = sites["down"]
    assert set(down.targets()) == {"/robots.txt"} and down.count("/robots.txt") >= 2
    assert "/private/secret" not in seen and "/robots.txt" in seen

    # Crawl-delay: the shop's requests start CRAWL_DELAY apart. The server notes a
    # start when its thread has read the request, so a tenth is left for its jitter.
    starts = sorted(h.started for h in shop.hits if h.path != "/robots.txt")
    assert len(starts) >= 8
    assert min(b - a for a, b in itertools.pairwise(starts)) >= CRAWL_DELAY * 0.9

    # Meta robots and X-Robots-Tag.
    assert {"/noindex", "/noindex-child", "/nofollow", "/header-noindex"} <= seen
    assert "/nofollow-child" not in seen, "nofollow: the page's links are not requested"
    assert shop.url("/noindex") not in items and shop.url("/header-noindex") not in items
    assert shop.url("/nofollow") in items and shop.url("/noindex-child") in items
    assert stats["webrobot/meta/noindex"] == 2 and stats["webrobot/meta/nofollow"] == 1
    assert "/sponsored" not in seen, "a link only ever marked rel=nofollow is not requested"
    assert "/partner" in seen, "the same URL linked plainly from another page is"
    assert stats["webrobot/meta/rel_nofollow"] >= 1

    # The repeated-segment trap: /loop/loop/ is requested, /loop/loop/loop/ refused.
    assert {"/loop/", "/loop/loop/"} <= seen and "/loop/loop/loop/" not in seen
    assert stats["webrobot/url/refused/repeated_segment"] >= 1

    # MD5 duplicates: both copies downloaded, one item kept.
    assert {"/copy-1", "/copy-2"} <= seen
    assert len({shop.url("/copy-1"), shop.url("/copy-2")} & items) == 1
    assert stats["webrobot/dupes/content"] == 1

    # The crawl report, next to the feed.
    report = json.loads((adopted.project / "items.report.json").read_text("utf-8"))
    assert report["spider"] == "shop"
    assert (adopted.project / "items.report.html").exists()


def test_a_bad_value_in_the_project_stops_the_crawl_in_one_line(adopted: Adopted) -> None:
    settings = adopted.project / "shopcrawl" / "settings.py"
    original = settings.read_text("utf-8")
    settings.write_text(original + "WEBROBOT_ROBOTS_TTL = -5\n", "utf-8")
    try:
        crawl = _run([str(adopted.venv_python), "-m", "scrapy", "crawl", "shop"], cwd=adopted.project,
                     SHOP_START_URLS="http://127.0.0.1:9/")  # fmt: skip
    finally:
        settings.write_text(original, "utf-8")
    errors = [line for line in crawl.stderr.splitlines() if " ERROR: " in line]
    assert errors == [
        next(line for line in errors if line.endswith(
            "webrobot cannot start: setting WEBROBOT_ROBOTS_TTL=-5: expected a number >= 0 (default 86400.0)"
        ))
    ]  # fmt: skip
    assert "Traceback" not in crawl.stderr
    assert "'finish_reason': 'config_error'" in crawl.stderr
