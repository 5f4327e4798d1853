"""The webrobot project's settings: the project itself, plus the add-on.

Every webrobot setting and the Scrapy settings webrobot gives another default
are declared once, in :mod:`webrobot.settingsmodel.model`, and applied by
:class:`webrobot.Addon` at Scrapy's ``"addon"`` priority (the reference page is
``docs/reference/settings.md``). Set a value here to change it for this
project; a site config's keys and ``settings`` table override it with spider
priority; ``-s NAME=VALUE`` and Scrapyd's ``setting=`` override both.
"""

BOT_NAME = "webrobot"
SPIDER_MODULES = ["webrobot.spiders"]
NEWSPIDER_MODULE = "webrobot.spiders"
SPIDER_LOADER_CLASS = "webrobot.spiders.loader.SiteSpiderLoader"
COMMANDS_MODULE = "webrobot.commands"
#: Scrapy's DEBUG logs every page and every item: 7 % more CPU per page in the benchmark.
LOG_LEVEL = "INFO"
FEED_EXPORT_ENCODING = "utf-8"
#: Scrapy's caching resolver, answering the names of WEBROBOT_RESOLVE from that table.
#: A resolver is built from the process's settings, so it is set here, not by the add-on.
TWISTED_DNS_RESOLVER = "webrobot.urls.resolver.MappedResolver"

ADDONS = {
    # Every part of webrobot, with its defaults.
    "webrobot.Addon": 0,
    # With WEBROBOT_REDIS_URL set: the frontier, visited URLs and the rest in Redis.
    "webrobot.distributed.addon.RedisCrawl": 10,
}
