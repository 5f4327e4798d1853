"""webrobot/settings.py: the project's settings plus the add-on; keep it honest."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from scrapy.settings import Settings

import webrobot.settings
from tests.components import enabled_components, webrobot_crawler

SETTINGS_FILE = Path(webrobot.settings.__file__)


def test_no_setting_is_assigned_twice() -> None:
    """A second ``SPIDER_MIDDLEWARES = {...}`` (an easy merge mistake) silently
    replaces the first and switches components off."""
    tree = ast.parse(SETTINGS_FILE.read_text("utf-8"))
    names = [
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    twice = [name for name, count in Counter(names).items() if count > 1]
    assert twice == []


def test_every_webrobot_component_is_enabled() -> None:
    spider = enabled_components("SPIDER_MIDDLEWARES")
    assert spider["webrobot.urls.depthmiddleware.DepthLimitMiddleware"]
    assert spider["webrobot.seen.dupepages.DuplicatePageMiddleware"]
    assert spider["webrobot.pages.parsetree.ReleaseParseTreeMiddleware"]
    assert spider["webrobot.pages.metarobotsspidermiddleware.MetaRobotsSpiderMiddleware"]
    downloader = enabled_components("DOWNLOADER_MIDDLEWARES")
    for name in ("urls.scopemiddleware.SiteScopeMiddleware", "robots.middleware.RobotsMiddleware",
                 "urls.trapmiddleware.UrlTrapMiddleware",
                 "pages.metarobotsmiddleware.MetaRobotsMiddleware",
                 "urls.budgetmiddleware.PageBudgetMiddleware"):  # fmt: skip
        assert downloader[f"webrobot.{name}"]
    assert enabled_components("ITEM_PIPELINES")["webrobot.seen.pipelines.DuplicateContentPipeline"]
    for name in ("scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware",
                 "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware"):  # fmt: skip
        assert name not in enabled_components("DOWNLOADER_MIDDLEWARES")
    assert spider["webrobot.urls.templatemiddleware.TemplateChainMiddleware"]
    assert spider["webrobot.frontier.prioritymiddleware.PriorityMiddleware"]
    for name in (
        "urls.templatemiddleware.UrlTemplateMiddleware",
        "frontier.freshnesstap.FreshnessTapMiddleware",
        "render.middleware.RenderMiddleware",
    ):
        assert downloader[f"webrobot.{name}"]
    extensions = enabled_components("EXTENSIONS")
    assert extensions["webrobot.sitemaps.robotssitemaps.RobotsSitemaps"]
    assert extensions["webrobot.politeness.identitycheck.IdentityCheck"]


def test_the_hostile_web_archive_and_frontier_components_are_enabled_at_their_orders() -> None:
    downloader = enabled_components("DOWNLOADER_MIDDLEWARES")
    assert downloader["webrobot.urls.networkmiddleware.NetworkGuardMiddleware"] == 45
    assert downloader["webrobot.robots.fetch.RobotsBodyMiddleware"] == 595
    assert downloader["webrobot.urls.networkmiddleware.RedirectSchemeMiddleware"] == 650
    assert downloader["webrobot.archive.middleware.WarcArchiveMiddleware"] == 980
    assert downloader["webrobot.report.failures.PageFailureMiddleware"] == 2
    assert (
        enabled_components("SPIDER_MIDDLEWARES")["webrobot.urls.linkgate.LinkGateMiddleware"] == 950
    )
    assert (
        enabled_components("ITEM_PIPELINES")["webrobot.seen.pipelines.OneItemPerUrlPipeline"]
        == 1000
    )
    extensions = enabled_components("EXTENSIONS")
    assert extensions["webrobot.pages.contenttypegate.ContentTypeGate"] == 100
    assert extensions["webrobot.search.extension.FullTextIndex"] == 800


def test_the_add_on_sends_held_requests_through_the_crash_safe_frontier(tmp_path: Path) -> None:
    """With JOBDIR (the crash-safe frontier), requests held for robots.txt enter the
    frontier; without it, or with the frontier in memory, or set explicitly, they do not."""
    hold = "WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS"
    assert webrobot_crawler(JOBDIR=str(tmp_path / "a")).settings.getbool(hold) is False
    assert webrobot_crawler().settings.getbool(hold) is True
    memory = webrobot_crawler(JOBDIR=str(tmp_path / "b"), WEBROBOT_FRONTIER="memory")
    assert memory.settings.getbool(hold) is True
    assert (
        webrobot_crawler(JOBDIR=str(tmp_path / "c")).settings["SCHEDULER"]
        == "webrobot.frontier.scheduler.FrontierScheduler"
    )


def test_scrapys_remote_control_is_not_even_imported_while_it_is_off() -> None:
    """Scrapy imports every extension of its base list before it asks whether it is on;
    the remote control would bring aiohttp's web server into every crawl that never uses it."""
    remote_control = "scrapy.extensions.remote_control.RemoteControl"
    if remote_control not in Settings().getdict("EXTENSIONS_BASE"):
        pytest.skip("this Scrapy has no remote control")
    off = webrobot_crawler().settings.getwithbase("EXTENSIONS")
    assert remote_control not in off
    assert "scrapy.extensions.corestats.CoreStats" in off, "the other base extensions stay"
    built = enabled_components("EXTENSIONS")
    assert "scrapy.extensions.feedexport.FeedExporter" not in built, (
        "what webrobot replaces stays off"
    )
    assert "webrobot.job.feeds.FeedExporter" in built
    on = webrobot_crawler(REMOTE_CONTROL_ENABLED=True).settings.getwithbase("EXTENSIONS")
    assert remote_control in on, "asked for, it is there"
