"""webrobot's settings: every default in one place.

Scrapy settings keep Scrapy's names; webrobot's own start with ``WEBROBOT_``.
A site config's keys and ``settings`` table override these with spider
priority; ``-s NAME=VALUE`` and Scrapyd's ``setting=`` override both.
"""

from scrapy.linkextractors import IGNORED_EXTENSIONS as scrapy_ignored_extensions

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
#: Operator contact sent as the From header (empty: no header; a warning at start).
WEBROBOT_FROM = ""
#: A page about this crawl and its operator; builds USER_AGENT as "webrobot/<version> (+URL)"
#: unless USER_AGENT is set explicitly (empty: the project URL above, and a warning
#: at start when WEBROBOT_FROM is empty too).
WEBROBOT_CONTACT_URL = ""
DEFAULT_REQUEST_HEADERS = {
    "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    "Accept-Language": "en",
}

# --- Breadth-first order, and the frontier ----------------------------------
DEPTH_PRIORITY = 1
#: One frontier, in memory or (with JOBDIR) crash-safe in SQLite: see docs/guarantees.md.
SCHEDULER = "webrobot.scheduler.FrontierScheduler"
#: "auto" (SQLite with JOBDIR, else memory), "memory" or "sqlite".
WEBROBOT_FRONTIER = "auto"
#: SQLite synchronous level: "normal" survives a killed process, "full" also a power cut (slower).
WEBROBOT_FRONTIER_SYNC = "normal"
#: Seconds between two checks for finished requests while the engine asks for none.
WEBROBOT_FRONTIER_COMMIT_INTERVAL = 0.5
#: On resume, queue again the requests an earlier run of the job gave up on (failed for good).
WEBROBOT_RETRY_FAILED = False
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
DEPTH_LIMIT = 0

#: Order the frontier by a site config's [[priorities]] ranks and sitemap <priority>
#: (breadth-first within a rank); politeness per site still applies to every request.
WEBROBOT_PRIORITIES_ENABLED = True
#: Levels of depth a sitemap <priority> of 1.0 (or 0.0) moves a URL earlier (or later).
WEBROBOT_SITEMAP_PRIORITY_WEIGHT = 5

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
#: Who reserves each site's next request time (shared by workers in a distributed crawl).
WEBROBOT_POLITENESS_CLASS = "webrobot.politeness.SitePoliteness"
WEBROBOT_POLITENESS_SITES = 100_000  # sites remembered in process (LRU; 0: no limit)
WEBROBOT_POLITENESS_RETRY_AFTER_MAX = 600.0  # cap on a failing page's Retry-After, seconds
#: Interval after a site's first failure (429, 5xx, no response), doubling while they last.
WEBROBOT_POLITENESS_BACKOFF_BASE = 1.0
WEBROBOT_POLITENESS_BACKOFF_MAX = 60.0  # cap on the backoff interval, seconds (0: none)
#: Each backoff interval is stretched by a random share of up to this (0.25: up to 25 % longer).
WEBROBOT_POLITENESS_BACKOFF_JITTER = 0.25

# --- robots.txt (webrobot.middlewares.robots) ------------------------------
ROBOTSTXT_PARSER = "webrobot.robotsparsers.Rfc9309RobotParser"
WEBROBOT_ROBOTS_MATCHING = "rfc9309"  # or "first-match" (the 1996 draft)
WEBROBOT_ROBOTS_AUTH_POLICY = "disallow"  # 401/403: "disallow" the site, or "allow" (RFC 9309)
WEBROBOT_ROBOTS_MAX_REDIRECTS = 5
WEBROBOT_ROBOTS_PARSE_LIMIT = 500 * 1024  # bytes of robots.txt parsed (RFC 9309: >= 500 KiB)
WEBROBOT_ROBOTS_TTL = 86400.0  # longest a decision is cached, seconds (0: no limit)
WEBROBOT_ROBOTS_MIN_TTL = 60.0  # shortest, whatever Cache-Control says (at least 1 s)
WEBROBOT_ROBOTS_DEFER_MAX = 3600.0  # hold an unreachable site this long, then disallow it (0: no limit)
#: Hold a site whose host name does not resolve this long, then disallow it (0: as DEFER_MAX).
WEBROBOT_ROBOTS_DNS_DEFER_MAX = 120.0
WEBROBOT_ROBOTS_BACKOFF_BASE = 2.0  # first retry after a failed fetch, doubling
WEBROBOT_ROBOTS_BACKOFF_MAX = 600.0  # cap on the retry interval and on Retry-After
WEBROBOT_ROBOTS_STALE_MAX = 30 * 86400.0  # obey expired rules while re-fetches fail (0: no limit)
WEBROBOT_ROBOTS_MAX_CRAWL_DELAY = 60.0  # cap on Crawl-delay / Request-rate, seconds (0: no cap)
WEBROBOT_ROBOTS_CACHE_CLASS = "webrobot.robotscache.LruRobotsCache"
WEBROBOT_ROBOTS_CACHE_SITES = 10_000  # decisions kept in process (LRU; 0: no limit)
#: Hold a site's new requests in this process while its robots.txt is decided (False: let
#: them into the scheduler first, and hold them when they come out; the Redis add-on's choice).
WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS = True

