"""Per-URL cost of a robots.txt decision: our parsers against protego's can_fetch.

    PYTHONPATH=. .venv/bin/python benchmarks/robots_matching.py

The robots middleware asks its site's parser once per request, so a decision
must cost no more than protego's own ``can_fetch`` on the same file (the
parser Scrapy uses by default). Two files: a small one, and one of about 100
rules with wildcards, read by the agent that has its own group and by one
that falls back to ``*``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from protego import Protego
from scrapy.robotstxt import ProtegoRobotParser

from webrobot.robots.parsers import FirstMatchRobotParser, Rfc9309RobotParser

SMALL = "User-agent: *\nDisallow: /private/\nDisallow: /cgi/\n"
MEDIUM = (
    "User-agent: *\n"
    + "".join(f"Disallow: /dir{i}/\nAllow: /dir{i}/pub*.html$\n" for i in range(50))
    + "Disallow: /*.php$\n\nUser-agent: webrobot\nDisallow: /private/\nAllow: /private/ok\n"
    "Disallow: /*?session=\nCrawl-delay: 1\n"
)
URLS = [f"https://example.com/dir{i % 60}/page{i}.html?x={i}" for i in range(2000)] + [
    "https://example.com/private/okay",
    "https://example.com/a/b.php",
]


def per_url(check: Callable[[str, str], bool], agent: str) -> float:
    """Best of five passes over every URL, in microseconds per URL."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for url in URLS:
            check(url, agent)
        best = min(best, (time.perf_counter() - start) / len(URLS))
    return best * 1e6


def main() -> None:
    print(
        f"{'file':<7} {'agent':<9} {'protego':>9} {'Scrapy+protego':>15} {'rfc9309':>9} {'first-match':>12}  (us/URL)"
    )
    for name, body in (("small", SMALL), ("medium", MEDIUM)):
        protego = Protego.parse(body)
        scrapy_parser = ProtegoRobotParser(body.encode(), None)
        ours = Rfc9309RobotParser(body.encode())
        first = FirstMatchRobotParser(body.encode())
        for agent in ("webrobot", "otherbot"):
            disagree = sum(protego.can_fetch(u, agent) != ours.allowed(u, agent) for u in URLS)
            checks = (protego.can_fetch, scrapy_parser.allowed, ours.allowed, first.allowed)
            row = [per_url(check, agent) for check in checks]
            print(f"{name:<7} {agent:<9} {row[0]:9.2f} {row[1]:15.2f} {row[2]:9.2f} {row[3]:12.2f}"
                  f"  ({disagree} URLs decided differently from protego)")  # fmt: skip


if __name__ == "__main__":
    main()
