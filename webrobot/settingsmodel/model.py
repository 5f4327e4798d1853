"""Every webrobot setting, declared once: name, type, default, one-line doc; and the
components the add-on enables, each with its order.

This module holds declarations only, to be read as Scrapy's ``default_settings`` is. They
are the single source of:

* the defaults :class:`webrobot.Addon` applies (at Scrapy's ``"addon"``
  priority, so a project's ``settings.py``, a spider's ``custom_settings``, a
  site config, ``-s`` and Scrapyd's ``setting=`` all override them);
* the values components read (:func:`webrobot.settingsmodel.parse.read`: typed, the
  declared default when nothing set the setting, so no component repeats a fallback);
* the one check of every value (:func:`webrobot.settingsmodel.checks.check`, run once when
  the crawler starts and on ``-s`` text before a crawl), whose
  :class:`~webrobot.settingsmodel.parse.SettingValueError` names the setting, the value and
  what was expected;
* the settings reference page, ``docs/reference/settings.md``
  (``scripts/settings_reference.py``; a test fails when the page and this table differ).

Scrapy's own settings keep Scrapy's names; the ones listed here with
``scrapy=True`` are those webrobot gives another default. Values given as text
(``-s NAME=VALUE``, Scrapyd) are parsed as Scrapy's typed getters parse them
(:mod:`webrobot.settingsmodel.parse`).

Pure logic: no Scrapy, no I/O.

Why one module of this size: it is the declaration of every setting; one place is the point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webrobot.version import __version__

#: Kinds of value a setting can hold.
KINDS = (
    "bool",
    "int",
    "float",
    "str",
    "choice",
    "list",
    "dict",
    "class",
    "list_or_file",
    "address",
)
PROJECT_URL = "https://github.com/webrobot-crawler/webrobot"


@dataclass(frozen=True, slots=True)
class Setting:
    name: str
    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    #: Smallest value allowed (numbers); ``0`` usually means "no limit".
    minimum: float | None = None
    #: Largest value allowed (numbers).
    maximum: float | None = None
    #: A Scrapy setting whose default webrobot changes.
    scrapy: bool = False
    #: Why webrobot's default differs from Scrapy's (Scrapy settings only).
    why: str = ""
    #: Section of the reference page.
    section: str = ""
    #: Text settings: a non-empty value must start with one of these.
    prefixes: tuple[str, ...] = ()

    def expected(self) -> str:
        """What a value must be, for error messages and the reference page."""
        if self.kind == "choice":
            what = "one of " + ", ".join(c or '""' for c in self.choices)
        elif self.kind == "bool":
            what = "true/false or 1/0"
        elif self.kind == "int":
            what = "a whole number"
        elif self.kind == "float":
            what = "a number"
        elif self.kind == "list":
            what = "a list (or comma-separated text, or a JSON array)"
        elif self.kind == "dict":
            what = "a dict (or a JSON object)"
        elif self.kind == "list_or_file":
            what = "a list, or the path of a file with one entry per line"
        elif self.kind == "class":
            what = "an import path of a class"
        elif self.kind == "address":
            what = "empty, a port (0: any free one) or host:port"
        elif self.prefixes:
            what = "empty, or text starting with " + " or ".join(self.prefixes)
        else:
            what = "text"
        if self.minimum is not None and self.maximum is not None:
            what += f" from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            what += f" >= {self.minimum:g}"
        return what


_SECTION = ""


def _s(name: str, kind: str, default: Any, doc: str, **extra: Any) -> Setting:
    return Setting(name, kind, default, doc, section=_SECTION, **extra)


def _section(title: str) -> None:
    global _SECTION
    _SECTION = title


_section("Identification")
_IDENTITY = (
    _s("WEBROBOT_PROJECT_URL", "str", PROJECT_URL,
       "Where a site owner can read what this robot is and how to reach its operator."),
    _s("USER_AGENT", "str", f"webrobot/{__version__} (+{PROJECT_URL})",
       "User-Agent header of every request.", scrapy=True,
       why="Says which robot this is and where to read about it; WEBROBOT_CONTACT_URL (or USER_AGENT) names your own page."),
    _s("ROBOTSTXT_USER_AGENT", "str", "webrobot",
       "Product token matched against robots.txt User-agent lines and <meta name=\"...\">.", scrapy=True,
       why="robots.txt groups and <meta name> are matched against one product token, not a whole User-Agent."),
    _s("WEBROBOT_FROM", "str", "", "Operator contact sent as the From header (empty: no header; a warning at start)."),
    _s("WEBROBOT_CONTACT_URL", "str", "",
       "A page about this crawl and its operator; builds USER_AGENT as \"webrobot/<version> (+URL)\" unless "
       "USER_AGENT is set explicitly (empty: the project URL, and a warning at start when WEBROBOT_FROM is "
       "empty too)."),
    _s("DEFAULT_REQUEST_HEADERS", "dict",
       {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5", "Accept-Language": "en"},
       "Headers of every request.", scrapy=True,
       why="The crawl reads pages: HTML is asked for first, XML gets no preference."),
)  # fmt: skip
_section("Breadth-first order, and the frontier")
_ORDER = (
    _s("DEPTH_PRIORITY", "int", 1, "Shallow pages first.", scrapy=True,
       why="Breadth first: the shallow, most linked pages first, a trap's deep pages last."),
    _s("SCHEDULER", "class", "webrobot.frontier.scheduler.FrontierScheduler",
       "One frontier, in memory or (with JOBDIR) crash-safe in SQLite: see the guarantees page.", scrapy=True,
       why="A compact frontier in memory, crash-safe in SQLite under JOBDIR."),
    _s("WEBROBOT_FRONTIER", "choice", "auto",
       "Where the frontier lives: auto (SQLite with JOBDIR, else memory), memory or sqlite (needs JOBDIR).",
       choices=("auto", "memory", "sqlite")),
    _s("WEBROBOT_FRONTIER_SYNC", "choice", "normal",
       "SQLite synchronous level of the crash-safe frontier: normal survives a killed process, full also "
       "a power cut (slower).", choices=("normal", "full")),
    _s("WEBROBOT_FRONTIER_COMMIT_INTERVAL", "float", 0.5,
       "Seconds between two checks for finished requests while the engine asks for none (at least 0.05).",
       minimum=0),
    _s("WEBROBOT_SHUTDOWN_GRACE", "float", 2.0,
       "Seconds the downloads in flight get to finish after Ctrl-C (SIGINT) or SIGTERM; then they are "
       "let go, and with JOBDIR kept for the next run (requests queued for a site are let go at once).",
       minimum=0),
    _s("WEBROBOT_RETRY_FAILED", "bool", False,
       "On resume, queue again the requests an earlier run of the job gave up on (failed for good)."),
    _s("SCHEDULER_DISK_QUEUE", "class", "scrapy.squeues.PickleFifoDiskQueue",
       "FIFO disk queue: breadth first (Scrapy's scheduler only).", scrapy=True,
       why="FIFO keeps Scrapy's own scheduler breadth first too (Scrapy's LIFO goes depth first)."),
    _s("SCHEDULER_MEMORY_QUEUE", "class", "scrapy.squeues.FifoMemoryQueue",
       "FIFO memory queue: breadth first (Scrapy's scheduler only).", scrapy=True,
       why="FIFO keeps Scrapy's own scheduler breadth first too (Scrapy's LIFO goes depth first)."),
    _s("DEPTH_LIMIT", "int", 0, "Links followed from a start URL (0: no limit).", scrapy=True, minimum=0),
    _s("WEBROBOT_PRIORITIES_ENABLED", "bool", True,
       "Order the frontier by a site config's [[priorities]] ranks and sitemap <priority> (breadth-first "
       "within a rank); politeness per site still applies to every request."),
    _s("WEBROBOT_SITEMAP_PRIORITY_WEIGHT", "int", 5,
       "Levels of depth a sitemap <priority> of 1.0 (or 0.0) moves a URL earlier (or later).", minimum=0),
)  # fmt: skip
_section("Politeness")
_POLITENESS = (
    _s("ROBOTSTXT_OBEY", "bool", True, "Fetch, obey and cache robots.txt.", scrapy=True,
       why="A polite robot obeys robots.txt (scrapy startproject's settings turn it on too)."),
    _s("CONCURRENT_REQUESTS", "int", 32, "Requests in flight in the whole crawl.", scrapy=True,
       why="Many sites at once, since each site gets one request at a time.", minimum=1),
    _s("CONCURRENT_REQUESTS_PER_DOMAIN", "int", 1,
       "Requests in flight per politeness unit (WEBROBOT_POLITENESS_UNIT: a host by default).",
       scrapy=True,
       why="One request in flight per site: the norm for a robot that does not own the site.", minimum=1),
    _s("DOWNLOAD_DELAY", "float", 1.0, "Seconds between two requests to one site.", scrapy=True,
       why="A second between two requests to one site (with AutoThrottle, about 50 pages a minute per site); lower it for a site you own.", minimum=0),
    _s("AUTOTHROTTLE_ENABLED", "bool", True, "Adapt each site's delay to its response times.", scrapy=True,
       why="A site that answers slowly is asked less often."),
    _s("AUTOTHROTTLE_START_DELAY", "float", 1.0, "AutoThrottle's first delay, seconds.", scrapy=True,
       why="AutoThrottle starts from DOWNLOAD_DELAY, not 5 s.", minimum=0),
    _s("AUTOTHROTTLE_MAX_DELAY", "float", 60.0, "AutoThrottle's longest delay, seconds.", scrapy=True, minimum=0),
    _s("AUTOTHROTTLE_TARGET_CONCURRENCY", "float", 1.0,
       "Requests AutoThrottle aims to have in flight per site.", scrapy=True, minimum=0),
    _s("DNSCACHE_ENABLED", "bool", True, "Cache DNS answers in memory.", scrapy=True),
    _s("DOWNLOAD_TIMEOUT", "float", 30.0, "Seconds a download may take.", scrapy=True,
       why="A site has one slot: an answer slower than 30 s should not hold it for 3 minutes.", minimum=0),
    _s("RETRY_ENABLED", "bool", True, "Retry failed downloads.", scrapy=True),
    _s("RETRY_TIMES", "int", 2, "Retries of one request.", scrapy=True, minimum=0),
    _s("RETRY_HTTP_CODES", "list", [500, 502, 503, 504, 522, 524, 408, 429],
       "Statuses retried.", scrapy=True),
    _s("COOKIES_ENABLED", "bool", False, "Session cookies (a classic source of URL aliases).", scrapy=True,
       why="Session cookies turn one page into many URLs (session IDs) and change pages per visitor; public pages need none."),
    _s("TELNETCONSOLE_ENABLED", "bool", False, "No telnet console.", scrapy=True,
       why="No open port unless asked for."),
    _s("REMOTE_CONTROL_ENABLED", "bool", False, "No control port opened by a crawler.", scrapy=True,
       why="No open port unless asked for."),
    _s("DOWNLOAD_MAXSIZE", "int", 10 * 1024 * 1024, "Largest body downloaded, bytes (0: no limit).",
       scrapy=True,
       why="Pages are rarely over 10 MiB; bigger bodies are files, stopped before they fill memory or disk.", minimum=0),
    _s("DOWNLOAD_WARNSIZE", "int", 2 * 1024 * 1024, "Body size that logs a warning, bytes (0: none).",
       scrapy=True,
       why="2 MiB is an unusually large page, worth a warning.", minimum=0),
    _s("REDIRECT_MAX_TIMES", "int", 10, "Redirects followed for one request.", scrapy=True,
       why="No real redirect chain has 10 hops; a longer one is a loop or a trap.", minimum=0),
    _s("LOGSTATS_INTERVAL", "float", 60.0, "Seconds between Scrapy's stats log lines.", scrapy=True, minimum=0),
    _s("DOWNLOADER", "class", "webrobot.politeness.downloader.SiteDownloader",
       "Downloader whose slots are sites and whose politeness object decides each start.", scrapy=True,
       why="Download slots per site (host and port) and one clock per site for Crawl-delay, Retry-After and backoff."),
    _s("WEBROBOT_POLITENESS_UNIT", "choice", "host",
       "What one politeness clock and download slot covers: host (the host name, plus a port other than "
       "the scheme's default: http and https of one host share it), ip (the address the host resolves to: "
       "virtual hosts of one server share it) or domain (the registered domain, from the Public Suffix List).",
       choices=("host", "ip", "domain")),
    _s("WEBROBOT_POLITENESS_CLASS", "class", "webrobot.politeness.clock.SitePoliteness",
       "Who reserves each site's next request time (shared by workers in a distributed crawl)."),
    _s("WEBROBOT_POLITENESS_SITES", "int", 100_000, "Sites remembered in process (LRU; 0: no limit).", minimum=0),
    _s("WEBROBOT_POLITENESS_RETRY_AFTER_MAX", "float", 600.0,
       "Cap on a failing page's Retry-After, seconds.", minimum=0),
    _s("WEBROBOT_POLITENESS_BACKOFF_BASE", "float", 1.0,
       "Interval after a site's first failure (429, 5xx, no response), seconds, doubling while they last.",
       minimum=0),
    _s("WEBROBOT_POLITENESS_BACKOFF_MAX", "float", 60.0, "Cap on the backoff interval, seconds (0: none).",
       minimum=0),
    _s("WEBROBOT_POLITENESS_BACKOFF_JITTER", "float", 0.25,
       "Each backoff interval is stretched by a random share of up to this (0.25: up to 25 % longer).",
       minimum=0),
    _s("WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE", "int", 0,
       "Requests one site may get per minute, on top of DOWNLOAD_DELAY/AutoThrottle (0: no cap).", minimum=0),
)  # fmt: skip
_section("robots.txt")
_ROBOTS = (
    _s("ROBOTSTXT_PARSER", "class", "webrobot.robots.parsers.Rfc9309RobotParser",
       "The robots.txt matching: Rfc9309RobotParser (longest match) or FirstMatchRobotParser "
       "(the 1996 draft), both in webrobot.robots.parsers, or any Scrapy RobotParser.", scrapy=True,
       why="RFC 9309's longest match, kept apart from the status rules (Protego matches, webrobot decides what statuses mean)."),
    _s("WEBROBOT_ROBOTS_AUTH_POLICY", "choice", "disallow",
       "robots.txt answered 401/403: disallow the site, or allow it (RFC 9309).", choices=("disallow", "allow")),
    _s("WEBROBOT_ROBOTS_MAX_REDIRECTS", "int", 5, "Redirects followed for robots.txt.", minimum=0),
    _s("WEBROBOT_ROBOTS_PARSE_LIMIT", "int", 500 * 1024,
       "Bytes of robots.txt parsed (RFC 9309: at least 500 KiB).", minimum=0),
    _s("WEBROBOT_ROBOTS_TTL", "float", 86400.0, "Longest a decision is cached, seconds (0: no limit).", minimum=0),
    _s("WEBROBOT_ROBOTS_MIN_TTL", "float", 60.0,
       "Shortest a decision is cached whatever Cache-Control says, seconds (at least 1).", minimum=0),
    _s("WEBROBOT_ROBOTS_DEFER_MAX", "float", 3600.0,
       "Hold an unreachable site this long, then disallow it, seconds (0: no limit).", minimum=0),
    _s("WEBROBOT_ROBOTS_DNS_DEFER_MAX", "float", 120.0,
       "Hold a site whose host name does not resolve this long, then disallow it, seconds (0: as "
       "WEBROBOT_ROBOTS_DEFER_MAX). Applies when the resolver could not be reached (EAI_AGAIN, a "
       "timeout); a name the resolver says does not exist is given up after two tries "
       "(WEBROBOT_DEAD_NAME_RETRY).", minimum=0),
    _s("WEBROBOT_DEAD_NAME_RETRY", "float", 3.0,
       "A host whose name the resolver says does not exist (NXDOMAIN) is tried twice, this many "
       "seconds apart, then given up, seconds.", minimum=0),
    _s("WEBROBOT_DEAD_REFUSED_MAX", "float", 6.0,
       "A host whose port refuses connections is retried with backoff this long, then given up, "
       "seconds.", minimum=0),
    _s("WEBROBOT_ROBOTS_HELD_ONLY_MAX", "float", 180.0,
       "When nothing is left but requests held for sites whose robots.txt keeps failing, close the "
       "crawl after this long (reason held_sites_only; JOBDIR keeps them for a resume), seconds "
       "(0: wait until each site is given up).", minimum=0),
    _s("WEBROBOT_ROBOTS_BACKOFF_BASE", "float", 2.0, "First retry after a failed fetch, seconds, doubling.",
       minimum=0),
    _s("WEBROBOT_ROBOTS_BACKOFF_MAX", "float", 600.0, "Cap on the retry interval and on Retry-After, seconds.",
       minimum=0),
    _s("WEBROBOT_ROBOTS_STALE_MAX", "float", 30 * 86400.0,
       "Obey expired rules this long while re-fetches fail, seconds (0: no limit).", minimum=0),
    _s("WEBROBOT_ROBOTS_MAX_CRAWL_DELAY", "float", 60.0,
       "Cap on Crawl-delay / Request-rate, seconds (0: no cap).", minimum=0),
    _s("WEBROBOT_ROBOTS_CACHE_CLASS", "class", "webrobot.robots.cache.LruRobotsCache",
       "Who keeps robots.txt decisions (the Redis add-on swaps in a shared cache)."),
    _s("WEBROBOT_ROBOTS_CACHE_SITES", "int", 10_000, "Decisions kept in process (LRU; 0: no limit).", minimum=0),
    _s("WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS", "bool", True,
       "Hold a site's new requests in this process while its robots.txt is decided (False: hold them "
       "when they leave the scheduler; the Redis add-on's choice)."),
)  # fmt: skip
_section("Duplicates")
_DUPES = (
    _s("WEBROBOT_DUPES_ENABLED", "bool", True, "Drop items of content already seen and do not follow those pages' links."),
    _s("WEBROBOT_FINGERPRINT", "choice", "body",
       "Content fingerprint: MD5 of the body bytes, or of the visible text.", choices=("body", "text")),
    _s("WEBROBOT_NEAR_DUPLICATES", "int", 0,
       "Also drop pages whose main text is a near copy of a page already itemised: the largest "
       "SimHash distance in bits, 1 to 3 (0: off).", minimum=0, maximum=3),
    _s("WEBROBOT_CONTENT_STORE", "choice", "exact",
       "Content fingerprint store: exact (keeps each first URL) or bloom.", choices=("exact", "bloom")),
    _s("WEBROBOT_CONTENT_INDEX_CLASS", "class", "webrobot.seen.contentdupes.ContentDupes",
       "Who keeps the content fingerprints (the Redis add-on swaps in a shared index)."),
    _s("DUPEFILTER_CLASS", "class", "webrobot.seen.dupefilter.SeenUrlFilter",
       "Visited-URL filter on canonical URLs.", scrapy=True,
       why="URLs compared in canonical form, in a compact store that survives restarts under JOBDIR."),
    _s("WEBROBOT_SEEN_STORE", "choice", "exact",
       "Visited-URL store: exact (64-bit digests) or bloom (presence bits).", choices=("exact", "bloom")),
    _s("WEBROBOT_SEEN_CAPACITY", "int", 1_000_000, "Keys a bloom store is sized for.", minimum=1),
    _s("WEBROBOT_SEEN_ERROR_RATE", "float", 0.01, "False-positive rate a bloom store is sized for.", minimum=0),
    _s("WEBROBOT_SEEN_CHECKPOINT_INTERVAL", "float", 0.0,
       "With JOBDIR, also checkpoint the stores every N seconds (0: only at a clean close).", minimum=0),
)  # fmt: skip
_section("Scope and budgets")
_SCOPE = (
    _s("WEBROBOT_SCOPE_ENABLED", "bool", True,
       "Stay on the start URLs' hosts (or the spider's allowed_domains) and a site config's allow/deny."),
    _s("WEBROBOT_SCOPE", "choice", "host",
       "What a start URL brings into scope: host (its host name and port, any scheme), origin (its "
       "exact scheme, host and port) or domain (its registered domain and every name under it). A site "
       "config's scope key sets it.", choices=("host", "origin", "domain")),
    _s("WEBROBOT_SCOPE_SHARE_CLASS", "str", "",
       "Who shares the hosts a start URL's redirects brought into scope with the other workers (empty: "
       "none; the Redis add-on sets webrobot.distributed.scope.RedisScopeShare)."),
    _s("WEBROBOT_UPGRADE_ENABLED", "bool", True,
       "Learn which hosts moved to https (an http URL redirected to the same URL over https, or "
       "Strict-Transport-Security) and ask their http URLs over https from then on."),
    _s("WEBROBOT_SCOPE_REDIRECT_SEEDS", "bool", True,
       "A start URL's redirects (before its first page) bring their target's host into scope, as "
       "Heritrix's seedsRedirectNewSeeds."),
    _s("WEBROBOT_MAX_PAGES_PER_SITE", "int", 0,
       "Pages a site (a host, any scheme) may have downloaded (0: no budget); set per site by max_pages.",
       minimum=0),
    _s("WEBROBOT_PAGE_BUDGET_CLASS", "class", "webrobot.urls.budget.PageBudget",
       "Who counts the pages spent (the Redis add-on swaps in one budget shared by all workers)."),
    _s("WEBROBOT_SITES_DIRS", "list", [], "Extra folders of per-site *.toml configs, besides the bundled ones."),
)  # fmt: skip
_section("Spider traps and URL hygiene")
_TRAPS = (
    _s("REQUEST_FINGERPRINTER_CLASS", "class", "webrobot.seen.requestfingerprinter.CanonicalRequestFingerprinter",
       "Dedupe on the canonical URL with the site config's alias rules.", scrapy=True,
       why="One fingerprint for every spelling of one URL (aliases, tracking parameters, site config rules)."),
    _s("WEBROBOT_TRAPS_ENABLED", "bool", True, "Refuse URLs that look like spider traps."),
    _s("URLLENGTH_LIMIT", "int", 2083, "Longest URL requested (checked downloader-side; 0: no limit).",
       scrapy=True, minimum=0),
    _s("WEBROBOT_TOO_LONG_WARNING_INTERVAL", "float", 60.0,
       "Seconds between \"URL too long\" warnings for one site.", minimum=0),
    _s("WEBROBOT_MAX_SEGMENT_REPEATS", "int", 2, "Times one path segment may occur in a URL (0: no limit).",
       minimum=0),
    _s("WEBROBOT_MAX_PATH_SEGMENTS", "int", 32, "Path segments a URL may have (0: no limit).", minimum=0),
    _s("WEBROBOT_TEMPLATE_MAX_CHAIN", "int", 100,
       "Pages of one URL template in a row, each linked from the one before (0: no limit): calendars and "
       "endless pagination end here (a site config's [[templates]] may change it).", minimum=0),
    _s("WEBROBOT_TEMPLATE_MAX_PAGES", "int", 10_000, "Pages of one URL template requested in all (0: no limit).",
       minimum=0),
    _s("WEBROBOT_BLOCKLIST", "list_or_file", [],
       "Sites and URL patterns never requested: a list, or a file path (one entry per line)."),
)  # fmt: skip
#: Scrapy's ``scrapy.linkextractors.IGNORED_EXTENSIONS`` (Scrapy 2.19), copied so that this
#: module imports no Scrapy; tests/test_settings_model.py fails when Scrapy's list changes.
SCRAPY_IGNORED_EXTENSIONS = (
    "7z", "7zip", "bz2", "rar", "tar", "tar.gz", "xz", "zip",
    "mng", "pct", "bmp", "gif", "jpg", "jpeg", "png", "pst", "psp", "tif", "tiff", "ai", "drw", "dxf", "eps",
    "ps", "svg", "cdr", "ico", "webp",
    "mp3", "wma", "ogg", "wav", "ra", "aac", "mid", "au", "aiff",
    "3gp", "asf", "asx", "avi", "mov", "mp4", "mpg", "qt", "rm", "swf", "wmv", "m4a", "m4v", "flv", "webm",
    "xls", "xlsm", "xlsx", "xltm", "xltx", "potm", "potx", "ppt", "pptm", "pptx", "pps", "doc", "docb", "docm",
    "docx", "dotm", "dotx", "odt", "ods", "odg", "odp",
    "css", "pdf", "exe", "bin", "rss", "dmg", "iso", "apk", "jar", "sh", "rb", "js", "hta", "bat", "cpl", "msi",
    "msp", "py",
)  # fmt: skip
_section("The open web is hostile")
_HOSTILE = (
    _s("WEBROBOT_NETWORK_GUARD_ENABLED", "bool", True,
       "Refuse requests to link-local, cloud-metadata and (for crawls of public sites) private addresses."),
    _s("WEBROBOT_BLOCKED_NETWORKS", "list", [],
       "More networks never requested, whatever the start URLs: [\"10.1.0.0/16\", \"127.0.0.2\"]."),
    _s("WEBROBOT_RESOLVE", "dict", {},
       "Host names answered without DNS, as curl's --resolve: {\"shop.test\": \"127.0.0.1\"} (or a list of "
       "addresses per name); other names resolve as usual. Read by the resolver (process settings: the "
       "project's or -s) and by the network guard, which judges the mapped address."),
    _s("WEBROBOT_RESOLVE_ONLY", "bool", False,
       "Answer only the names of WEBROBOT_RESOLVE (and localhost): any other name fails at once, "
       "without a DNS query, as a name that does not exist (an offline crawl, a test bed)."),
    _s("WEBROBOT_MAX_LINKS_PER_PAGE", "int", 2000,
       "Links of one page passed on to the scheduler, after the scope checks (0: no cap).", minimum=0),
    _s("WEBROBOT_IGNORED_EXTENSIONS", "list", [*SCRAPY_IGNORED_EXTENSIONS, "mht", "mhtml"],
       "Links whose path ends in one of these are not requested (not pages): Scrapy's IGNORED_EXTENSIONS "
       "and saved pages (mht, mhtml)."),
    _s("WEBROBOT_STOP_UNWANTED_DOWNLOADS", "bool", True,
       "Stop downloads whose headers declare a type that is not a page, or a size over DOWNLOAD_MAXSIZE."),
    _s("WEBROBOT_NON_HTML_ITEMS", "bool", False,
       "Download files that are not pages in full: the webrobot spider makes an item of each (no links "
       "from them), another spider's callbacks get them."),
)  # fmt: skip
_section("What pages say about themselves")
_META = (
    _s("WEBROBOT_META_ROBOTS_ENABLED", "bool", True,
       "Read and obey <meta name=\"robots\">, <meta name=\"webrobot\"> and X-Robots-Tag."),
    _s("WEBROBOT_HONOR_REL_NOFOLLOW", "bool", True,
       "Do not request links marked rel=\"nofollow\" (every occurrence on the page)."),
)  # fmt: skip
_section("Pages built by JavaScript")
_RENDER = (
    _s("WEBROBOT_RENDER", "choice", "",
       "Pages built by JavaScript (needs webrobot[browser]): empty (off), browser (render every page in "
       "headless Chromium), on-request (only requests whose meta has render = \"browser\"). A site "
       "config's render = \"browser\" sets it.", choices=("", "browser", "on-request")),
    _s("WEBROBOT_BROWSER_PATH", "str", "/usr/bin/chromium",
       "The system's Chromium (Playwright's own browser download is never used)."),
    _s("WEBROBOT_RENDER_BLOCKED_TYPES", "list", ["image", "media", "font"],
       "Resource types the browser does not fetch while rendering (they add no links)."),
    _s("WEBROBOT_RENDER_MAX_SUBREQUESTS", "int", 50,
       "Requests the browser may make while rendering one page (0: no limit).", minimum=0),
    _s("WEBROBOT_RENDER_WAIT_UNTIL", "choice", "networkidle",
       "When a rendered page is read: networkidle (no request for 0.5 s), load or domcontentloaded.",
       choices=("networkidle", "load", "domcontentloaded")),
)  # fmt: skip
_section("Sitemaps")
_SITEMAPS = (
    _s("WEBROBOT_SITEMAPS_ENABLED", "bool", True,
       "Crawl the sitemaps named by robots.txt Sitemap: lines (a site config's `sitemaps` always are)."),
    _s("WEBROBOT_SITEMAP_MAX_URLS", "int", 50_000,
       "URLs read from one sitemap file, the protocol's limit (0: no limit).", minimum=0),
    _s("WEBROBOT_SITEMAP_MAX_BYTES", "int", 50 * 1024 * 1024,
       "Bytes of one sitemap file, uncompressed, the protocol's limit (0: DOWNLOAD_MAXSIZE only).", minimum=0),
)  # fmt: skip
_section("Distributed crawling (Redis)")
_REDIS = (
    _s("WEBROBOT_REDIS_URL", "str", "",
       "Redis shared by all workers of a crawl (empty: everything stays in-process; needs webrobot[redis]).",
       prefixes=("redis://", "rediss://", "unix://")),
    _s("WEBROBOT_REDIS_CLUSTER", "bool", False,
       "WEBROBOT_REDIS_URL names any node of a Redis Cluster (keys are hash-tagged so each decision stays in one slot)."),
    _s("WEBROBOT_REDIS_KEY", "str", "webrobot:%(spider)s",
       "Prefix of a crawl's Redis keys (%(spider)s: the spider name); same prefix = same crawl."),
    _s("WEBROBOT_REDIS_LEASE_TTL", "float", 60.0,
       "Seconds a worker's leases stay its own without a heartbeat (sent every third of it).", minimum=0),
    _s("WEBROBOT_REDIS_MAX_LEASE_EXPIRIES", "int", 3,
       "A request whose lease expired this many times is set aside in <key>:dead (0: never).", minimum=0),
    _s("WEBROBOT_REDIS_POLL_INTERVAL", "float", 1.0,
       "Seconds between heartbeat checks, acknowledgements of finished pages and frontier checks (stopped workers are looked for every quarter of WEBROBOT_REDIS_LEASE_TTL).", minimum=0),
    _s("WEBROBOT_REDIS_IDLE_CLOSE", "float", 10.0,
       "Seconds the shared crawl must have nothing queued or leased before workers close (0: never).", minimum=0),
    _s("WEBROBOT_REDIS_VISITED_BUCKET_BITS", "int", 14, "2**N buckets of visited-URL digests.", minimum=0),
    _s("WEBROBOT_REDIS_CONTENT_BUCKET_BITS", "int", 14, "2**N buckets of content fingerprints.", minimum=0),
    _s("WEBROBOT_REDIS_ITEMS_ENABLED", "bool", True,
       "Store every item in the crawl's Redis stream with its page's lease acknowledgement (webrobot-export)."),
    _s("WEBROBOT_REDIS_OUTAGE_TIMEOUT", "float", 300.0,
       "Seconds Redis may stay unreachable (no request starts meanwhile) before a worker closes with "
       "redis_unavailable (0: never).", minimum=0),
    _s("WEBROBOT_REDIS_VISITED_CACHE", "int", 1_000_000,
       "Visited-URL digests each worker remembers, so a link seen again costs no Redis command (0: no limit).",
       minimum=0),
)  # fmt: skip
_section("Speed and memory")
_SPEED = (
    _s("CONCURRENT_ITEMS", "int", 16, "Outputs of one callback processed in parallel.", scrapy=True,
       why="Items are small: 16 at once use less memory than 100 at the same speed (benchmarks/).", minimum=1),
    _s("STATS_CLASS", "class", "webrobot.stats.StatsCollector",
       "Scrapy's in-memory stats without the deprecation shim on every attribute access.", scrapy=True,
       why="The same stats without a deprecation shim on every access, which cost CPU per request."),
    _s("WEBROBOT_GC_THRESHOLD", "int", 50_000,
       "Net allocations between two runs of Python's cycle collector during the crawl (Python's 700; "
       "0: keep Python's).", minimum=0),
    _s("WEBROBOT_GC_FREEZE", "bool", True,
       "At engine start, freeze the objects alive (imports, components) so full collections skip them."),
)  # fmt: skip
_section("Open files and memory")
_LIMITS = (
    _s("DOWNLOAD_HANDLERS", "dict",
       {"http": "webrobot.politeness.connections.KeepAliveDownloadHandler",
        "https": "webrobot.politeness.connections.KeepAliveDownloadHandler"},
       "Scrapy's HTTP/1.1 handler with idle keep-alive connections bounded in all, and "
       "'too many open files' as back-pressure (see the resources page).", scrapy=True,
       why="Keep-alive connections bounded in number, and 'too many open files' slowing the crawl instead of failing it."),
    _s("WEBROBOT_FD_RESERVE", "int", 256,
       "Open files kept out of the connections' share of the limit: logs, feeds, job folder, "
       "WARC, index, Redis.", minimum=0),
    _s("WEBROBOT_MAX_IDLE_CONNECTIONS", "int", 512,
       "Idle keep-alive connections kept in all (fewer if the open-file limit leaves less room; "
       "0: as many as it leaves).", minimum=0),
    _s("WEBROBOT_RAISE_FD_LIMIT", "bool", True,
       "At start, raise the process's open-file limit (soft) to its hard limit."),
    _s("MEMUSAGE_CHECK_INTERVAL_SECONDS", "float", 5.0,
       "Seconds between two looks of Scrapy's memory guard (MEMUSAGE_LIMIT_MB) at the process's memory.",
       scrapy=True,
       why="A memory limit (MEMUSAGE_LIMIT_MB) is caught within 5 s, not a minute.", minimum=0),
    _s("WEBROBOT_FRONTIER_MEMORY_REQUESTS", "int", 1_000_000,
       "Requests the in-memory frontier keeps in memory (about 280 bytes each); the next ones wait on "
       "disk and come back in order (0: no limit).", minimum=0),
    _s("WEBROBOT_FRONTIER_SPILL_DIR", "str", "",
       "Folder for the in-memory frontier's requests past that bound (empty: the system's temporary folder)."),
)  # fmt: skip
_section("Archive (WARC) and full-text search")
_ARCHIVE = (
    _s("WEBROBOT_WARC_DIR", "str", "",
       "Folder of the WARC/1.1 files of every fetch (empty: no archive; needs webrobot[warc])."),
    _s("WEBROBOT_WARC_MAX_SIZE", "int", 1_000_000_000,
       "Bytes a WARC file may reach before the next one starts (0: one file per run).", minimum=0),
    _s("WEBROBOT_WARC_PREFIX", "str", "%(spider)s", "WARC file name prefix (%(spider)s: the spider name)."),
    _s("WEBROBOT_REQUISITES_ENABLED", "bool", True,
       "With WEBROBOT_WARC_DIR: fetch and archive each page's requisites (stylesheets, scripts, images, "
       "fonts, media, frames) so that it replays whole (site config key: requisites)."),
    _s("WEBROBOT_REQUISITES_MAX_HOPS", "int", 2,
       "Embeds an off-scope requisite may be away from its in-scope page (Heritrix's maxTransHops; "
       "0: requisites from the crawl's own sites only).", minimum=0),
    _s("WEBROBOT_DEAD_HOSTS_FILE", "str", "webrobot-dead-hosts.json",
       "Where hosts given up as dead (the resolver says the name does not exist, the connection is "
       "refused; not a resolver that could not be reached) are remembered between crawls, so that "
       "images and requisites on them are not asked again; a relative path is in "
       "the project's .scrapy/ folder, as HTTPCACHE_DIR is (empty: remembered during the crawl only)."),
    _s("WEBROBOT_DEAD_HOSTS_EXPIRY", "float", 7 * 86400.0,
       "How long a host given up as dead is remembered, seconds from when it was last found dead; "
       "after that it is asked again (0: no limit).", minimum=0),
    _s("WEBROBOT_INDEX_ENABLED", "bool", True,
       "Keep a full-text index of the crawled pages (needs webrobot[search]; off with one line without it)."),
    _s("WEBROBOT_INDEX", "str", "",
       "The index folder (empty: next to the first local items feed, else ./webrobot-index)."),
)  # fmt: skip
_section("Output and reports")
_OUTPUT = (
    _s("WEBROBOT_STATS_FILE", "str", "", "Write the final stats as JSON to this path (empty: don't)."),
    _s("WEBROBOT_STORE_BODY", "bool", False,
       "Put the decoded body text in each item's body field (never for noarchive pages)."),
    _s("WEBROBOT_PROGRESS_INTERVAL", "float", 30.0, "Seconds between two progress lines (0: none).", minimum=0),
    _s("WEBROBOT_REPORT_ENABLED", "bool", True,
       "Write report.json and report.html when the crawl ends (charts need webrobot[charts])."),
    _s("WEBROBOT_QUIET_LIBRARY_WARNINGS", "bool", True,
       "Count the warnings of the libraries the crawl runs (Pillow, trafilatura, PDFium...) in "
       "webrobot/warnings/<library> and log them at DEBUG, instead of printing each one (False: "
       "shown as they come). webrobot's, Scrapy's and the project's own warnings are always shown."),
    _s("WEBROBOT_REPORT_DIR", "str", "",
       "Folder of the report (empty: next to the first local items feed, else ./report)."),
    _s("WEBROBOT_METRICS_PORT", "address", "",
       "Serve Prometheus metrics at /metrics and a live status page at / on this port of 127.0.0.1, or "
       "host:port (0: a free port, logged and in the stats; empty: off; needs webrobot[metrics])."),
    _s("WEBROBOT_METRICS_LINGER", "float", 0.0,
       "Seconds /metrics keeps answering after the crawl ends, so that the last scrape sees the final "
       "counts (set it to the scrape interval or more for short crawls).", minimum=0),
    _s("WEBROBOT_METRICS_REFRESH", "int", 10, "Seconds between two reloads of the live status page.", minimum=1),
    _s("WEBROBOT_HEALTH_MAX_ERROR_RATE", "float", 0.25,
       "Flag a site whose failed requests pass this share of its requests (0: no check).", minimum=0),
    _s("WEBROBOT_HEALTH_MAX_TRAP_REFUSALS", "int", 100,
       "Flag a site with more URLs refused as traps than this (0: no check).", minimum=0),
    _s("HTTPCACHE_POLICY", "class", "webrobot.frontier.recrawl.RevalidatePolicy",
       "With HTTPCACHE_ENABLED: revalidate every stored page (If-None-Match / If-Modified-Since).", scrapy=True,
       why="With HTTPCACHE_ENABLED, a re-crawl revalidates stored pages instead of serving them unchanged."),
    _s("WEBROBOT_RECRAWL_INTERVAL", "float", 0.0,
       "Seconds between checks of a stored page at first (0: every stored page is checked at every "
       "re-crawl); then each page's own interval adapts to how often its MD5 changes.", minimum=0),
    _s("WEBROBOT_RECRAWL_MIN_INTERVAL", "float", 3600.0, "Shortest adaptive interval of a page, seconds.",
       minimum=0),
    _s("WEBROBOT_RECRAWL_MAX_INTERVAL", "float", 30 * 86400.0, "Longest adaptive interval of a page, seconds.",
       minimum=0),
    _s("WEBROBOT_RECRAWL_FACTOR", "float", 2.0,
       "A changed page's interval is divided by this, an unchanged page's multiplied.", minimum=1),
    _s("WEBROBOT_FRESHNESS_DB", "str", "",
       "SQLite file of the pages' check records (empty: freshness.sqlite in the HTTPCACHE_DIR folder)."),
)  # fmt: skip

_section("Mining: what pages say")
_MINING = (
    _s("WEBROBOT_EXTRACT", "list", [],
       "What to extract from each page into its item: any of the mining parts (the table in "
       "webrobot/extract/parts.py, listed on the mining page) or all, which leaves the opt-in "
       "markdown out (empty: nothing, the crawl's full speed)."),
    _s("WEBROBOT_EXTRACT_REQUIRED", "list", [],
       "Parts other components read, mined whatever WEBROBOT_EXTRACT says: the add-on sets it "
       "for the monitor (WEBROBOT_MONITOR_DIR); same words as WEBROBOT_EXTRACT."),
    _s("WEBROBOT_FIELDS", "dict", {},
       "Per-site fields: name -> {css, xpath or jsonld, processors} (a site config's [fields] "
       "table); declaring any switches the fields part on."),
    _s("WEBROBOT_DOCUMENT_MAX_BYTES", "int", 20_000_000,
       "With documents extracted: largest document (PDF) downloaded and read, in bytes; a larger one "
       "is stopped at its headers or refused unread (0: DOWNLOAD_MAXSIZE only).", minimum=0),
    _s("WEBROBOT_DOCUMENT_TIMEOUT", "float", 30.0,
       "Seconds one document may take to read; its reader process is then killed.", minimum=0.1),
    _s("WEBROBOT_DOCUMENT_MAX_INFLATED_MB", "int", 256,
       "A document whose compressed streams inflate to more than this, in MB, is refused as a "
       "decompression bomb (0: no limit).", minimum=0),
    _s("WEBROBOT_DOCUMENT_MEMORY_MB", "int", 1024,
       "Address space of the process that reads documents, in MB (0: no limit).", minimum=0),
    _s("WEBROBOT_IMAGE_MAX_BYTES", "int", 10_000_000,
       "With images extracted: largest image downloaded to describe, in bytes (0: DOWNLOAD_MAXSIZE only).",
       minimum=0),
    _s("WEBROBOT_IMAGE_MAX_PIXELS", "int", 50_000_000,
       "An image of more pixels than this is not decoded (a decompression bomb; 0: Pillow's own limit).",
       minimum=0),
    _s("WEBROBOT_IMAGES_PER_PAGE", "int", 20,
       "Images of one page downloaded and described; the others keep their markup only (0: no limit).",
       minimum=0),
    _s("WEBROBOT_IMAGES_WAIT_MAX", "float", 15.0,
       "Longest a page's item waits for its images, seconds; the images not fetched by then are listed "
       "with status unfetched and a reason (timeout, no_such_name, refused) (0: no limit).", minimum=0),
)  # fmt: skip

_section("Monitoring: what changed")
_MONITOR = (
    _s("WEBROBOT_MONITOR_DIR", "str", "",
       "Watch pages between crawls: the folder keeping each page's snapshot, events.jsonl and the "
       "webhook's outbox (empty: no monitor). A crawl with the same folder re-checks every page it knows."),
    _s("WEBROBOT_WATCH", "str", "",
       "With WEBROBOT_MONITOR_DIR: a TOML file of [[rule]] tables (name; terms, texts, images) "
       "whose matches are match events (empty: no watch rules)."),
    _s("WEBROBOT_WATCH_RULES", "list", [],
       "With WEBROBOT_MONITOR_DIR: watch rules as a list of tables (the keys of WEBROBOT_WATCH's "
       "[[rule]] tables; texts and images as absolute paths), used beside WEBROBOT_WATCH's "
       "(site config key: [[watch.rule]])."),
    _s("WEBROBOT_MONITOR_IGNORE_SELECTORS", "list", [],
       "CSS selectors of page parts whose sentences are never a change (a site's clock, ads, counters)."),
    _s("WEBROBOT_MONITOR_IGNORE_PATTERNS", "list", [],
       "Regular expressions: a sentence matching one is never a change."),
    _s("WEBROBOT_MONITOR_IGNORE_FIELDS", "list", [],
       "Typed fields never compared (price, availability, title, fields.NAME...)."),
    _s("WEBROBOT_MONITOR_TEMPLATE_MIN_PAGES", "int", 10,
       "Learn each site's template (sentences on half its pages or more: footers, menus, pleas), "
       "left out of change judgement, from this many of its pages a crawl (0: never).", minimum=0),
    _s("WEBROBOT_MONITOR_STORE_CLASS", "class", "webrobot.monitor.store.MonitorStore",
       "Who keeps the snapshots and events (the Redis add-on swaps in a store shared by the workers)."),
    _s("WEBROBOT_MONITOR_RECHECK", "bool", True,
       "Seed every page the monitor knows as a start request, linked or not."),
    _s("WEBROBOT_MONITOR_WEBHOOK", "str", "",
       "POST each event as JSON to this URL, at least once, with an Idempotency-Key header "
       "(empty: events.jsonl only).", prefixes=("http://", "https://")),
    _s("WEBROBOT_MONITOR_WEBHOOK_TIMEOUT", "float", 10.0, "Seconds one webhook POST may take.",
       minimum=0.1),
    _s("WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX", "float", 300.0,
       "Longest wait, in seconds, between two tries of an event the webhook refused (waits double from 1 s).",
       minimum=0.1),
    _s("WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT", "float", 10.0,
       "Seconds a closing crawl goes on delivering; what is left waits in the outbox for the next crawl.",
       minimum=0),
    _s("WEBROBOT_MONITOR_WEBHOOK_RETRIES", "int", 6,
       "Tries of one event the webhook keeps failing (5xx, time-outs, no answer) before it is parked "
       "and the events behind it go on; scrapy webrobot-replay sends it again (0: never parked, the "
       "events behind it wait).", minimum=0),
    _s("WEBROBOT_MONITOR_RECHECK_INTERVAL", "float", 0.0,
       "Seconds between two re-checks of a known page; the interval doubles at each check that finds "
       "the page unchanged (up to WEBROBOT_MONITOR_RECHECK_MAX_INTERVAL) and starts again when it "
       "changed; a page not due is not re-seeded (0: every known page at every crawl).", minimum=0),
    _s("WEBROBOT_MONITOR_RECHECK_MAX_INTERVAL", "float", 8 * 7 * 86400.0,
       "Longest re-check interval of a page that never changes, seconds.", minimum=0),
    _s("WEBROBOT_MONITOR_EVENTS_MAX_MB", "float", 64.0,
       "events.jsonl is rotated (events.jsonl.1, .2...) once it is bigger than this, in MB (0: no limit).",
       minimum=0),
    _s("WEBROBOT_MONITOR_EVENTS_MAX_DAYS", "float", 0.0,
       "events.jsonl is rotated too once its first event is older than this, in days (0: no limit).",
       minimum=0),
    _s("WEBROBOT_MONITOR_EVENTS_FILES", "int", 4,
       "Rotated events files kept beside events.jsonl; the oldest beyond this is deleted.", minimum=0),
    _s("WEBROBOT_MONITOR_NOTIFY", "list", [],
       "Apprise URLs (mailto://, slack://, json://...): each gets one digest of a crawl's events "
       "when it closes, at least once (needs the notify extra; empty: no notices)."),
)  # fmt: skip

_section("Disk space")
_DISK = (
    _s("WEBROBOT_DISK_GUARD_ENABLED", "bool", True,
       "Watch the free space of every folder the crawl writes; pause the crawl when one runs low."),
    _s("WEBROBOT_DISK_MIN_FREE_MB", "float", 500.0,
       "Pause when a folder the crawl writes has less free space than this, in MB (0: no floor).",
       minimum=0),
    _s("WEBROBOT_DISK_MIN_FREE_FRACTION", "float", 0.0,
       "Pause too when free space falls below this share of the disk's size (0.05: 5 %; 0: off).",
       minimum=0),
    _s("WEBROBOT_DISK_CHECK_INTERVAL", "float", 1.0, "Seconds between two readings of the free space.",
       minimum=0.05),
    _s("WEBROBOT_DISK_FULL_TIMEOUT", "float", 600.0,
       "Seconds the crawl may stay paused for disk space before it closes with disk_full (0: never).",
       minimum=0),
    _s("WEBROBOT_DISK_PATHS", "list", [],
       "More folders for the disk guard to watch (the crawl's own are found from its settings)."),
)  # fmt: skip

SETTINGS: tuple[Setting, ...] = (
    _IDENTITY
    + _ORDER
    + _POLITENESS
    + _ROBOTS
    + _DUPES
    + _SCOPE
    + _TRAPS
    + _HOSTILE
    + _META
    + _RENDER
    + _SITEMAPS
    + _REDIS
    + _SPEED
    + _LIMITS
    + _ARCHIVE
    + _MINING
    + _MONITOR
    + _DISK
    + _OUTPUT
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}

#: Settings that no longer exist, with what to set instead: setting one is an error.
REMOVED: dict[str, str] = {
    "WEBROBOT_ROBOTS_MATCHING": (
        "no value: ROBOTSTXT_PARSER chooses the matching "
        "(webrobot.robots.parsers.FirstMatchRobotParser for the 1996 draft's first match)"
    ),
}


@dataclass(frozen=True, slots=True)
class Component:
    """A component the add-on enables at ``order`` (``None``: a Scrapy component it
    switches off), and the settings that turn it off."""

    order: int | None
    #: Each a set of values that, together, turn the component off (it raises
    #: ``NotConfigured``); none: on whenever it is listed.
    off: tuple[dict[str, Any], ...] = ()


def _c(order: int | None, *off: dict[str, Any]) -> Component:
    return Component(order, off)


#: The crawl report's taps feed the report and the progress line: off when both are.
_NO_REPORT = {"WEBROBOT_REPORT_ENABLED": False, "WEBROBOT_PROGRESS_INTERVAL": 0}

#: Components the add-on enables, by Scrapy component setting: path -> order (None:
#: disabled) and the settings that turn it off (docs/reference/components.md lists them
#: in order; tests/test_component_order.py states why each order is what it is).
COMPONENTS: dict[str, dict[str, Component]] = {
    "DOWNLOADER_MIDDLEWARES": {
        # Scrapy's offsite filter knows hosts, not sites (ports); the scope middleware replaces it.
        "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": _c(None),
        # Addresses first: link-local, metadata, blocked and private networks (robots.txt too).
        "webrobot.urls.networkmiddleware.NetworkGuardMiddleware": _c(45, {"WEBROBOT_NETWORK_GUARD_ENABLED": False}),
        "webrobot.urls.scopemiddleware.SiteScopeMiddleware": _c(50, {"WEBROBOT_SCOPE_ENABLED": False}),
        "webrobot.urls.blocklistmiddleware.BlocklistMiddleware": _c(55, {"WEBROBOT_BLOCKLIST": []}),
        "webrobot.urls.trapmiddleware.UrlTrapMiddleware": _c(60, {"WEBROBOT_TRAPS_ENABLED": False}),
        # Scrapy's parses error pages as rules, allows all on errors, caches for ever.
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": _c(None),
        "webrobot.robots.middleware.RobotsMiddleware": _c(100, {"ROBOTSTXT_OBEY": False}),
        "webrobot.politeness.fromheader.FromHeaderMiddleware": _c(410, {"WEBROBOT_FROM": ""}),
        # Marks pages to render in the browser (off unless WEBROBOT_RENDER is set).
        "webrobot.render.middleware.RenderMiddleware": _c(850, {"WEBROBOT_RENDER": ""}),
        # Just outside Scrapy's HttpCacheMiddleware (900): counts new/changed/unchanged/not-due.
        "webrobot.frontier.freshnesstap.FreshnessTapMiddleware": _c(890, {"HTTPCACHE_ENABLED": False}, {"WEBROBOT_RECRAWL_INTERVAL": 0}),
        # After decompression (590), redirects (600) and retries (550): final bodies only.
        "webrobot.pages.metarobotsmiddleware.MetaRobotsMiddleware": _c(540, {"WEBROBOT_META_ROBOTS_ENABLED": False}),
        # Before Scrapy's decompression (590): a compressed robots.txt is decoded up to its parse limit.
        "webrobot.robots.fetch.RobotsBodyMiddleware": _c(595, {"ROBOTSTXT_OBEY": False}),
        # Before Scrapy's redirects (600): a Location that is not http(s) is refused, not followed.
        "webrobot.urls.networkmiddleware.RedirectSchemeMiddleware": _c(650),
        # After robots.txt (100) on the way out, before Scrapy's redirects (600) on the way back.
        "webrobot.urls.upgrademiddleware.UpgradeMiddleware": _c(620, {"WEBROBOT_UPGRADE_ENABLED": False}),
        # Near the download: sees every https response, redirects too.
        "webrobot.urls.tlsmiddleware.TlsProblemsMiddleware": _c(940),
        # Late: spend a page only when robots.txt, redirects and retries have decided.
        "webrobot.urls.budgetmiddleware.PageBudgetMiddleware": _c(800, {"WEBROBOT_MAX_PAGES_PER_SITE": 0}),
        # After the site budget: a page of a URL template counts when it is about to be fetched.
        "webrobot.urls.templatemiddleware.UrlTemplateMiddleware": _c(810, {"WEBROBOT_TRAPS_ENABLED": False}),
        # The crawl report's taps: first (left the scheduler) and last (download errors).
        "webrobot.report.taps.FrontierTapMiddleware": _c(1, _NO_REPORT),
        "webrobot.report.taps.DownloadErrorTapMiddleware": _c(990, _NO_REPORT),
        # Next to the downloader: every fetch as it came off the wire (WEBROBOT_WARC_DIR).
        "webrobot.archive.middleware.WarcArchiveMiddleware": _c(980, {"WEBROBOT_WARC_DIR": ""}),
        # After retries (550): a requisite's final answer is counted, its embeds queued,
        # and it goes no further (not a page: no item, no links).
        "webrobot.archive.requisitemiddleware.RequisiteDownloaderMiddleware": _c(535, {"WEBROBOT_WARC_DIR": ""}, {"WEBROBOT_REQUISITES_ENABLED": False}),
        # Next to the engine, before retries: what they did not fix has failed for good.
        "webrobot.report.failures.PageFailureMiddleware": _c(2),
    },
    "SPIDER_MIDDLEWARES": {
        # Outermost: frees each page's parse tree once its callback's output is consumed.
        "webrobot.pages.parsetree.ReleaseParseTreeMiddleware": _c(10),
        # Near the engine: sees 404s before HttpError drops them, and items once extracted
        # (WEBROBOT_MONITOR_DIR).
        "webrobot.monitor.middleware.MonitorMiddleware": _c(20, {"WEBROBOT_MONITOR_DIR": ""}),
        # Outside every link rule: an archived page's requisites are not links.
        "webrobot.archive.requisitemiddleware.RequisiteSpiderMiddleware": _c(5, {"WEBROBOT_WARC_DIR": ""}, {"WEBROBOT_REQUISITES_ENABLED": False}),
        # URL length is checked downloader-side (start requests and redirects too).
        "scrapy.spidermiddlewares.urllength.UrlLengthMiddleware": _c(None),
        # Same depth bookkeeping, but refusals are counted per site and reason.
        "scrapy.spidermiddlewares.depth.DepthMiddleware": _c(None),
        "webrobot.urls.depthmiddleware.DepthLimitMiddleware": _c(900),
        # Chains of one URL template, and the frontier's priorities.
        "webrobot.urls.templatemiddleware.TemplateChainMiddleware": _c(920, {"WEBROBOT_TRAPS_ENABLED": False}),
        "webrobot.frontier.prioritymiddleware.PriorityMiddleware": _c(930, {"WEBROBOT_PRIORITIES_ENABLED": False}),
        # After Scrapy's HttpErrorMiddleware (50): a file that is not a page never reaches a
        # callback that expects one (counted as webrobot/page/non_html).
        "webrobot.pages.nontext.NonTextMiddleware": _c(55, {"WEBROBOT_NON_HTML_ITEMS": True}),
        # After it, before any callback: a page that ends its document before its body
        # (</head></html><body>) is read whole by every reader of response.selector.
        "webrobot.pages.wholepage.WholePageMiddleware": _c(58),
        # Scope, traps, blocklist, file extensions and the per-page cap, before any scheduler work.
        "webrobot.urls.linkgate.LinkGateMiddleware": _c(950),
        # Sees the raw links of the duplicates middleware's pages: drops them for duplicates.
        "webrobot.seen.dupepages.DuplicatePageMiddleware": _c(960, {"WEBROBOT_DUPES_ENABLED": False}),
        # Closest of all to the spider, while the crawl's parse is alive: what pages say,
        # into their items (WEBROBOT_EXTRACT); a noindex page is left to the next one.
        "webrobot.extract.middleware.ExtractMiddleware": _c(975, {"WEBROBOT_EXTRACT": []}),
        # Closest to the spider: a noindex page's items and a nofollow page's requests go first.
        "webrobot.pages.metarobotsspidermiddleware.MetaRobotsSpiderMiddleware": _c(970, {"WEBROBOT_META_ROBOTS_ENABLED": False}),
        # Before the link gate and the duplicate filter: they see the https form of a link.
        "webrobot.urls.upgrademiddleware.UpgradeLinksMiddleware": _c(965, {"WEBROBOT_UPGRADE_ENABLED": False}),
    },
    "ITEM_PIPELINES": {
        "webrobot.seen.pipelines.DuplicateContentPipeline": _c(300, {"WEBROBOT_DUPES_ENABLED": False}),
        # Last: with the crash-safe frontier, no URL gets a second item, in this run or a later one.
        "webrobot.seen.pipelines.OneItemPerUrlPipeline": _c(1000, {"JOBDIR": None}, {"WEBROBOT_FRONTIER": "memory"}),
    },
    "EXTENSIONS": {
        # Stops downloads whose headers say they are not pages (or too big).
        "webrobot.pages.contenttypegate.ContentTypeGate": _c(100, {"WEBROBOT_STOP_UNWANTED_DOWNLOADS": False}),
        # With documents in WEBROBOT_EXTRACT: links to PDFs followed, PDFs downloaded whole.
        "webrobot.extract.documentintake.DocumentIntake": _c(100, {"WEBROBOT_EXTRACT": []}),
        "webrobot.report.statsfile.StatsFile": _c(900, {"WEBROBOT_STATS_FILE": ""}),
        # Fewer, cheaper cycle collections (WEBROBOT_GC_THRESHOLD, WEBROBOT_GC_FREEZE).
        "webrobot.resources.gctuning.GarbageCollectorTuning": _c(0, {"WEBROBOT_GC_THRESHOLD": 0, "WEBROBOT_GC_FREEZE": False}),
        "webrobot.report.progress.Progress": _c(500, {"WEBROBOT_PROGRESS_INTERVAL": 0}),
        # First: the libraries' warnings are counted from the first component built on.
        "webrobot.report.librarywarnings.LibraryWarnings": _c(0, {"WEBROBOT_QUIET_LIBRARY_WARNINGS": False}),
        "webrobot.report.extension.CrawlReport": _c(850, {"WEBROBOT_REPORT_ENABLED": False}),
        # /metrics and the live status page (WEBROBOT_METRICS_PORT).
        "webrobot.report.metrics.MetricsServer": _c(860, {"WEBROBOT_METRICS_PORT": ""}),
        "webrobot.sitemaps.robotssitemaps.RobotsSitemaps": _c(600, {"WEBROBOT_SITEMAPS_ENABLED": False}),
        "webrobot.politeness.identitycheck.IdentityCheck": _c(100),
        # The full-text index of the crawled pages (WEBROBOT_INDEX_ENABLED).
        "webrobot.search.extension.FullTextIndex": _c(800, {"WEBROBOT_INDEX_ENABLED": False}),
        # Pauses the crawl before a folder it writes is full (WEBROBOT_DISK_MIN_FREE_MB).
        "webrobot.resources.diskguard.DiskGuard": _c(50, {"WEBROBOT_DISK_GUARD_ENABLED": False}),
        # Scrapy's feed exporter and spider state, with a full disk closing the crawl cleanly.
        "scrapy.extensions.feedexport.FeedExporter": _c(None),
        "webrobot.job.feeds.FeedExporter": _c(0, {"FEEDS": {}}),
        "scrapy.extensions.spiderstate.SpiderState": _c(None),
        "webrobot.job.spiderstate.SpiderState": _c(0, {"JOBDIR": None}),
        "scrapy.extensions.memusage.MemoryUsage": _c(None),
        "webrobot.resources.memory.MemoryGuard": _c(0, {"MEMUSAGE_ENABLED": False}),
    },
}  # fmt: skip


#: Scrapy components the add-on switches off (``None`` in :data:`COMPONENTS`), and why.
REPLACED: dict[str, str] = {
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware":
        "Knows hosts, not sites (ports); webrobot's scope also judges links before they are "
        "scheduled (webrobot.urls.scopemiddleware, webrobot.urls.linkgate).",
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware":
        "Parses error pages as rules, allows everything on errors and caches for ever "
        "(webrobot.robots.middleware).",
    "scrapy.spidermiddlewares.urllength.UrlLengthMiddleware":
        "Sees links only; webrobot checks the length of start URLs and redirects too "
        "(webrobot.urls.trapmiddleware).",
    "scrapy.spidermiddlewares.depth.DepthMiddleware":
        "The same depth bookkeeping, with refusals counted per site and reason "
        "(webrobot.urls.depthmiddleware).",
    "scrapy.extensions.feedexport.FeedExporter":
        "The same feeds, with a full disk closing the crawl cleanly (webrobot.job.feeds).",
    "scrapy.extensions.spiderstate.SpiderState":
        "The same spider state, with a full disk closing the crawl cleanly "
        "(webrobot.job.spiderstate).",
    "scrapy.extensions.memusage.MemoryUsage":
        "The same MEMUSAGE_* limits, closing the crawl cleanly (webrobot.resources.memory).",
}  # fmt: skip
