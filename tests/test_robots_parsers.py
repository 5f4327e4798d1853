"""The two robots.txt parsers: conformance cases, protego's deviations, bad bodies."""

from __future__ import annotations

import codecs

import pytest
from protego import Protego
from scrapy.robotstxt import RobotParser
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from tests.robots_cases_first_match import CASES as FIRST_MATCH_CASES
from tests.robots_cases_rfc9309 import CASES as RFC_CASES
from tests.robots_cases_rfc9309 import Case
from webrobot.robots.decoding import decode_robots_body, truncate_body
from webrobot.robots.parsers import (
    FirstMatchRobotParser,
    FirstMatchRules,
    Rfc9309RobotParser,
    Rfc9309Rules,
    product_token,
)


def _id(case: Case) -> str:
    return f"{case.section}:{case.agent}:{case.url.split('/', 3)[-1][:40]}"


def test_there_are_enough_conformance_cases() -> None:
    assert len(RFC_CASES) >= 100
    assert len(FIRST_MATCH_CASES) >= 30
    deviations = {case.protego for case in RFC_CASES if case.protego}
    assert deviations == set(range(1, 9)), "every protego deviation has a case"


@pytest.mark.parametrize("case", RFC_CASES, ids=_id)
def test_rfc9309_case(case: Case) -> None:
    parser = Rfc9309RobotParser(case.body.encode("utf-8"))
    assert parser.allowed(case.url, case.agent) is case.allowed, case.note


@pytest.mark.parametrize("case", [c for c in RFC_CASES if c.protego], ids=_id)
def test_protego_alone_deviates_here(case: Case) -> None:
    """If protego is fixed (or changes), these tell us the wrapper's fix is moot."""
    assert Protego.parse(case.body).can_fetch(case.url, case.agent) is not case.allowed


@pytest.mark.parametrize("case", FIRST_MATCH_CASES, ids=_id)
def test_first_match_case(case: Case) -> None:
    parser = FirstMatchRobotParser(case.body.encode("utf-8"))
    assert parser.allowed(case.url, case.agent) is case.allowed, case.note


def test_the_modes_differ_where_the_drafts_do() -> None:
    body = "User-agent: *\nAllow: /a\nDisallow: /a/b\n"
    assert Rfc9309Rules(body).allowed("http://x/a/b", "bot") is False  # longest match
    assert FirstMatchRules(body).allowed("http://x/a/b", "bot") is True  # first match


def test_parsers_are_scrapy_robot_parsers_built_from_a_crawler() -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_ROBOTS_PARSE_LIMIT": 30})
    body = b"User-agent: *\nDisallow: /a\n" + b"Disallow: /b\n" * 10
    for cls in (Rfc9309RobotParser, FirstMatchRobotParser):
        assert issubclass(cls, RobotParser)
        parser = build_from_crawler(cls, crawler, body)
        assert parser.allowed(b"http://x/a", b"webrobot") is False
        assert parser.allowed("http://x/b", "webrobot") is True, "cut after the parse limit"
        assert "truncated" in parser.problems


def test_a_full_user_agent_string_uses_its_leading_token() -> None:
    assert product_token("WebRobot/1.0 (+https://example.org/bot)") == "webrobot"
    assert product_token("Mozilla/5.0 (compatible; ExampleBot/0.1)") == "mozilla"
    assert product_token("  foo_bar-baz2") == "foo_bar-baz"
    assert product_token("/1.0") == ""
    body = "User-agent: webrobot\nDisallow: /\n"
    assert Rfc9309Rules(body).allowed("http://x/a", "webrobot/1.0 (+http://x/)") is False


def test_crawl_delay_and_request_rate_of_the_group_that_applies() -> None:
    rules = Rfc9309Rules(
        "User-agent: *\nCrawl-delay: 1\nDisallow: /cgi-bin/\n\n"
        "User-agent: webrobot\nCrawl-delay: 2.5\nRequest-rate: 1/10s\nDisallow: /x\n\n"
        "User-agent: webrobot\nCrawl-delay: 0.5\n"
    )
    assert rules.crawl_delay("webrobot") == 2.5, "merged groups: the slowest"
    assert rules.request_rate("webrobot") == (1, 10.0)
    assert rules.crawl_delay("other") == 1.0
    assert rules.request_rate("other") is None
    # Crawl-delay does not end a run of User-agent lines (RFC 9309 2.2.4): one group.
    shared = Rfc9309Rules("User-agent: *\nCrawl-delay: 3\n\nUser-agent: webrobot\nDisallow: /x\n")
    assert shared.crawl_delay("webrobot") == 3.0 and shared.allowed("http://h/x", "other") is False
    assert (
        Rfc9309Rules("User-agent: *\nCrawl-delay: soon\nCrawl-delay: -3\n").crawl_delay("x") is None
    )
    assert Rfc9309Rules("User-agent: *\nRequest-rate: 3/1m\n").request_rate("x") == (3, 60.0)
    assert FirstMatchRules("User-agent: web\nCrawl-delay: 4\n").crawl_delay("webrobot") == 4.0
    assert Rfc9309RobotParser(b"User-agent: *\nCrawl-delay: 7\n").crawl_delay(b"webrobot") == 7.0


