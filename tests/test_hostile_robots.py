"""robots.txt bodies as hostile servers send them keep their rules, and a
group for a crawler's product token applies to its full User-Agent string.
Judged by what each server saw: the disallowed page is never requested."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.pages.inflate import inflate_prefix
from webrobot.robots.decoding import decode_robots_body
from webrobot.robots.parsers import Rfc9309RobotParser, crawler_token

RULES = b"User-agent: *\nDisallow: /private\n"
MIB = 1024 * 1024

BODIES: dict[str, Reply] = {
    # junk that looks like a UTF-16 mark, then plain ASCII rules
    "fffe": Reply(200, b"\xff\xfe" + RULES, {"Content-Type": "text/plain"}),
    "fffe_odd": Reply(200, b"\xff\xfe" + RULES + b"#", {"Content-Type": "text/plain"}),
    "utf8_bom": Reply(200, b"\xef\xbb\xbf" + RULES, {"Content-Type": "text/plain"}),
    "utf16": Reply(200, RULES.decode().encode("utf-16"), {"Content-Type": "text/plain"}),
    # inflates to 20 MiB, past DOWNLOAD_MAXSIZE (10 MiB)
    "gzip_bomb": Reply(
        200,
        gzip.compress(RULES + b"#" * (20 * MIB)),
        {"Content-Type": "text/plain", "Content-Encoding": "gzip"},
    ),
    # 11 MiB on the wire, past DOWNLOAD_MAXSIZE: read up to 500 KiB and parsed
    "huge": Reply(
        200, RULES + (b"# padding line\n" * (11 * MIB // 15)), {"Content-Type": "text/plain"}
    ),
    "nul": Reply(
        200, b"User-agent: webrobot\x00\nDisallow: /private\n", {"Content-Type": "text/plain"}
    ),
    "invalid_bytes": Reply(
        200, b"\xc3\x28 junk\n" + RULES + b"Disallow: /caf\xe9\n", {"Content-Type": "text/plain"}
    ),
}


@pytest.mark.slow
def test_hostile_robots_bodies_keep_their_rules(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    sites: dict[str, SiteServer] = {}
    for name, reply in BODIES.items():
        site = make_site(name)
        site.add("/robots.txt", reply)
        # Each page its own content: copies of one page have their links dropped.
        site.html("/", f"<title>{name}</title><a href='/private'>p</a><a href='/open'>o</a>")
        site.html("/private", f"<title>private {name}</title>")
        site.html("/open", f"<title>open {name}</title>")
        sites[name] = site
    result = run_crawl(tmp_path, args={"start_urls": ",".join(s.url("/") for s in sites.values())},
                       settings={"LOG_LEVEL": "INFO"}, timeout=180)  # fmt: skip
    assert result.returncode == 0, result.stderr
    for name, site in sites.items():
        assert "/private" not in site.targets(), f"{name}: a disallowed page was fetched"
        assert "/open" in site.targets(), f"{name}: the allowed page was not fetched"
        assert site.count("/robots.txt") == 1, (
            f"{name}: robots.txt fetched {site.count('/robots.txt')} times"
        )
    assert result.stat("webrobot/robots/deferred") == 0
    assert result.stat("webrobot/robots/body/bad_bom") == 2
    assert result.stat("webrobot/robots/body/inflate_cut") == 1
    assert result.stat("webrobot/robots/body/control_chars") >= 1


@pytest.mark.slow
def test_a_group_applies_to_the_full_user_agent_string(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("ua")
    site.add(
        "/robots.txt",
        Reply.text("User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"),
    )
    site.html("/", "<title>home</title><a href='/private'>p</a><a href='/open'>o</a>")
    site.html("/private", "<title>private</title>")
    site.html("/open", "<title>open</title>")
    agent = "Mozilla/5.0 (compatible; ExampleBot/0.1; +https://example.com/bot)"
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"USER_AGENT": agent, "ROBOTSTXT_USER_AGENT": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/open", "/robots.txt"]
    assert all(h.headers.get("user-agent") == agent for h in site.hits)


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        ("Mozilla/5.0 (compatible; ExampleBot/0.1; +https://example.com/bot)", "examplebot"),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1) Chrome/1 Safari/537.36 (compatible; Googlebot/2.1; +http://g)",
            "googlebot",
        ),
        ("ExampleBot/0.1 (+https://example.com/bot)", "examplebot"),
        ("webrobot", "webrobot"),
        ("Mozilla/5.0 (X11; Linux x86_64)", "mozilla"),
        ("", ""),
    ],
)
def test_crawler_token(agent: str, token: str) -> None:
    assert crawler_token(agent) == token


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"\xff\xfe" + RULES, "bad_bom"),
        (b"\xfe\xff" + RULES, "bad_bom"),
        (RULES.decode().encode("utf-16"), "utf16"),
        (RULES.decode().encode("utf-16-be").join([b"\xfe\xff", b""]), "utf16"),
        (b"\xef\xbb\xbf" + RULES, "bom"),
        (b"User-agent: *\x00\x01\nDisallow: /private\n", "control_chars"),
        (b"\x80\x81\n" + RULES, "non_utf8"),
    ],
)
def test_decoded_bodies_keep_the_rule(body: bytes, problem: str) -> None:
    text, problems = decode_robots_body(body)
    assert problem in problems
    parser = Rfc9309RobotParser(body)
    assert not parser.allowed("http://a.example/private", "webrobot"), text
    assert parser.allowed("http://a.example/open", "webrobot")


def test_an_endless_inflation_is_cut_at_the_limit() -> None:
    bomb = gzip.compress(RULES + b"#" * (50 * MIB))
    text, cut = inflate_prefix(bomb, "gzip", 500 * 1024)
    assert cut and len(text) == 500 * 1024 and text.startswith(RULES)
    assert inflate_prefix(bomb[: len(bomb) // 3], "gzip", 0)[0].startswith(RULES), (
        "a cut stream gives its start"
    )
