"""Conditional re-crawls: the revalidating cache policy, and a real re-crawl
judged by what the server was asked and what it answered."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.settings import Settings

from tests.components import webrobot_crawler
from tests.crawling import run_crawl
from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.frontier.recrawl import RevalidatePolicy, conditional_headers

ETAG = '"v1"'
LAST_MODIFIED = "Tue, 03 Nov 2026 10:00:00 GMT"


def policy() -> RevalidatePolicy:
    return RevalidatePolicy(
        Settings({"HTTPCACHE_IGNORE_SCHEMES": ["file"], "ROBOTSTXT_USER_AGENT": "webrobot"})
    )


def test_webrobot_uses_it_by_default() -> None:
    assert (
        webrobot_crawler().settings["HTTPCACHE_POLICY"]
        == "webrobot.frontier.recrawl.RevalidatePolicy"
    )


def test_conditional_headers() -> None:
    assert conditional_headers({b"ETag": b'"x"', b"Last-Modified": b"d"}) == {
        b"If-None-Match": b'"x"', b"If-Modified-Since": b"d"}  # fmt: skip
    assert conditional_headers({b"ETag": None, b"Last-Modified": b""}) == {}  # type: ignore[dict-item]


def test_robots_txt_is_never_cached() -> None:
    p = policy()
    assert not p.should_cache_request(Request("http://a/robots.txt"))
    assert not p.should_cache_request(
        Request("http://a/robots/current.txt", meta={"dont_obey_robotstxt": True}))  # fmt: skip
    assert p.should_cache_request(Request("http://a/page.html"))
    assert not p.should_cache_request(Request("http://a/p", headers={"Cache-Control": "no-store"}))


@pytest.mark.parametrize(
    ("status", "headers", "stored"),
    [
        (200, {"ETag": ETAG}, True),
        (200, {"Last-Modified": LAST_MODIFIED}, True),
        (200, {}, False),  # nothing to revalidate with
        (200, {"Cache-Control": "max-age=600"}, False),
        (200, {"ETag": ETAG, "Cache-Control": "no-store"}, False),
        (301, {"ETag": ETAG}, False),
        (404, {"ETag": ETAG}, False),
    ],
)
def test_only_pages_with_a_validator_are_stored(
    status: int, headers: dict[str, str], stored: bool
) -> None:
    request = Request("http://a/p")
    response = HtmlResponse("http://a/p", status=status, headers=headers, request=request)
    assert policy().should_cache_response(response, request) is stored


@pytest.mark.parametrize(
    ("headers", "body", "stored"),
    [
        ({"X-Robots-Tag": "noarchive"}, b"<title>x</title>", False),
        ({"X-Robots-Tag": "webrobot: noarchive"}, b"<title>x</title>", False),
        ({"X-Robots-Tag": "otherbot: noarchive"}, b"<title>x</title>", True),
        ({}, b"<html><head><meta name='robots' content='noarchive'></head></html>", False),
        ({}, b"<html><head><meta name='webrobot' content='NOARCHIVE'></head></html>", False),
        ({}, b"<html><head><meta name='robots' content='noindex'></head></html>", True),
        (
            {},
            b"<html><head></head><body><meta name='robots' content='noarchive'></body></html>",
            True,
        ),
    ],
)
def test_noarchive_pages_are_never_stored(
    headers: dict[str, str], body: bytes, stored: bool
) -> None:
    """The cache keeps a copy of the body: exactly what noarchive forbids."""
    request = Request("http://a/p")
    response = HtmlResponse(
        "http://a/p", headers={"ETag": ETAG, **headers}, body=body, request=request
    )
    assert policy().should_cache_response(response, request) is stored


def test_stored_pages_are_always_revalidated() -> None:
    request = Request("http://a/p")
    stored = HtmlResponse("http://a/p", headers={
        "ETag": ETAG, "Last-Modified": LAST_MODIFIED, "Cache-Control": "max-age=86400",
        "Date": "Tue, 03 Nov 2026 10:00:00 GMT"})  # fmt: skip
    assert policy().is_cached_response_fresh(stored, request) is False
    assert request.headers[b"If-None-Match"] == ETAG.encode()
    assert request.headers[b"If-Modified-Since"] == LAST_MODIFIED.encode()
    answer = HtmlResponse("http://a/p", status=304, request=request)
    assert policy().is_cached_response_valid(stored, answer, request)


def conditional_page(body: str, answers: list[tuple[str, int, dict[str, str]]],
                     etag: str | None = None, last_modified: str | None = None) -> Callable[[Hit], Reply]:  # fmt: skip
    """A page that sends validators and answers 304 when they still match."""
    validators = {k: v for k, v in (("ETag", etag), ("Last-Modified", last_modified)) if v}

    def handler(hit: Hit) -> Reply:
        unchanged = (etag and hit.headers.get("if-none-match") == etag) or (
            not etag and last_modified and hit.headers.get("if-modified-since") == last_modified
        )
        reply = Reply(304, b"", dict(validators)) if unchanged else Reply.html(body, **validators)
        answers.append((hit.target, reply.status, hit.headers))
        return reply

    return handler


@pytest.mark.slow
def test_recrawl_of_an_unchanged_site_gets_304s(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("unchanged")
    answers: list[tuple[str, int, dict[str, str]]] = []
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n", ETag='"r1"'))
    links = "".join(f"<a href='/{p}'>{p}</a>" for p in ("etag.html", "lm.html", "plain.html"))
    site.add("/", conditional_page(f"<title>home</title>{links}", answers, etag=ETAG,
                                   last_modified=LAST_MODIFIED))  # fmt: skip
    site.add("/etag.html", conditional_page("<title>e</title>", answers, etag='"e1"'))
    site.add("/lm.html", conditional_page("<title>l</title>", answers, last_modified=LAST_MODIFIED))
    site.html("/plain.html", "<title>no validator</title>")
    settings = {"HTTPCACHE_ENABLED": "True", "HTTPCACHE_DIR": str(tmp_path / "cache")}
    args = {"start_urls": site.url("/")}

    first = run_crawl(tmp_path / "first", args=args, settings=settings)
    assert first.returncode == 0, first.stderr
    assert sorted(site.targets()) == ["/", "/etag.html", "/lm.html", "/plain.html", "/robots.txt"]
    assert all(status == 200 for _, status, _ in answers)
    validated = sorted(target for target, _, _ in answers)
    hits_before, answers_before = len(site.hits), len(answers)

    second = run_crawl(tmp_path / "second", args=args, settings=settings)
    assert second.returncode == 0, second.stderr
    recrawl = site.hits[hits_before:]
    assert sorted(h.target for h in recrawl) == sorted(site.targets()[:hits_before]), (
        "every page asked again"
    )
    second_answers = answers[answers_before:]
    assert sorted(t for t, _, _ in second_answers) == validated
    for target, status, headers in second_answers:
        assert status == 304, f"{target} was not answered 304 on the re-crawl"
        assert "if-none-match" in headers or "if-modified-since" in headers
    by_target = {h.target: h.headers for h in recrawl}
    assert by_target["/"]["if-none-match"] == ETAG
    assert by_target["/"]["if-modified-since"] == LAST_MODIFIED
    assert by_target["/etag.html"]["if-none-match"] == '"e1"'
    assert by_target["/lm.html"]["if-modified-since"] == LAST_MODIFIED
    for target in ("/robots.txt", "/plain.html"):
        assert not {"if-none-match", "if-modified-since"} & set(by_target[target]), target
    # unchanged pages still reach the spider: their links were followed, items made
    assert sorted(second.item_urls()) == sorted(first.item_urls())
    report = json.loads((tmp_path / "second" / "items.report.json").read_text("utf-8"))
    row = report["sites"][site.origin]
    assert (row["requested"], row["unchanged"], row["downloaded"]) == (4, 3, 1)
    assert row["status"] == {"200": 1, "304": 3}
    assert second.stat("httpcache/revalidate") == 3
