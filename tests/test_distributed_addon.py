from __future__ import annotations

from scrapy import Spider
from scrapy.settings import Settings

from webrobot import settings as project_settings
from webrobot.distributed.addon import REDIS_COMPONENTS, RedisCrawl
from webrobot.distributed.keys import CrawlKeys, safe_url
from webrobot.settingsmodel.model import SETTINGS


def project(**cmdline: str) -> Settings:
    """The project's settings over the model's defaults (at the add-on's priority, as
    webrobot.Addon puts them), and ``cmdline``."""
    settings = Settings()
    for setting in SETTINGS:
        settings.set(setting.name, setting.default, priority="addon")
    settings.setmodule(project_settings, priority="project")
    settings.setdict(cmdline, priority="cmdline")
    return settings


def apply(settings: Settings) -> Settings:
    RedisCrawl(crawler=None).update_settings(settings)  # type: ignore[arg-type]
    return settings


def test_the_addon_is_enabled_by_the_project() -> None:
    assert "webrobot.distributed.addon.RedisCrawl" in project_settings.ADDONS


def test_without_a_redis_url_nothing_changes() -> None:
    settings = apply(project())
    before = project()
    for name in REDIS_COMPONENTS:
        assert settings[name] == before[name]
    assert settings["SCHEDULER"] == "webrobot.frontier.scheduler.FrontierScheduler"


def test_a_redis_url_puts_the_crawl_in_redis() -> None:
    settings = apply(project(WEBROBOT_REDIS_URL="redis://127.0.0.1:6379/0"))
    assert settings["SCHEDULER"] == "webrobot.distributed.scheduler.RedisLeaseScheduler"
    assert settings["DUPEFILTER_CLASS"] == "webrobot.distributed.dupefilter.RedisVisitedFilter"
    assert (
        settings["WEBROBOT_ROBOTS_CACHE_CLASS"]
        == "webrobot.distributed.robotscache.RedisRobotsCache"
    )
    assert (
        settings["WEBROBOT_POLITENESS_CLASS"] == "webrobot.distributed.politeness.SharedPoliteness"
    )
    assert (
        settings["WEBROBOT_CONTENT_INDEX_CLASS"]
        == "webrobot.distributed.contentdupes.RedisContentDupes"
    )
    assert settings["WEBROBOT_PAGE_BUDGET_CLASS"] == "webrobot.distributed.budget.RedisPageBudget"
    assert settings.getbool("WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS") is False


def test_explicit_choices_of_a_site_config_or_the_command_line_win() -> None:
    settings = project(WEBROBOT_REDIS_URL="redis://127.0.0.1:6379/0", SCHEDULER="my.Scheduler")
    settings.set("DUPEFILTER_CLASS", "my.Filter", priority="spider")
    apply(settings)
    assert settings["SCHEDULER"] == "my.Scheduler"
    assert settings["DUPEFILTER_CLASS"] == "my.Filter"


def test_crawl_keys_and_safe_urls() -> None:
    keys = CrawlKeys.from_settings(project(), "shop")
    assert keys.frontier == "webrobot:shop:frontier"
    assert keys.pattern() == "webrobot:shop:*"
    assert CrawlKeys("a*b").pattern() == "a\\*b:*"
    custom = CrawlKeys.from_settings(
        project(WEBROBOT_REDIS_KEY="jobs:%(spider)s:7"), Spider.__name__
    )
    assert custom.leases == "jobs:Spider:7:leases"
    assert safe_url("redis://:pw@h:6379/0") == "redis://:***@h:6379/0"
    assert safe_url("redis://user:pw@h/1") == "redis://user:***@h/1"
    assert safe_url("redis://h:6379/0") == "redis://h:6379/0"
