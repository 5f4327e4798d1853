"""webrobot's settings: every default in one place.

Scrapy settings keep Scrapy's names; webrobot's own start with ``WEBROBOT_``.
A site config's keys and ``settings`` table override these with spider
priority; ``-s NAME=VALUE`` and Scrapyd's ``setting=`` override both.
"""

from webrobot import __version__

BOT_NAME = "webrobot"
SPIDER_MODULES = ["webrobot.spiders"]
NEWSPIDER_MODULE = "webrobot.spiders"
SPIDER_LOADER_CLASS = "webrobot.spiderloader.SiteSpiderLoader"
COMMANDS_MODULE = "webrobot.commands"
#: Extra folders of per-site ``*.toml`` configs, besides the bundled ``webrobot/sites``.
WEBROBOT_SITES_DIRS: list[str] = []

# --- Identification -------------------------------------------------------
#: Where a site owner can read what this robot is and how to reach its operator.
WEBROBOT_PROJECT_URL = "https://github.com/webrobot-crawler/webrobot"
USER_AGENT = f"webrobot/{__version__} (+{WEBROBOT_PROJECT_URL})"
#: Product token matched against robots.txt User-agent lines and <meta name="...">.
ROBOTSTXT_USER_AGENT = "webrobot"
#: Operator contact sent as the From header (empty: no header).
WEBROBOT_FROM = ""
DEFAULT_REQUEST_HEADERS = {
    "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    "Accept-Language": "en",
}

# --- Breadth-first order --------------------------------------------------
DEPTH_PRIORITY = 1
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
DEPTH_LIMIT = 0

# --- Politeness -----------------------------------------------------------
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 1  # per site: slots are scheme+host+port
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DNSCACHE_ENABLED = True
DOWNLOAD_TIMEOUT = 30
RETRY_ENABLED = True
RETRY_TIMES = 2
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]
COOKIES_ENABLED = False  # session cookies are a classic source of URL aliases
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # no control port opened by a crawler by default
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
REDIRECT_MAX_TIMES = 10
LOGSTATS_INTERVAL = 60.0
#: Scrapy's DEBUG logs every page and every item: 7 % more CPU per page in the benchmark.
LOG_LEVEL = "INFO"
DOWNLOADER = "webrobot.downloader.SiteDownloader"

# --- Crawl scope and budgets ---------------------------------------------
WEBROBOT_SCOPE_ENABLED = True
#: Pages a site may have downloaded (0: no budget); set per site by max_pages.
WEBROBOT_MAX_PAGES_PER_SITE = 0

# --- Speed and memory (measured with benchmarks/: README "Benchmarks") ------
#: Outputs of one callback processed in parallel. Scrapy's 100 starts 100
#: asyncio tasks per response for ~20 outputs: 16 took 28 % less CPU per page.
CONCURRENT_ITEMS = 16
#: Scrapy's in-memory stats without the deprecation shim on every attribute access.
STATS_CLASS = "webrobot.stats.StatsCollector"

# --- Output ---------------------------------------------------------------
FEED_EXPORT_ENCODING = "utf-8"
#: Write the final stats as JSON to this path (empty: don't).
WEBROBOT_STATS_FILE = ""

# --- Components -----------------------------------------------------------
DOWNLOADER_MIDDLEWARES = {
    # Scrapy's offsite filter knows hosts, not sites (ports); ours replaces it.
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    "webrobot.middlewares.scope.SiteScopeMiddleware": 50,
    "webrobot.middlewares.identity.FromHeaderMiddleware": 410,
}
SPIDER_MIDDLEWARES = {
    # Outermost: frees each page's parse tree once its callback's output is consumed.
    "webrobot.middlewares.release.ReleaseParseTreeMiddleware": 10,
}
EXTENSIONS = {
    "webrobot.extensions.statsfile.StatsFile": 900,
}
