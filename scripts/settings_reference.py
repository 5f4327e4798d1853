"""Write docs/reference/settings.md from webrobot/settings.py.

Every top-level assignment is a setting; its meaning is the ``#:`` comment above
it, else the comment at the end of its line, else a note below (Scrapy's own
settings, whose meaning is Scrapy's). Sections follow the ``# --- Name ---``
lines of settings.py. Run: ``python scripts/settings_reference.py [OUT]``.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "webrobot" / "settings.py"
OUT = ROOT / "docs" / "reference" / "settings.md"

#: Meanings of settings that carry no comment in settings.py.
NOTES = {
    "BOT_NAME": "Scrapy's project name",
    "SPIDER_MODULES": "where the spiders are",
    "NEWSPIDER_MODULE": "where `scrapy genspider` puts a new spider",
    "SPIDER_LOADER_CLASS": "makes one spider per site config",
    "COMMANDS_MODULE": "webrobot's commands (`crawl` with one-line errors, `webrobot-seed`, `webrobot-export`)",
    "USER_AGENT": "identification sent with every request",
    "DEFAULT_REQUEST_HEADERS": "`Accept` preferring HTML, `Accept-Language`",
    "DEPTH_PRIORITY": "with the FIFO queues below: breadth-first order",
    "SCHEDULER_DISK_QUEUE": "FIFO: breadth-first order (Scrapy's scheduler only)",
    "SCHEDULER_MEMORY_QUEUE": "FIFO: breadth-first order (Scrapy's scheduler only)",
    "DEPTH_LIMIT": "deepest link distance requested (0: none); refusals counted as `depth`",
    "ROBOTSTXT_OBEY": "obey robots.txt (see robots.txt)",
    "CONCURRENT_REQUESTS": "requests in flight across all sites",
    "DOWNLOAD_DELAY": "seconds between request starts to one site",
    "AUTOTHROTTLE_ENABLED": "adapt the delay to the site's response times",
    "AUTOTHROTTLE_START_DELAY": "AutoThrottle's first delay, seconds",
    "AUTOTHROTTLE_MAX_DELAY": "AutoThrottle's longest delay, seconds",
    "AUTOTHROTTLE_TARGET_CONCURRENCY": "AutoThrottle's target: one request in flight per site",
    "DNSCACHE_ENABLED": "cache DNS answers",
    "DOWNLOAD_TIMEOUT": "seconds",
    "RETRY_ENABLED": "retry failed requests",
    "RETRY_TIMES": "retries for the codes below and for network errors",
    "RETRY_HTTP_CODES": "statuses retried",
    "TELNETCONSOLE_ENABLED": "no telnet port opened by a crawler",
    "DOWNLOAD_MAXSIZE": "largest body downloaded, bytes",
    "DOWNLOAD_WARNSIZE": "bodies above this size are logged, bytes",
    "REDIRECT_MAX_TIMES": "redirect hops followed for a page",
    "LOGSTATS_INTERVAL": "seconds between Scrapy's pages/items-per-minute lines",
    "DOWNLOADER": "per-site slots (scheme + host + port), strict per-site concurrency",
    "ROBOTSTXT_PARSER": "the parser in `rfc9309` mode (any Scrapy `RobotParser`)",
    "WEBROBOT_ROBOTS_MAX_REDIRECTS": "redirect hops followed for robots.txt; more, or a loop: unavailable",
    "WEBROBOT_ROBOTS_CACHE_CLASS": "where robots.txt decisions are kept",
    "DUPEFILTER_CLASS": "the visited-URL store",
    "WEBROBOT_SEEN_ERROR_RATE": "a Bloom store's false-positive rate at capacity",
    "WEBROBOT_SCOPE_ENABLED": "refuse requests outside the start sites / allowed domains",
    "WEBROBOT_TRAPS_ENABLED": "the URL trap checks (length, segments, downloader-side depth)",
    "ADDONS": "`RedisCrawl` switches to a shared crawl when `WEBROBOT_REDIS_URL` is set; "
              "`CrashSafeJob` sends requests held for robots.txt through the crash-safe frontier",
    "FEED_EXPORT_ENCODING": "feeds written as UTF-8",
    "DOWNLOADER_MIDDLEWARES": "scope, blocklist, traps, robots.txt, `From` header, meta robots, page budget, report taps, "
                              "failed pages",
    "SPIDER_MIDDLEWARES": "parse-tree release, depth limit, duplicate pages' links",
    "ITEM_PIPELINES": "duplicate content; one item per URL (crash-safe frontier)",
    "EXTENSIONS": "stats file, progress line, crawl report",
}


def _comments(source: str) -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """Doc comments (``#:``) by line, end-of-line comments by line, section titles by line."""
    doc, trailing, sections = {}, {}, {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        line, text = tok.start[0], tok.string
        section = re.match(r"#\s*---\s*(.+?)\s*-*$", text)
        if section:
            sections[line] = re.sub(r"\s*\([^)]*README[^)]*\)", "", section.group(1))
        elif text.startswith("#:"):
            doc[line] = text[2:].strip()
        elif tok.start[1] > 0:
            trailing[line] = text[1:].strip()
    return doc, trailing, sections


def _default(node: ast.expr, source: str) -> str:
    text = ast.get_source_segment(source, node) or ""
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def settings_table(source: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    doc, trailing, sections = _comments(source)
    tree = ast.parse(source)
    out: list[tuple[str, list[tuple[str, str, str]]]] = [("Project", [])]
    section_lines = sorted(sections)
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
            name, value = stmt.target.id, stmt.value
        else:
            continue
        if not name.isupper():
            continue
        while section_lines and section_lines[0] < stmt.lineno:
            out.append((sections[section_lines.pop(0)], []))
        lines, line = [], stmt.lineno - 1
        while line in doc:
            lines.insert(0, doc[line])
            line -= 1
        meaning = " ".join(lines) or trailing.get(stmt.lineno) or NOTES.get(name, "")
        meaning = meaning.replace(" (see README)", "")
        out[-1][1].append((name, _default(value, source), meaning))
    return [(title, rows) for title, rows in out if rows]


def _cell(text: str) -> str:
    """Escape table bars, and ``<`` outside code spans (Markdown would read it as HTML)."""
    parts = text.replace("|", "\\|").split("`")
    return "`".join(p if i % 2 else p.replace("<", "\\<") for i, p in enumerate(parts))


def render(source: str) -> str:
    parts = [
        "# Settings",
        "",
        "Every default, as `webrobot/settings.py` sets it. Scrapy's settings keep their names and",
        "meaning; webrobot's own start with `WEBROBOT_`. A site config's keys and `settings` table",
        "override these with spider priority; `-s NAME=VALUE` and Scrapyd's `setting=` override",
        "both, and are read with typed getters (text is checked against the default's type).",
        "",
        "<!-- Generated by scripts/settings_reference.py from webrobot/settings.py. -->",
    ]
    for title, rows in settings_table(source):
        parts += ["", f"## {title}", "", "| setting | default | meaning |", "| --- | --- | --- |"]
        for name, default, meaning in rows:
            parts.append(f"| `{name}` | `{_cell(default)}` | {_cell(meaning)} |")
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    out.write_text(render(SETTINGS.read_text("utf-8")), "utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
