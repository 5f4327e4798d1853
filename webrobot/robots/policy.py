"""What a robots.txt answer means for a site, and for how long. Pure logic.

No Scrapy and no I/O: the robots middleware feeds in statuses, headers and
clocks, and unit tests call these functions directly.

* :func:`classify_status` maps an HTTP status to an outcome (the status table
  of the README).
* :func:`freshness_lifetime` and :func:`expires_at` decide how long a decision
  is cached, from ``Cache-Control: max-age`` / ``Expires``, capped by the TTL.
* :func:`parse_retry_after` and :func:`backoff_delay` make the retry schedule
  of a deferred site; :class:`Deferral` counts its attempts and says when to
  give up.
* :class:`RobotsDecision` is the one cached decision per site.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Callable

#: 2xx: the body is parsed and obeyed.
RULES = "rules"
#: 404, 410, other 4xx, a redirect chain too long or looping: no restrictions
#: (RFC 9309 2.3.1.3, "unavailable").
UNAVAILABLE = "unavailable"
#: 401/403 under ``WEBROBOT_ROBOTS_AUTH_POLICY = "disallow"``: nothing allowed.
FORBIDDEN = "forbidden"
#: Deferred longer than ``WEBROBOT_ROBOTS_DEFER_MAX``: nothing allowed
#: (RFC 9309 2.3.1.4, "unreachable").
UNREACHABLE = "unreachable"
#: Transient outcomes, never cached: follow the redirect / hold the site and retry.
REDIRECT = "redirect"
DEFER = "defer"

FINAL_OUTCOMES = (RULES, UNAVAILABLE, FORBIDDEN, UNREACHABLE)
AUTH_POLICIES = ("disallow", "allow")


def classify_status(status: int, auth_policy: str = "disallow") -> str:
    """The outcome of a robots.txt response with this status."""
    if 200 <= status < 300:
        return RULES
    if 300 <= status < 400:
        return REDIRECT
    if status in (401, 403):
        return FORBIDDEN if auth_policy == "disallow" else UNAVAILABLE
    if status == 429:
        return DEFER
    if 400 <= status < 500:
        return UNAVAILABLE
    # 5xx, and anything a server should not answer (1xx, >= 600): unreachable for now.
    return DEFER


# --- Expiry ----------------------------------------------------------------

_MAX_AGE = re.compile(r'(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)', re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-cache|no-store)\s*(?:,|$)", re.IGNORECASE)


def parse_http_date(value: str | None) -> float | None:
    """An HTTP date (RFC 9110 5.6.7, any of the three formats) as a Unix time."""
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed is None:
        return None
    try:
        return parsed.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


def freshness_lifetime(
    cache_control: str | None, expires: str | None, date: str | None, now: float
) -> float | None:
    """Seconds the server says the response stays fresh, or None if it says nothing.

    ``Cache-Control: max-age`` wins over ``Expires`` (RFC 9111 5.3);
    ``no-cache``/``no-store`` mean 0; an ``Expires`` that is not a valid date
    (``0``, ``-1``) means already expired. ``Expires`` counts from the
    response's ``Date`` when there is one, so clock skew does not matter.
    """
    if cache_control:
        match = _MAX_AGE.search(cache_control)
        if match:
            return float(match.group(1))
        if _NO_CACHE.search(cache_control):
            return 0.0
    if expires is not None:
        when = parse_http_date(expires)
        if when is None:
            return 0.0
        base = parse_http_date(date)
        return max(0.0, when - (base if base is not None else now))
    return None


def expires_at(now: float, lifetime: float | None, ttl: float, min_ttl: float = 0.0) -> float:
    """When a decision fetched at ``now`` expires.

    The server's ``lifetime`` is obeyed when shorter than ``ttl`` (0: no cap),
    but never below ``min_ttl`` (so ``max-age=0`` does not mean one robots.txt
    fetch per page). Without a lifetime, ``ttl`` applies.
    """
    cap = ttl if ttl > 0 else math.inf
    life = cap if lifetime is None else min(lifetime, cap)
    life = max(life, min(min_ttl, cap))
    return now + life


# --- Retries -----------------------------------------------------------------


def parse_retry_after(value: str | None, now: float) -> float | None:
    """``Retry-After`` (delay-seconds or an HTTP date) as seconds from ``now``."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    when = parse_http_date(value)
    if when is None:
        return None
    return max(0.0, when - now)


