"""Optional dependencies: not imported while their feature is off; a missing one is
one message naming the extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scrapy.settings import Settings

from tests.crawling import PROJECT_ROOT
from tests.test_report_html import sample_report
from webrobot.distributed.addon import apply_redis_components
from webrobot.optional import MissingExtra, require, require_redis
from webrobot.report.html import render_html


def test_a_crawl_without_its_features_imports_none_of_them() -> None:
    code = (
        "import sys, webrobot, webrobot.addon, webrobot.settings, webrobot.report.extension, "
        "webrobot.report.html, webrobot.distributed.addon, webrobot.robots.middleware, "
        "webrobot.spiders.webrobot, webrobot.report.metrics, webrobot.report.metricsmodel\n"
        "import importlib; importlib.import_module('webrobot.commands.webrobot-seed')\n"
        "importlib.import_module('webrobot.commands.webrobot-export')\n"
        "print(sorted(m for m in ('redis', 'scrapy_redis', 'pygal', 'prometheus_client') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "extra"), [("redis", "redis"), ("scrapy_redis", "redis"), ("pygal", "charts")]
)
def test_a_missing_package_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    with pytest.raises(MissingExtra) as caught:
        require(module, extra, "This feature")
    assert str(caught.value) == (
        f"This feature needs the {module!r} package, which is not installed: pip install 'webrobot[{extra}]'"
    )


def test_a_shared_crawl_without_redis_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scrapy_redis", None)
    with pytest.raises(MissingExtra, match=r"WEBROBOT_REDIS_URL.*pip install 'webrobot\[redis\]'"):
        require_redis()
    settings = Settings({"WEBROBOT_REDIS_URL": "redis://127.0.0.1:9/0"})
    with pytest.raises(MissingExtra):
        apply_redis_components(settings)


def test_the_report_without_pygal_keeps_its_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    with_charts = render_html(sample_report())
    monkeypatch.setitem(sys.modules, "pygal", None)
    without = render_html(sample_report())
    assert "<svg" in with_charts and "<svg" not in without
    assert "No charts: The charts of report.html needs the &#x27;pygal&#x27; package" in without
    assert "pip install &#x27;webrobot[charts]&#x27;" in without
    assert without.count("<table") == with_charts.count("<table") > 0
