"""Turning a fetched robots.txt into a decision: parser, lifetime, Crawl-delay.

What each answer means is decided in :mod:`webrobot.robots.policy`; the rules
are read by the ``ROBOTSTXT_PARSER`` class (``Rfc9309RobotParser``, longest
match, or ``FirstMatchRobotParser``, the 1996 draft's first match).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy.utils.misc import build_from_crawler, load_object

from webrobot import signals
from webrobot.compat import robots_parsed
from webrobot.robots import policy
from webrobot.robots.decoding import decode_robots_body, truncate_body
from webrobot.robots.held import duration
from webrobot.robots.policy import RobotsDecision
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from scrapy.robotstxt import RobotParser

    from webrobot.robots.fetch import RobotsFetch

logger = logging.getLogger(__name__)

#: A decision lives at least this long, so the requests released by a
#: robots.txt fetch are checked against it even if the server said max-age=0.
MIN_LIFETIME = 1.0


class RobotsDecider:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        # ROBOTSTXT_PARSER is the one knob of the matching (longest match or first match).
        self.parser_cls: type[RobotParser] = load_object(read(settings, "ROBOTSTXT_PARSER"))
        build_from_crawler(self.parser_cls, crawler, b"")  # a parser that cannot work fails now
        self.user_agent: str = read(settings, "ROBOTSTXT_USER_AGENT") or ""
        self.default_user_agent: str = read(settings, "USER_AGENT") or ""
        self.parse_limit = read(settings, "WEBROBOT_ROBOTS_PARSE_LIMIT")
        self.ttl = read(settings, "WEBROBOT_ROBOTS_TTL")
        self.min_ttl = max(read(settings, "WEBROBOT_ROBOTS_MIN_TTL"), MIN_LIFETIME)
        self.max_crawl_delay = read(settings, "WEBROBOT_ROBOTS_MAX_CRAWL_DELAY")

    def agent(self) -> str:
        return self.user_agent or self.default_user_agent

    def parser(self, decision: RobotsDecision) -> RobotParser:
        if decision.parser is None:  # a cache that stores bytes only
            decision.parser = build_from_crawler(self.parser_cls, self.crawler, decision.body)
        return decision.parser

    def unreachable(
        self, site: str, status: int | None, url: str, reason: str, dead: str | None = None
    ) -> RobotsDecision:
        """The decision for a site given up on: nothing allowed, until it expires
        (``dead``: its host was given up as dead, of that kind)."""
        now = time.time()
        return RobotsDecision(
            site, policy.UNREACHABLE, status, now,
            policy.expires_at(now, None, self.ttl, self.min_ttl), url=url,
            summary="nothing allowed", reason=reason, dead=dead,
        )  # fmt: skip

    def classify(self, site: str, result: RobotsFetch, auth_policy: str) -> str:
        """The outcome of an attempt (a :mod:`webrobot.robots.policy` constant), counted."""
        self.stats.inc_value("webrobot/robots/fetched")
        if result.error is not None:
            self.stats.inc_value(f"webrobot/robots/error/{result.error}")
            if result.error == "IgnoreRequest":
                logger.warning(
                    "The robots.txt request of %s was refused by another component (%s); "
                    "treating the site as having no robots.txt", site, result.detail,
                )  # fmt: skip
                outcome = policy.UNAVAILABLE
            else:
                outcome = policy.DEFER
        else:
            assert result.status is not None
            self.stats.inc_value(f"webrobot/robots/status/{result.status}")
            if result.redirect_problem:
                outcome = policy.UNAVAILABLE
                problem = result.redirect_problem
                stat = "redirect_limit" if problem in ("limit", "loop") else "redirect_invalid"
                self.stats.inc_value(f"webrobot/robots/{stat}")
                logger.info(
                    "robots.txt of %s: redirect %s after %d hops (to %s); treating it as unavailable",
                    site, problem.replace("_", " "), result.hops, result.detail[:200],
                )  # fmt: skip
            else:
                outcome = policy.classify_status(result.status, auth_policy)
        return outcome

    def decide(
        self, site: str, trigger: Request | None, outcome: str, result: RobotsFetch
    ) -> RobotsDecision:
        now = time.time()
        headers = result.headers
        lifetime = policy.freshness_lifetime(
            headers.get("cache-control"), headers.get("expires"), headers.get("date"), now
        )
        decision = RobotsDecision(
            site=site,
            outcome=outcome,
            status=result.status,
            fetched_at=now,
            expires_at=policy.expires_at(now, lifetime, self.ttl, self.min_ttl),
            url=result.url,
            reason=f"robots.txt answered {result.status}" if result.status else result.error or "",
        )
        if outcome == policy.UNAVAILABLE:
            decision.summary = "no restrictions"
        elif outcome == policy.FORBIDDEN:
            decision.summary = "nothing allowed"
        if outcome != policy.RULES:
            return decision
        body, truncated = truncate_body(result.body, self.parse_limit)
        decision.body = body
        try:
            parser = build_from_crawler(self.parser_cls, self.crawler, body)
        except Exception:  # any ROBOTSTXT_PARSER class; ours never raise here
            logger.exception("robots.txt of %s could not be parsed; treating it as empty", site)
            self.stats.inc_value("webrobot/robots/body/unparsable")
            parser = build_from_crawler(self.parser_cls, self.crawler, b"")
        decision.parser = parser
        content_type = headers.get("content-type", "")
        self._log_problems(site, parser, body, truncated or result.stopped, content_type)
        agent = self.agent()
        request_rate = getattr(parser, "request_rate", None)
        delay = policy.effective_crawl_delay(
            parser.crawl_delay(agent),
            request_rate(agent) if request_rate else None,
            self.max_crawl_delay,
        )
        if delay is not None:
            decision.crawl_delay, decision.crawl_delay_source = delay.seconds, delay.source
            if delay.capped:
                self.stats.inc_value("webrobot/robots/crawl_delay_capped")
                logger.info(
                    "robots.txt of %s asks for %s of %s s; capped to %s s "
                    "(WEBROBOT_ROBOTS_MAX_CRAWL_DELAY)",
                    site, delay.source.replace("_", "-"), delay.declared, delay.seconds,
                )  # fmt: skip
        summary = getattr(parser, "summary", None)
        decision.summary = summary(agent) if summary else f"parsed by {type(parser).__name__}"
        self.crawler.signals.send_catch_log(
            signal=robots_parsed,
            robotparser=parser,
            request=trigger,
        )
        return decision

    def announce(self, decision: RobotsDecision, *, reused: bool = False) -> None:
        """Count, log and signal a decision this worker starts obeying."""
        self.stats.inc_value(f"webrobot/robots/outcome/{decision.outcome}")
        if reused:
            self.stats.inc_value("webrobot/robots/reused")
        delay = ""
        if decision.crawl_delay:
            source = (decision.crawl_delay_source or "crawl_delay").replace("_", "-")
            delay = f"; {source} {decision.crawl_delay:g} s"
        # A dead host's is said by the crawl's record of dead hosts (first one, then all at
        # the close): one line per host, not one per decision too.
        logger.log(
            logging.DEBUG if decision.dead else logging.INFO,
            "robots.txt of %s: %s -> %s (%s%s); next check in %s%s",
            decision.site, decision.status if decision.status is not None else decision.reason,
            decision.outcome, decision.summary, delay,
            duration(decision.expires_at - decision.fetched_at),
            " (fetched by another worker)" if reused else "",
        )  # fmt: skip
        self.crawler.signals.send_catch_log(
            signal=signals.robots_resolved,
            site=decision.site,
            status=decision.status,
            outcome=decision.outcome,
            rules=decision.summary,
            fetched_at=decision.fetched_at,
            expires=decision.expires_at,
            crawl_delay=decision.crawl_delay,
            crawl_delay_source=decision.crawl_delay_source,
            url=decision.url,
        )

    def _log_problems(
        self, site: str, parser: Any, body: bytes, truncated: bool, content_type: str
    ) -> None:
        problems = getattr(parser, "problems", None)
        if problems is None:
            problems = decode_robots_body(body, 0)[1]
        problems = list(problems)
        if truncated and "truncated" not in problems:
            problems.append("truncated")
        if "html" in content_type.lower() and "html" not in problems:
            problems.append("html")
        unknown = getattr(parser, "invalid_lines", 0)
        if unknown:
            problems.append("unknown_lines")
        if not problems:
            return
        for problem in problems:
            self.stats.inc_value(f"webrobot/robots/body/{problem}")
        logger.info(
            "robots.txt of %s: %s%s; parsed what could be parsed",
            site, ", ".join(p.replace("_", " ") for p in problems if p != "unknown_lines"),
            f"{', ' if len(problems) > 1 else ''}{unknown} lines not understood" if unknown else "",
        )  # fmt: skip
