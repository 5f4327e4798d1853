"""webrobot/settings.py is where every default lives; keep it honest."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import webrobot.settings

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
    spider = webrobot.settings.SPIDER_MIDDLEWARES
    assert spider["webrobot.spidermiddlewares.depth.DepthLimitMiddleware"]
    assert spider["webrobot.spidermiddlewares.dupes.DuplicatePageMiddleware"]
    assert spider["webrobot.spidermiddlewares.parsetree.ReleaseParseTreeMiddleware"]
    downloader = webrobot.settings.DOWNLOADER_MIDDLEWARES
    for name in ("scope.SiteScopeMiddleware", "robots.RobotsMiddleware", "traps.UrlTrapMiddleware",
                 "metarobots.MetaRobotsMiddleware", "budget.PageBudgetMiddleware"):  # fmt: skip
        assert downloader[f"webrobot.middlewares.{name}"]
    assert webrobot.settings.ITEM_PIPELINES["webrobot.pipelines.DuplicateContentPipeline"]
    assert spider["webrobot.middlewares.templates.TemplateChainMiddleware"]
    assert spider["webrobot.spidermiddlewares.priorities.PriorityMiddleware"]
    for name in ("templates.UrlTemplateMiddleware", "freshness.FreshnessTapMiddleware", "render.RenderMiddleware"):
        assert downloader[f"webrobot.middlewares.{name}"]
    assert webrobot.settings.EXTENSIONS["webrobot.extensions.sitemaps.RobotsSitemaps"]
    assert webrobot.settings.EXTENSIONS["webrobot.extensions.identity.IdentityCheck"]