def test_summaries_say_which_group_applies() -> None:
    rules = Rfc9309Rules("User-agent: webrobot\nDisallow: /a\nDisallow: /b\nAllow: /a/c\n")
    assert rules.summary("webrobot") == "group 'webrobot': 2 disallow, 1 allow"
    assert rules.summary("other") == "1 groups, none for other"
    first = FirstMatchRules("User-agent: *\nDisallow: /a\n")
    assert first.summary("webrobot") == "record '*': 1 disallow, 0 allow (first match)"


def test_sitemaps_are_read_and_do_not_end_groups() -> None:
    rules = Rfc9309Rules(
        "Sitemap: https://x/s1.xml\nUser-agent: *\nSitemap: https://x/s2.xml\nDisallow: /a\n"
    )
    assert rules.sitemaps == ["https://x/s1.xml", "https://x/s2.xml"]
    assert rules.allowed("http://x/a", "bot") is False


# --- Bad bodies ------------------------------------------------------------------

RULES = b"User-agent: *\nDisallow: /private/\n"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (codecs.BOM_UTF8 + RULES, "bom"),
        (codecs.BOM_UTF16_LE + RULES.decode().encode("utf-16-le"), "utf16"),
        (RULES + b"Disallow: /caf\xe9\n", "non_utf8"),
        (b"\x00\x01\x02\xff\xfe" * 50 + b"\n" + RULES, "binary"),
        (
            b"<!DOCTYPE html><html><head><title>Robots</title></head>\n" + RULES + b"</html>\n",
            "html",
        ),
        (b"# " + b"x" * 100_000 + b"\n" + RULES, "long_line"),
        (RULES + b"Disallow: /" + b"y" * 600_000 + b"\n", "truncated"),
    ],
)
def test_bad_bodies_are_parsed_as_far_as_possible(body: bytes, problem: str) -> None:
    for cls in (Rfc9309RobotParser, FirstMatchRobotParser):
        parser = cls(body)
        assert problem in parser.problems
        if problem == "html":
            assert (
                cls is FirstMatchRobotParser
                or parser.allowed("http://x/private/a", "webrobot") is False
            )
            continue
        assert parser.allowed("http://x/private/a", "webrobot") is False, cls
        assert parser.allowed("http://x/public", "webrobot") is True


def test_non_utf8_bytes_become_percent_escapes_that_still_match() -> None:
    text, problems = decode_robots_body(b"User-agent: *\nDisallow: /caf\xe9\n")
    assert "Disallow: /caf%E9" in text and problems == ["non_utf8"]
    parser = Rfc9309RobotParser(b"User-agent: *\nDisallow: /caf\xe9\n")
    assert parser.allowed("http://x/caf%E9", "bot") is False
    assert parser.allowed("http://x/caf%C3%A9", "bot") is True


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xff" * 1000,
        bytes(range(256)) * 20,
        b":::\n:\nUser-agent\nDisallow\n: /x\n",
        b"User-agent: *\nDisallow: /" + b"*" * 5000 + b"x\n",
        b"User-agent: *\n" + b"Disallow: /a*b*c*d*e*f*g*h*i*j*k$\n" * 2000,
        b"\r\r\n\n\r" * 1000,
    ],
)
def test_junk_never_crashes(body: bytes) -> None:
    for cls in (Rfc9309RobotParser, FirstMatchRobotParser):
        parser = cls(body)
        assert parser.allowed("http://x/" + "a" * 3000, "webrobot") in (True, False)
        parser.crawl_delay("webrobot")
        assert isinstance(parser.summary("webrobot"), str)


def test_truncation_keeps_whole_lines() -> None:
    assert truncate_body(b"abc\ndef\nghi", 9) == (b"abc\ndef\n", True)
    assert truncate_body(b"abc\rdef\rghi", 9) == (b"abc\rdef\r", True)
    assert truncate_body(b"abcdefghi", 4) == (b"abcd", True)
    assert truncate_body(b"abc", 0) == (b"abc", False)
    assert truncate_body(b"abc", 3) == (b"abc", False)


def test_one_parser_answers_each_agent_by_its_own_group() -> None:
    """The group chosen is remembered per User-Agent string (asked once per URL);
    a rotating User-Agent does not grow that memory without bound."""
    rules = Rfc9309Rules("User-agent: webrobot\nDisallow: /w\n\nUser-agent: *\nDisallow: /s\n")
    for _ in range(2):
        assert rules.allowed("http://x/w", "WebRobot/1.0 (+http://x)") is False
        assert rules.allowed("http://x/s", "WebRobot/1.0 (+http://x)") is True
        assert rules.allowed("http://x/w", "otherbot") is True
        assert rules.allowed("http://x/s", "otherbot") is False
        assert rules.allowed("http://x/w", "webrobot") is False
    for i in range(1000):
        assert rules.allowed("http://x/s", f"Mozilla/{i}") is False
    assert len(rules._selected) <= 64


def test_first_match_decodes_escapes_but_keeps_slashes_and_stray_percents() -> None:
    rules = FirstMatchRules("User-agent: *\nDisallow: /a b/%zz%2f%\n")
    assert rules.allowed("http://x/a%20b/%zz%2F%", "bot") is False
    assert rules.allowed("http://x/a%20b/%zz/%", "bot") is True, "%2F only matches %2F"
    assert rules.allowed("http://x/a%20b/%25zz%2F%", "bot") is False, "%25 is a percent sign"