# --- Duplicates: content fingerprints and visited URLs --------------------
#: Drop items of content already seen and do not follow those pages' links.
WEBROBOT_DUPES_ENABLED = True
#: "body": MD5 of the body bytes; "text": MD5 of the visible text (see README).
WEBROBOT_FINGERPRINT = "body"
#: Content fingerprint store: "exact" (keeps each first URL) or "bloom".
WEBROBOT_CONTENT_STORE = "exact"
#: Who keeps the content fingerprints (the Redis add-on swaps in a shared index).
WEBROBOT_CONTENT_INDEX_CLASS = "webrobot.contentdupes.ContentDupes"
DUPEFILTER_CLASS = "webrobot.dupefilter.SeenUrlFilter"
#: Visited-URL store: "exact" (64-bit digests) or "bloom" (presence bits).
WEBROBOT_SEEN_STORE = "exact"
#: Bloom stores are sized for this many keys at this false-positive rate.
WEBROBOT_SEEN_CAPACITY = 1_000_000
WEBROBOT_SEEN_ERROR_RATE = 0.01
#: With JOBDIR, also checkpoint the stores every N seconds (0: only at a clean close).
WEBROBOT_SEEN_CHECKPOINT_INTERVAL = 0.0

# --- Crawl scope and budgets ---------------------------------------------
WEBROBOT_SCOPE_ENABLED = True
#: Pages a site may have downloaded (0: no budget); set per site by max_pages.
WEBROBOT_MAX_PAGES_PER_SITE = 0
#: Who counts the pages spent (the Redis add-on swaps in one budget shared by all workers).
WEBROBOT_PAGE_BUDGET_CLASS = "webrobot.budget.PageBudget"
#: Requests one site may get per minute, on top of DOWNLOAD_DELAY/AutoThrottle (0: no cap).
WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE = 0

# --- Spider traps and URL hygiene -----------------------------------------
#: Dedupe on the canonical URL with the site config's alias rules.
REQUEST_FINGERPRINTER_CLASS = "webrobot.requestfingerprinter.CanonicalRequestFingerprinter"
WEBROBOT_TRAPS_ENABLED = True
#: Longest URL requested (Scrapy's setting, checked downloader-side here; 0: no limit).
URLLENGTH_LIMIT = 2083
#: Seconds between "URL too long" warnings for one site.
WEBROBOT_TOO_LONG_WARNING_INTERVAL = 60.0
#: Times one path segment may occur in a URL (0: no limit).
WEBROBOT_MAX_SEGMENT_REPEATS = 2
#: Path segments a URL may have (0: no limit).
WEBROBOT_MAX_PATH_SEGMENTS = 32
#: Pages of one URL template in a row, each linked from the one before (0: no limit):
#: calendars and endless pagination end here (a site config's [[templates]] may change it).
WEBROBOT_TEMPLATE_MAX_CHAIN = 100
#: Pages of one URL template requested in all (0: no limit).
WEBROBOT_TEMPLATE_MAX_PAGES = 10_000
#: Sites and URL patterns never requested: a list, or a file path (one entry per line).
WEBROBOT_BLOCKLIST: list[str] = []

