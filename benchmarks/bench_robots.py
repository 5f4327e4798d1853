"""Robots decision per URL: parse the benchmark robots.txt once, check many URLs.

Compares webrobot's robots parser (whatever ``ROBOTSTXT_PARSER`` in
``webrobot/settingsmodel/model.py`` names, or a parser class in ``webrobot.robots.parsers``)
with protego's ``can_fetch`` alone on the same robots.txt and URLs, and checks
that they decide the same.
"""

from __future__ import annotations

import random
from typing import Any

from protego import Protego
from scrapy.robotstxt import RobotParser
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler

from benchmarks.micro import fmt_time, per_call, print_table, report_target, size
from benchmarks.web import is_disallowed, robots_txt
from webrobot.settingsmodel.parse import defaults

ORIGIN = "http://127.0.0.1:8000"


def webrobot_settings() -> Settings:
    settings = Settings()
    settings.setdict(defaults(), priority="addon")  # what webrobot.Addon applies
    settings.setmodule("webrobot.settings", priority="project")
    return settings


def webrobot_parser_class() -> type[RobotParser]:
    """The robots parser webrobot crawls with: the project's ``ROBOTSTXT_PARSER``."""
    return load_object(webrobot_settings().get("ROBOTSTXT_PARSER"))


def test_urls(count: int, seed: int = 3) -> list[str]:
    """URLs as the benchmark web links them: mostly pages, some disallowed."""
    rng = random.Random(seed)
    urls = []
    for n in range(count):
        roll = rng.random()
        if roll < 0.7:
            urls.append(f"{ORIGIN}/topic-{rng.randrange(1, 9)}/page-{rng.randrange(20000)}.html")
        elif roll < 0.8:
            urls.append(f"{ORIGIN}/private/page-{n}.html")
        elif roll < 0.85:
            urls.append(f"{ORIGIN}/private/press-kit.html")
        elif roll < 0.9:
            urls.append(f"{ORIGIN}/search?q=word{n}")
        elif roll < 0.95:
            urls.append(f"{ORIGIN}/cgi-bin/print?page={n}")
        else:
            urls.append(f"{ORIGIN}/topic-2/page-{n}.html?sessionid={n * 7}")
    return urls


def main() -> int:
    body = robots_txt()
    urls = test_urls(size(10_000, 2000, 200))
    settings = webrobot_settings()
    agent = settings.get("ROBOTSTXT_USER_AGENT") or "webrobot"
    # A crawler with the project's robots settings only: the parser may read them,
    # and building every component of the project is not this benchmark's business.
    robots = {k: v for k, v in settings.items() if k.startswith(("ROBOTSTXT_", "WEBROBOT_ROBOTS"))}
    crawler = get_crawler(settings_dict=robots)
    cls = webrobot_parser_class()
    print(f"robots.txt of {len(body)} bytes, {len(urls)} URLs, user agent {agent!r}")
    print(f"webrobot's parser: {cls.__module__}.{cls.__name__} (ROBOTSTXT_PARSER)")

    protego = Protego.parse(body)
    ours = cls.from_crawler(crawler, body.encode())
    candidates: list[tuple[str, Any]] = [
        ("protego Protego.can_fetch", lambda url: protego.can_fetch(url, agent)),
        (f"webrobot {cls.__name__}.allowed", lambda url: ours.allowed(url, agent)),
    ]
    expected = [not is_disallowed(url[len(ORIGIN) :]) for url in urls]
    rows = []
    timings = {}
    for label, check in candidates:
        wrong = sum(1 for url, want in zip(urls, expected) if bool(check(url)) != want)
        seconds = per_call(check, urls)
        timings[label] = seconds
        rows.append((label, fmt_time(seconds), f"{1 / seconds:,.0f}", wrong))
    parse_rows = [
        ("protego Protego.parse", fmt_time(per_call(Protego.parse, [body], min_seconds=0.1))),
        (f"webrobot {cls.__name__}.from_crawler",
         fmt_time(per_call(lambda b: cls.from_crawler(crawler, b), [body.encode()], min_seconds=0.1))),
    ]  # fmt: skip
    print_table(
        "per URL (best of rounds)", ("decision", "per URL", "URLs/s", "wrong decisions"), rows
    )
    print_table("per robots.txt", ("parse", "time"), parse_rows)
    ours_time, theirs_time = timings[candidates[1][0]], timings[candidates[0][0]]
    ratio = ours_time / theirs_time
    report_target(
        "robots decision per URL no slower than protego can_fetch",
        f"{fmt_time(ours_time)} vs {fmt_time(theirs_time)} ({ratio:.2f}x)",
        # Within 3 % is "no slower": rounds of the same code differ that much here.
        ratio <= 1.03,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
