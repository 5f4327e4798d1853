"""Someone else's project with webrobot's add-on: bare Scrapy's ``CrawlSpider``
(``benchmarks/bare/``) as ``scrapy startproject`` leaves a project, plus the one
add-on line. ``python -m benchmarks.offsite_links`` crawls it against the
``webrobot`` spider."""

BOT_NAME = "addon"
SPIDER_MODULES = ["benchmarks.bare.spiders"]
ROBOTSTXT_OBEY = True
FEED_EXPORT_ENCODING = "utf-8"
ADDONS = {"webrobot.Addon": 0}
