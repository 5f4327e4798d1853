"""robots.txt parsers: RFC 9309 (on protego) and the 1996 draft's first match.

Both are Scrapy ``RobotParser`` classes (``from_crawler(crawler, body)``,
``allowed(url, user_agent)``, ``crawl_delay(user_agent)``), so any Scrapy
project can name either in ``ROBOTSTXT_PARSER``. The logic lives in the pure
classes :class:`Rfc9309Rules` and :class:`FirstMatchRules`.

RFC 9309 through protego 0.7
----------------------------
protego reads the directives (leniently: ``User agent``, ``Disallow /x``
without a colon, common misspellings), normalises percent-encoding, and
matches ``*`` and ``$`` patterns; we use those parts of it. It deviates from
RFC 9309 in how it picks the group and builds the rules, so
:class:`Rfc9309Rules` does that part itself (each case is in
``tests/robots_cases_rfc9309.py``):

1. ``User-agent: web`` applies to ``webrobot`` in protego (prefix at a token
   boundary); RFC 9309 2.2.1 matches the product token, so it does not.
2. ``User-agent: webrobot/1.0`` does not apply to ``webrobot`` in protego; the
   product token of that line is ``webrobot``, so it does.
3. ``User-agent: web*`` applies in protego (it drops the ``*``); RFC 9309 has
   no wildcards in user-agent lines.
4. protego picks one group by score, so a one-letter product token ties with
   ``*`` and may lose to it; a specific group always wins here.
5. Groups for one agent spelled differently (``webrobot``, ``WebRobot/2``) are
   merged (RFC 9309 2.2.1), as protego only merges identical spellings.
6. ``Allow: /x/index.html`` also allows ``/x/`` in protego (Google's
   extension); RFC 9309 has no such rule.
7. ``Disallow: /a$`` also disallows ``/a$b`` in protego (it adds a rule with
   a literal ``$``); in RFC 9309 a trailing ``$`` only anchors.
8. A line that is not a rule (``Foo: bar``, ``Crawl-delay``) between
   ``User-agent`` lines splits the group in protego; in RFC 9309 only
   ``Allow``/``Disallow`` lines end a run of ``User-agent`` lines.

Bodies are read into text by :mod:`webrobot.robots.decoding` (never fails,
reports what was odd). User-Agent strings are matched by their crawler's
product token (:func:`crawler_token`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from protego import Protego
from scrapy.robotstxt import RobotParser
from scrapy.utils.python import to_unicode

# protego's directive reader, normaliser and matcher, private to protego:
# behind webrobot.compat, which says why and is tested.
from webrobot.compat import ALLOW_DIRECTIVE as _ALLOW_DIRECTIVE
from webrobot.compat import CRAWL_DELAY_DIRECTIVE as _CRAWL_DELAY_DIRECTIVE
from webrobot.compat import DISALLOW_DIRECTIVE as _DISALLOW_DIRECTIVE
from webrobot.compat import REQUEST_RATE_DIRECTIVE as _REQUEST_RATE_DIRECTIVE
from webrobot.compat import SITEMAP_DIRECTIVE as _SITEMAP_DIRECTIVE
from webrobot.compat import USER_AGENT_DIRECTIVE as _USER_AGENT_DIRECTIVE
from webrobot.compat import URLPattern as _URLPattern
from webrobot.compat import extract_directive as _extract_directive
from webrobot.compat import quote_path as _quote_path
from webrobot.compat import quote_pattern as _quote_pattern
from webrobot.robots.decoding import DEFAULT_PARSE_LIMIT, EOL, decode_robots_body
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

#: User-Agent strings whose group is remembered per parser (beyond: looked up each time).
_SELECTIONS_REMEMBERED = 64

_PRODUCT_TOKEN = re.compile(r"[A-Za-z_-]+")


_COMPATIBLE = re.compile(r"\(\s*compatible\s*;\s*([A-Za-z_-]+)", re.IGNORECASE)


def crawler_token(user_agent: str) -> str:
    """The product token a crawler's User-Agent names it by, lower case.

    ``'ExampleBot/0.1 (+https://x)'`` -> ``'examplebot'``; in the browser-style
    strings crawlers send, the first product after ``compatible;``:
    ``'Mozilla/5.0 (compatible; ExampleBot/0.1; +https://x)'`` ->
    ``'examplebot'`` (how Scrapy's own robots.txt parsers read
    ``USER_AGENT`` when ``ROBOTSTXT_USER_AGENT`` is not set).
    """
    match = _COMPATIBLE.search(user_agent)
    if match:
        return match.group(1).lower()
    return product_token(user_agent)


def product_token(user_agent: str) -> str:
    """The product token of a robot name or User-Agent, lower case:
    ``'WebRobot/1.0 (+https://x)'`` -> ``'webrobot'`` (RFC 9309 2.2.1)."""
    match = _PRODUCT_TOKEN.match(user_agent.strip())
    return match.group(0).lower() if match else ""


def _agent_key(value: str) -> str:
    """A user-agent line's value as matched: ``'*'``, a product token, or ``''``
    (matches nobody: ``*bot``, ``/1.0``, empty)."""
    value = value.strip()
    if value == "*" or (value.startswith("*") and value[1:2].isspace()):
        return "*"
    if value.startswith("*"):
        return ""
    return product_token(value)


def _lines(text: str) -> list[str]:
    return EOL.split(text)


# --- RFC 9309 ----------------------------------------------------------------


@dataclass
class _Group:
    agents: list[str] = field(default_factory=list)
    rules: list[tuple[bool, str]] = field(default_factory=list)  # (allow?, pattern)
    crawl_delays: list[str] = field(default_factory=list)
    request_rates: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Rule:
    allow: bool
    length: int
    pattern: _URLPattern
    source: str


@dataclass
class _Selected:
    name: str  # the group's agent as chosen ("webrobot", "*", or "" for none)
    rules: list[_Rule]
    crawl_delay: float | None
    request_rate: tuple[int, float] | None


class Rfc9309Rules:
    """A robots.txt file read per RFC 9309 (pure: no Scrapy)."""

    def __init__(self, text: str) -> None:
        self.groups: list[_Group] = []
        self.sitemaps: list[str] = []
        self.invalid_lines = 0
        self._selected: dict[str, _Selected] = {}
        self._parse(text)

    def _parse(self, text: str) -> None:
        group: _Group | None = None
        in_agents = False  # reading the User-agent lines that start a group
        for raw in _lines(text):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parsed = _extract_directive(line)
            if parsed is None:
                self.invalid_lines += 1
                continue
            name, value = parsed
            if name in _USER_AGENT_DIRECTIVE:
                if group is None or not in_agents:
                    group = _Group()
                    self.groups.append(group)
                    in_agents = True
                group.agents.append(_agent_key(value))
            elif name in _ALLOW_DIRECTIVE or name in _DISALLOW_DIRECTIVE:
                if group is None:
                    self.invalid_lines += 1  # a rule before any User-agent line
                    continue
                in_agents = False
                if value:  # an empty rule matches nothing
                    group.rules.append((name in _ALLOW_DIRECTIVE, value))
            elif name in _CRAWL_DELAY_DIRECTIVE:
                if group is not None:
                    group.crawl_delays.append(value)
            elif name in _REQUEST_RATE_DIRECTIVE:
                if group is not None:
                    group.request_rates.append(value)
            elif name in _SITEMAP_DIRECTIVE:
                if value:
                    self.sitemaps.append(value)
            else:
                self.invalid_lines += 1  # unknown: ignored, does not end a group

    def select(self, user_agent: str) -> _Selected:
        """The merged rules of every group naming this product token, else of
        every ``*`` group, else none (RFC 9309 2.2.1)."""
        selected = self._selected.get(user_agent)  # asked once per URL: no regex then
        if selected is not None:
            return selected
        token = crawler_token(user_agent)
        selected = self._selected.get(token)
        if selected is not None:
            if len(self._selected) < _SELECTIONS_REMEMBERED:
                self._selected[user_agent] = selected
            return selected
        groups = [g for g in self.groups if token and token in g.agents]
        name = token
        if not groups:
            groups = [g for g in self.groups if "*" in g.agents]
            name = "*" if groups else ""
        rules: list[_Rule] = []
        for group in groups:
            for allow, value in group.rules:
                quoted = _quote_pattern(value)
                if quoted:
                    rules.append(_Rule(allow, len(quoted), _URLPattern(quoted), value))
        # Longest pattern first; on a tie, Allow first (RFC 9309 2.2.2).
        rules.sort(key=lambda r: (r.length, r.allow), reverse=True)
        delays = [_crawl_delay(v) for g in groups for v in g.crawl_delays]
        rates = [_request_rate(v) for g in groups for v in g.request_rates]
        known_delays = [d for d in delays if d is not None]
        known_rates = [r for r in rates if r is not None]
        selected = _Selected(
            name=name,
            rules=rules,
            crawl_delay=max(known_delays) if known_delays else None,
            # the slowest rate asked for: most seconds per request
            request_rate=max(known_rates, key=lambda r: r[1] / r[0]) if known_rates else None,
        )
        self._selected[token] = selected
        if len(self._selected) < _SELECTIONS_REMEMBERED:  # a rotating User-Agent cannot grow it
            self._selected[user_agent] = selected
        return selected

    def allowed(self, url: str, user_agent: str) -> bool:
        if "/robots.txt" in url and urlsplit(url).path == "/robots.txt":
            return True  # implicitly allowed (RFC 9309 2.2.2)
        rules = self.select(user_agent).rules
        if not rules:
            return True
        path = _quote_path(url)
        for rule in rules:
            if rule.pattern.match(path):
                return rule.allow
        return True

    def crawl_delay(self, user_agent: str) -> float | None:
        return self.select(user_agent).crawl_delay

    def request_rate(self, user_agent: str) -> tuple[int, float] | None:
        return self.select(user_agent).request_rate

    def summary(self, user_agent: str) -> str:
        selected = self.select(user_agent)
        if not self.groups:
            return "no rules"
        if not selected.name:
            return f"{len(self.groups)} groups, none for {crawler_token(user_agent) or '?'}"
        allows = sum(1 for r in selected.rules if r.allow)
        return f"group {selected.name!r}: {len(selected.rules) - allows} disallow, {allows} allow"


def _crawl_delay(value: str) -> float | None:
    delay = Protego.parse(f"User-agent: *\nCrawl-delay: {value}\n").crawl_delay("*")
    if delay is None or not math.isfinite(delay) or delay < 0:
        return None
    return float(delay)


def _request_rate(value: str) -> tuple[int, float] | None:
    rate = Protego.parse(f"User-agent: *\nRequest-rate: {value}\n").request_rate("*")
    if rate is None:
        return None
    return rate.requests, float(rate.seconds)


# --- The 1996 draft: first match ----------------------------------------------


@dataclass
class _Record:
    agents: list[str] = field(default_factory=list)
    rules: list[tuple[bool, bytes]] = field(default_factory=list)
    has_rules: bool = False
    crawl_delay: float | None = None


def _draft_normalise(path: str) -> bytes:
    """Decode ``%XX`` escapes except ``%2F``, which stays (upper case) so that
    it only matches itself; compare as bytes, so case-sensitive."""
    data = path.encode("utf-8", errors="surrogateescape")
    if b"%" not in data:
        return data
    return _DRAFT_ESCAPE.sub(_draft_unescape, data)


_DRAFT_ESCAPE = re.compile(rb"%([0-9A-Fa-f]{2})")


def _draft_unescape(match: re.Match[bytes]) -> bytes:
    byte = int(match.group(1), 16)
    return b"%2F" if byte == 0x2F else bytes((byte,))


class FirstMatchRules:
    """A robots.txt read as the 1996 draft ("A Method for Web Robots Control")
    and "HTTP: The Definitive Guide" chapter 9 teach it (pure: no Scrapy).

    Records are separated by blank lines (a comment-only line is not blank);
    a ``User-agent`` line after rule lines also starts a record. The robot
    obeys the first record whose ``User-agent`` value (version dropped) is a
    case-insensitive substring of its name, else the first ``*`` record;
    within it the first ``Allow``/``Disallow`` whose path is a prefix of the
    URL's path (and query) wins. ``*`` is an ordinary character.
    """

    def __init__(self, text: str) -> None:
        self.records: list[_Record] = []
        self.invalid_lines = 0
        self._parse(text)

    def _parse(self, text: str) -> None:
        record: _Record | None = None
        for raw in _lines(text):
            if not raw.strip():
                record = None  # a blank line ends a record
                continue
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue  # comment-only lines are not record boundaries
            name, colon, value = line.partition(":")
            if not colon:
                self.invalid_lines += 1
                continue
            name = name.strip().lower()
            value = value.strip()
            if name == "user-agent":
                if record is None or record.has_rules:
                    record = _Record()
                    self.records.append(record)
                if value:
                    record.agents.append(value.lower())
            elif name in ("allow", "disallow"):
                if record is None:
                    self.invalid_lines += 1
                    continue
                record.has_rules = True
                if value:  # an empty value matches nothing
                    record.rules.append((name == "allow", _draft_normalise(value)))
            elif name == "crawl-delay" and record is not None and record.crawl_delay is None:
                record.crawl_delay = _crawl_delay(value)
            # any other field is ignored

    def select(self, user_agent: str) -> tuple[str, _Record] | None:
        """The record that applies and the User-agent value that chose it."""
        name = user_agent.strip().lower()
        for record in self.records:
            for agent in record.agents:
                token = agent.split("/", 1)[0].strip()
                if token and token != "*" and token in name:
                    return agent, record
        for record in self.records:
            if "*" in record.agents:
                return "*", record
        return None

    def allowed(self, url: str, user_agent: str) -> bool:
        parts = urlsplit(url)
        if parts.path == "/robots.txt":
            return True
        chosen = self.select(user_agent)
        if chosen is None:
            return True
        record = chosen[1]
        path = _draft_normalise((parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        for allow, prefix in record.rules:
            if path.startswith(prefix):
                return allow
        return True

    def crawl_delay(self, user_agent: str) -> float | None:
        chosen = self.select(user_agent)
        return chosen[1].crawl_delay if chosen else None

    def summary(self, user_agent: str) -> str:
        chosen = self.select(user_agent)
        if chosen is None:
            return f"{len(self.records)} records, none for {user_agent}"
        agent, record = chosen
        allows = sum(1 for allow, _ in record.rules if allow)
        return (
            f"record {agent!r}: {len(record.rules) - allows} disallow, {allows} allow (first match)"
        )


# --- Scrapy RobotParser classes ------------------------------------------------


def _parse_limit(crawler: Crawler | None) -> int:
    if crawler is None:
        return DEFAULT_PARSE_LIMIT
    return read(crawler.settings, "WEBROBOT_ROBOTS_PARSE_LIMIT")


class Rfc9309RobotParser(RobotParser):
    """``ROBOTSTXT_PARSER = "webrobot.robots.parsers.Rfc9309RobotParser"``."""

    rules_class: type[Rfc9309Rules | FirstMatchRules] = Rfc9309Rules

    def __init__(self, robotstxt_body: bytes, limit: int = DEFAULT_PARSE_LIMIT) -> None:
        text, self.problems = decode_robots_body(robotstxt_body, limit)
        self.rules = self.rules_class(text)
        self.invalid_lines = self.rules.invalid_lines

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> Self:
        return cls(robotstxt_body, _parse_limit(crawler))

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        if isinstance(url, str) and isinstance(user_agent, str):  # the usual case, asked per URL
            return self.rules.allowed(url, user_agent)
        return self.rules.allowed(to_unicode(url), to_unicode(user_agent))

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        return self.rules.crawl_delay(to_unicode(user_agent))

    def request_rate(self, user_agent: str | bytes) -> tuple[int, float] | None:
        rules = self.rules
        if isinstance(rules, Rfc9309Rules):
            return rules.request_rate(to_unicode(user_agent))
        return None

    def summary(self, user_agent: str | bytes) -> str:
        return self.rules.summary(to_unicode(user_agent))


class FirstMatchRobotParser(Rfc9309RobotParser):
    """``ROBOTSTXT_PARSER = "webrobot.robots.parsers.FirstMatchRobotParser"``,
    or ``WEBROBOT_ROBOTS_MATCHING = "first-match"``."""

    rules_class = FirstMatchRules