# --- The open web is hostile (docs/hostile-web.md) --------------------------
#: Refuse requests to link-local, cloud-metadata and (for crawls of public sites) private addresses.
WEBROBOT_NETWORK_GUARD_ENABLED = True
#: More networks never requested, whatever the start URLs: ["10.1.0.0/16", "127.0.0.2"].
WEBROBOT_BLOCKED_NETWORKS: list[str] = []
#: Links of one page passed on to the scheduler, after the scope checks (0: no cap).
WEBROBOT_MAX_LINKS_PER_PAGE = 2000
#: Links whose path ends in one of these are not requested (not pages): Scrapy's list + saved pages.
WEBROBOT_IGNORED_EXTENSIONS: list[str] = [*scrapy_ignored_extensions, "mht", "mhtml"]
#: Stop downloads whose headers declare a type that is not a page, or a size over DOWNLOAD_MAXSIZE.
WEBROBOT_STOP_UNWANTED_DOWNLOADS = True
#: Download files that are not pages in full and make an item of each (no links from them).
WEBROBOT_NON_HTML_ITEMS = False

# --- Pages built by JavaScript (optional: pip install 'webrobot[browser]') ----
#: "" (off), "browser" (render every page in headless Chromium), "on-request" (only
#: requests whose meta has render = "browser"). A site config's render = "browser" sets it.
WEBROBOT_RENDER = ""
#: The system's Chromium (Playwright's own browser download is never used).
WEBROBOT_BROWSER_PATH = "/usr/bin/chromium"
#: Resource types the browser does not fetch while rendering (they add no links).
WEBROBOT_RENDER_BLOCKED_TYPES = ["image", "media", "font"]
#: Requests the browser may make while rendering one page (0: no limit).
WEBROBOT_RENDER_MAX_SUBREQUESTS = 50
#: When a rendered page is read: "networkidle" (no request for 0.5 s), "load" or "domcontentloaded".
WEBROBOT_RENDER_WAIT_UNTIL = "networkidle"

# --- Sitemaps --------------------------------------------------------------
#: Crawl the sitemaps named by robots.txt Sitemap: lines (a site config's `sitemaps` always are).
WEBROBOT_SITEMAPS_ENABLED = True
#: URLs read from one sitemap file, the protocol's limit (0: no limit).
WEBROBOT_SITEMAP_MAX_URLS = 50_000
#: Bytes of one sitemap file, uncompressed, the protocol's limit (0: DOWNLOAD_MAXSIZE only).
WEBROBOT_SITEMAP_MAX_BYTES = 50 * 1024 * 1024

# --- What pages say about themselves ---------------------------------------
#: Read and obey <meta name="robots">, <meta name="webrobot"> and X-Robots-Tag.
WEBROBOT_META_ROBOTS_ENABLED = True
#: Do not request links marked rel="nofollow" (every occurrence on the page).
WEBROBOT_HONOR_REL_NOFOLLOW = True