def backoff_delay(attempt: int, base: float, cap: float, retry_after: float | None = None) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1, 2, ...).

    A ``Retry-After`` from the server is obeyed as it is; otherwise the wait
    doubles from ``base``. Both are capped by ``cap`` (0: no cap). A
    ``Retry-After`` of 0 (or a date already past) does not mean "at once":
    that would re-fetch in a tight loop, so the doubling wait applies.
    """
    if retry_after is not None and retry_after > 0:
        delay = retry_after
    else:
        delay = base * 2.0 ** min(max(attempt - 1, 0), 62)
    return min(delay, cap) if cap > 0 else delay


@dataclass
class Deferral:
    """The failed robots.txt attempts of one site, on a monotonic clock."""

    first_failure: float
    attempts: int = 0

    def failed(
        self,
        now: float,
        *,
        base: float,
        cap: float,
        defer_max: float,
        retry_after: float | None = None,
    ) -> float | None:
        """Record one more failed attempt.

        Returns the seconds until the next attempt, or None when the site has
        been deferred for ``defer_max`` seconds (0: no limit) and counts as
        unreachable. The last retry is timed to happen at ``defer_max``.
        """
        self.attempts += 1
        elapsed = now - self.first_failure
        if defer_max > 0 and elapsed >= defer_max:
            return None
        delay = backoff_delay(self.attempts, base, cap, retry_after)
        if defer_max > 0:
            delay = min(delay, defer_max - elapsed)
        return max(0.0, delay)

    def elapsed(self, now: float) -> float:
        return now - self.first_failure


# --- Crawl-delay -------------------------------------------------------------


@dataclass(frozen=True)
class CrawlDelay:
    """The interval between request starts that robots.txt asks for."""

    seconds: float
    source: str  # "crawl_delay" or "request_rate"
    declared: float  # before the cap
    capped: bool


def effective_crawl_delay(
    crawl_delay: float | None,
    request_rate: tuple[int, float] | None,
    cap: float,
) -> CrawlDelay | None:
    """The larger of ``Crawl-delay`` and ``Request-rate`` (requests per seconds)
    as one interval, capped by ``cap`` (0: no cap). None when neither is set."""
    candidates: list[tuple[float, str]] = []
    if crawl_delay is not None and math.isfinite(crawl_delay) and crawl_delay > 0:
        candidates.append((float(crawl_delay), "crawl_delay"))
    if request_rate is not None:
        requests, seconds = request_rate
        if requests > 0 and seconds > 0:
            candidates.append((float(seconds) / float(requests), "request_rate"))
    if not candidates:
        return None
    declared, source = max(candidates)
    if cap > 0 and declared > cap:
        return CrawlDelay(cap, source, declared, True)
    return CrawlDelay(declared, source, declared, False)


# --- The cached decision -----------------------------------------------------


@dataclass
class RobotsDecision:
    """What a site's robots.txt decided, until when. One per site, cached.

    Times are Unix times (``time.time()``), so a cache shared between
    processes can store them. ``body`` is the parsed part of a 2xx body: a
    cache that serialises decisions stores it and the middleware rebuilds
    ``parser`` from it (``parser`` is never serialised).
    """

    site: str
    outcome: str
    status: int | None
    fetched_at: float
    expires_at: float
    url: str = ""
    body: bytes = b""
    crawl_delay: float | None = None
    crawl_delay_source: str | None = None
    summary: str = ""
    reason: str = ""
    #: The host was given up as dead (its kind: :mod:`webrobot.urls.deadpolicy`): the
    #: crawl's record of dead hosts says so, once for all of them; the decision is not.
    dead: str | None = None
    parser: Any = field(default=None, repr=False, compare=False)

    def fresh(self, now: float) -> bool:
        return now < self.expires_at

    @property
    def allows_everything(self) -> bool:
        return self.outcome == UNAVAILABLE

    @property
    def refuses_everything(self) -> bool:
        return self.outcome in (FORBIDDEN, UNREACHABLE)

    def usable_stale(self, now: float, stale_max: float) -> bool:
        """May these rules stand in while a re-fetch fails (RFC 9309 2.4)?

        Only a decision the site itself gave (not "unreachable"), for
        ``stale_max`` seconds after it expired (0: no limit).
        """
        if self.outcome == UNREACHABLE:
            return False
        return stale_max <= 0 or now < self.expires_at + stale_max


# --- Refusing a URL ------------------------------------------------------------

#: Refusal reasons (what the log, the ``request_refused`` signal and the report say).
REFUSED_FORBIDDEN = "robots_txt"
REFUSED_GAVE_UP = "robots_unreachable"


def refusal(decision: RobotsDecision, allowed: Callable[[RobotsDecision], bool]) -> str | None:
    """Why ``decision`` refuses a URL (a ``REFUSED_*`` reason), or None if it may be fetched.

    ``allowed(decision)`` asks the decision's rules about the URL; it is only
    called for a decision with rules (neither allow-all nor refuse-all).
    """
    if decision.allows_everything:
        return None
    if decision.refuses_everything:
        return REFUSED_GAVE_UP if decision.outcome == UNREACHABLE else REFUSED_FORBIDDEN
    return None if allowed(decision) else REFUSED_FORBIDDEN


def refusal_detail(decision: RobotsDecision) -> str:
    """What the log says after the first refusal of a site for ``decision``."""
    return decision.reason if decision.refuses_everything else decision.summary


def is_robots_txt(url: str) -> bool:
    """Is ``url`` a robots.txt URL (path ``/robots.txt``, any query)?"""
    return urlsplit(url).path == "/robots.txt"
