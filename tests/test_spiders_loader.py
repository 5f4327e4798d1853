from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from tests.crawling import scrapy_command
from webrobot import settings as project_settings
from webrobot.spiders.loader import SiteSpiderLoader
from webrobot.spiders.webrobot import WebrobotSpider


def make_loader(*dirs: Path) -> SiteSpiderLoader:
    settings = Settings()
    settings.setmodule(project_settings)
    settings.set("WEBROBOT_SITES_DIRS", [str(d) for d in dirs])
    return SiteSpiderLoader.from_settings(settings)


def test_bundled_sites_become_spiders() -> None:
    loader = make_loader()
    assert {"webrobot", "demo", "example_com"} <= set(loader.list())
    demo = loader.load("demo")
    assert issubclass(demo, WebrobotSpider) and demo.name == "demo"
    assert demo.site_config is not None
    assert demo.site_config.start_urls[0] == "http://127.0.0.1:8701/"


def test_broken_config_is_reported_not_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good_one.toml").write_text('start_urls = ["http://127.0.0.1:9/"]', "utf-8")
    (tmp_path / "broken_one.toml").write_text(
        'start_urls = ["http://127.0.0.1:9/"]\ncolour = 1', "utf-8"
    )
    loader = make_loader(tmp_path)
    assert "good_one" in loader.list() and "broken_one" not in loader.list()
    err = capsys.readouterr().err
    assert "broken_one.toml: key 'colour': unknown key" in err
    with pytest.raises(KeyError, match="broken config"):
        loader.load("broken_one")


def test_duplicate_name_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "demo.toml").write_text('start_urls = ["http://127.0.0.1:9/"]', "utf-8")
    loader = make_loader(tmp_path)
    assert loader.load("demo").site_config.start_urls[0] == "http://127.0.0.1:8701/"
    assert "already taken" in capsys.readouterr().err


def test_scrapy_list_command(tmp_path: Path) -> None:
    (tmp_path / "broken_site.toml").write_text("start_urls = [", "utf-8")
    done = scrapy_command("list", "-s", f"WEBROBOT_SITES_DIRS={tmp_path}")
    assert done.returncode == 0, done.stderr
    names = done.stdout.split()
    assert {"demo", "example_com", "webrobot"} <= set(names)
    assert "broken_site" not in names
    assert "broken_site.toml: not valid TOML" in done.stderr


def test_unknown_spider_is_one_clear_line() -> None:
    done = scrapy_command("crawl", "no_such_site")
    assert done.returncode == 2
    assert "Spider not found: no_such_site (known spiders:" in done.stderr
    assert "Traceback" not in done.stderr