# --- Distributed crawling (Redis) ------------------------------------------
#: Redis shared by all workers of a crawl; set it to crawl with several workers
#: (the RedisCrawl add-on then puts the frontier and visited-URL set in Redis).
#: Empty: everything stays in-process.
WEBROBOT_REDIS_URL = ""
#: WEBROBOT_REDIS_URL names any node of a Redis Cluster (keys are hash-tagged so each decision stays in one slot).
WEBROBOT_REDIS_CLUSTER = False
#: Prefix of a crawl's Redis keys (%(spider)s: the spider name); same prefix = same crawl.
WEBROBOT_REDIS_KEY = "webrobot:%(spider)s"
#: Seconds a leased request stays a worker's without renewal; then another worker takes it.
WEBROBOT_REDIS_LEASE_TTL = 60.0
#: A request whose lease expired this many times is set aside in <key>:dead (0: never).
WEBROBOT_REDIS_MAX_LEASE_EXPIRIES = 3
#: Seconds between a worker's lease renewals, expired-lease sweeps and frontier checks.
WEBROBOT_REDIS_POLL_INTERVAL = 1.0
#: Seconds the shared crawl must have nothing queued or leased before workers close (0: never).
WEBROBOT_REDIS_IDLE_CLOSE = 10.0
#: Store every item in the crawl's Redis stream with its page's lease acknowledgement (``webrobot-export``).
WEBROBOT_REDIS_ITEMS_ENABLED = True
#: Seconds Redis may stay unreachable (no request starts meanwhile) before a worker closes with redis_unavailable (0: never).
WEBROBOT_REDIS_OUTAGE_TIMEOUT = 300.0
#: Visited-URL digests each worker remembers, so a link seen again costs no Redis command (0: no limit).
WEBROBOT_REDIS_VISITED_CACHE = 1_000_000
#: 2**N buckets of visited-URL digests; ~log2(expected URLs / 256) keeps them compact.
WEBROBOT_REDIS_VISITED_BUCKET_BITS = 14
#: 2**N buckets of content fingerprints (compact hashes up to hash-max-listpack-entries): ~log2(pages / 256).
WEBROBOT_REDIS_CONTENT_BUCKET_BITS = 14
ADDONS = {
    "webrobot.distributed.addon.RedisCrawl": 0,
    "webrobot.scheduler.CrashSafeJob": 10,
}

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
#: Put the decoded body text in each item's ``body`` field (never for noarchive pages).
WEBROBOT_STORE_BODY = False

# --- Archive (WARC) and full-text search ----------------------------------
#: Folder of the WARC/1.1 files of every fetch (empty: no archive); see docs/archive.md.
WEBROBOT_WARC_DIR = ""
#: Bytes a WARC file may reach before the next one starts (0: one file per run).
WEBROBOT_WARC_MAX_SIZE = 1_000_000_000
#: WARC file name prefix (%(spider)s: the spider name).
WEBROBOT_WARC_PREFIX = "%(spider)s"
#: Keep a full-text index of the crawled pages (needs the search extra); see docs/search.md.
WEBROBOT_INDEX_ENABLED = True
#: The index file (empty: next to the first local items feed, else ./webrobot-index.sqlite).
WEBROBOT_INDEX = ""

# --- Watching the crawl: progress line, crawl report, health checks -------
#: Seconds between two progress lines (0: no progress line).
WEBROBOT_PROGRESS_INTERVAL = 30.0
#: Write report.json and report.html when the crawl ends.
WEBROBOT_REPORT_ENABLED = True
#: Folder of the report (empty: next to the first local items feed, else ./report).
WEBROBOT_REPORT_DIR = ""
#: Flag a site whose failed requests pass this share of its requests (0: no check).
WEBROBOT_HEALTH_MAX_ERROR_RATE = 0.25
#: Flag a site with more URLs refused as traps than this (0: no check).
WEBROBOT_HEALTH_MAX_TRAP_REFUSALS = 100

# --- Conditional re-crawls (off until HTTPCACHE_ENABLED = True) -----------
#: Revalidate every stored page (If-None-Match / If-Modified-Since); see webrobot/recrawl.py.
HTTPCACHE_POLICY = "webrobot.recrawl.RevalidatePolicy"
#: Seconds between checks of a stored page at first (0: every stored page is checked at
#: every re-crawl); then each page's own interval adapts to how often its MD5 changes.
WEBROBOT_RECRAWL_INTERVAL = 0.0
#: Bounds of a page's adaptive interval, seconds.
WEBROBOT_RECRAWL_MIN_INTERVAL = 3600.0
WEBROBOT_RECRAWL_MAX_INTERVAL = 30 * 86400.0
#: A changed page's interval is divided by this, an unchanged page's multiplied.
WEBROBOT_RECRAWL_FACTOR = 2.0
#: SQLite file of the pages' check records (empty: freshness.sqlite in the HTTPCACHE_DIR folder).
WEBROBOT_FRESHNESS_DB = ""

