"""Settings of the bare Scrapy baseline: Scrapy's defaults plus what
``scrapy startproject`` turns on. The benchmark passes the same concurrency,
delay and logging settings to both crawlers with ``-s``."""

BOT_NAME = "bare"
SPIDER_MODULES = ["benchmarks.bare.spiders"]
ROBOTSTXT_OBEY = True
FEED_EXPORT_ENCODING = "utf-8"
# No control port (it has no per-request cost, and parallel runs would fight for it).
TELNETCONSOLE_ENABLED = False
# The final stats as JSON, written once when the crawl closes (no per-request cost),
# so the harness reads both crawlers' numbers the same way.
EXTENSIONS = {"webrobot.report.statsfile.StatsFile": 900}