# --- Components -----------------------------------------------------------
DOWNLOADER_MIDDLEWARES = {
    # Scrapy's offsite filter knows hosts, not sites (ports); ours replaces it.
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    # Addresses first: link-local, metadata, blocked and private networks (robots.txt too).
    "webrobot.middlewares.network.NetworkGuardMiddleware": 45,
    "webrobot.middlewares.scope.SiteScopeMiddleware": 50,
    "webrobot.middlewares.blocklist.BlocklistMiddleware": 55,
    "webrobot.middlewares.traps.UrlTrapMiddleware": 60,
    # Scrapy's parses error pages as rules, allows all on errors, caches for ever.
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "webrobot.middlewares.robots.RobotsMiddleware": 100,
    "webrobot.middlewares.identity.FromHeaderMiddleware": 410,
    # Marks pages to render in the browser (off unless WEBROBOT_RENDER is set).
    "webrobot.middlewares.render.RenderMiddleware": 850,
    # Just outside Scrapy's HttpCacheMiddleware (900): counts new/changed/unchanged/not-due.
    "webrobot.middlewares.freshness.FreshnessTapMiddleware": 890,
    # After decompression (590), redirects (600) and retries (550): final bodies only.
    "webrobot.middlewares.metarobots.MetaRobotsMiddleware": 540,
    # Before Scrapy's decompression (590): a compressed robots.txt is decoded up to its parse limit.
    "webrobot.middlewares.robotsfetch.RobotsBodyMiddleware": 595,
    # Before Scrapy's redirects (600): a Location that is not http(s) is refused, not followed.
    "webrobot.middlewares.network.RedirectSchemeMiddleware": 650,
    # Late: spend a page only when robots.txt, redirects and retries have decided.
    "webrobot.middlewares.budget.PageBudgetMiddleware": 800,
    # After the site budget: a page of a URL template counts when it is about to be fetched.
    "webrobot.middlewares.templates.UrlTemplateMiddleware": 810,
    # The crawl report's taps: first (left the scheduler) and last (download errors).
    "webrobot.middlewares.report.FrontierTapMiddleware": 1,
    "webrobot.middlewares.report.DownloadErrorTapMiddleware": 990,
    # Next to the downloader: every fetch as it came off the wire (WEBROBOT_WARC_DIR).
    "webrobot.middlewares.archive.WarcArchiveMiddleware": 980,
    # Next to the engine, before retries: what they did not fix has failed for good.
    "webrobot.middlewares.failures.PageFailureMiddleware": 2,
}
SPIDER_MIDDLEWARES = {
    # Outermost: frees each page's parse tree once its callback's output is consumed.
    "webrobot.spidermiddlewares.parsetree.ReleaseParseTreeMiddleware": 10,
    # URL length is checked downloader-side (start requests and redirects too).
    "scrapy.spidermiddlewares.urllength.UrlLengthMiddleware": None,
    # Same depth bookkeeping, but refusals are counted per site and reason.
    "scrapy.spidermiddlewares.depth.DepthMiddleware": None,
    "webrobot.spidermiddlewares.depth.DepthLimitMiddleware": 900,
    # Each link's chain of pages of one URL template (the trap rule reads it downloader-side).
    "webrobot.middlewares.templates.TemplateChainMiddleware": 920,
    # Ranks from the site config and sitemaps, added to the depth-first priority.
    "webrobot.spidermiddlewares.priorities.PriorityMiddleware": 930,
    # Closest to the spider: sees its raw links, drops those of duplicate pages.
    # Scope, blocklist, file extensions and the per-page cap, before any scheduler work.
    "webrobot.spidermiddlewares.links.LinkGateMiddleware": 950,
    "webrobot.spidermiddlewares.dupes.DuplicatePageMiddleware": 960,
}
ITEM_PIPELINES = {
    "webrobot.pipelines.DuplicateContentPipeline": 300,
    # Last: with the crash-safe frontier, no URL gets a second item, in this run or a later one.
    "webrobot.pipelines.OneItemPerUrlPipeline": 1000,
}
EXTENSIONS = {
    "webrobot.middlewares.contenttype.ContentTypeGate": 100,
    "webrobot.extensions.statsfile.StatsFile": 900,
    "webrobot.extensions.progress.Progress": 500,
    "webrobot.extensions.report.CrawlReport": 850,
    "webrobot.extensions.sitemaps.RobotsSitemaps": 600,
    "webrobot.extensions.identity.IdentityCheck": 100,
    "webrobot.extensions.searchindex.FullTextIndex": 800,
}
