"""MetaRobotsMiddleware (recording) and page_rules (enforcement), without a network."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from tests.components import enabled_components
from webrobot import signals
from webrobot.pages.metarobotsmiddleware import MetaRobotsMiddleware
from webrobot.pages.metarobotsspidermiddleware import MetaRobotsSpiderMiddleware
from webrobot.pages.page import Link
from webrobot.pages.pagerules import page_rules
from webrobot.settings import __dict__ as project_settings

SETTINGS = {k: v for k, v in project_settings.items() if k.isupper()}
URL = "http://127.0.0.1:8000/page.html"


def make_crawler(**overrides: Any) -> Any:
    crawler = get_crawler(settings_dict={**SETTINGS, **overrides})
    crawler.stats.open_spider()
    return crawler


def make_mw(**overrides: Any) -> tuple[MetaRobotsMiddleware, Any]:
    crawler = make_crawler(**overrides)
    return MetaRobotsMiddleware.from_crawler(crawler), crawler


def html_response(
    body: bytes | str,
    headers: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    content_type: str = "text/html; charset=utf-8",
) -> tuple[Request, HtmlResponse]:
    request = Request(URL, meta=meta or {})
    data = body.encode("utf-8") if isinstance(body, str) else body
    response = HtmlResponse(
        URL, body=data, headers={"Content-Type": content_type, **(headers or {})}, request=request
    )
    return request, response


def page(head: str = "", body: str = "<p>x</p>") -> str:
    return f"<!DOCTYPE html><html><head><title>t</title>{head}</head><body>{body}</body></html>"


def robots_of(mw: MetaRobotsMiddleware, request: Request, response: Response) -> list[str] | None:
    result = mw.process_response(request, response)
    assert result is response
    return response.meta.get("robots")


def test_not_configured_when_switched_off() -> None:
    with pytest.raises(NotConfigured):
        make_mw(WEBROBOT_META_ROBOTS_ENABLED="False")


def test_enabled_in_project_settings() -> None:
    assert "webrobot.pages.metarobotsmiddleware.MetaRobotsMiddleware" in enabled_components(
        "DOWNLOADER_MIDDLEWARES"
    )
    assert (
        "webrobot.pages.metarobotsspidermiddleware.MetaRobotsSpiderMiddleware"
        in enabled_components("SPIDER_MIDDLEWARES")
    )
    settings = make_crawler().settings
    assert settings["WEBROBOT_META_ROBOTS_ENABLED"] is True
    assert settings["WEBROBOT_HONOR_REL_NOFOLLOW"] is True
    assert settings["WEBROBOT_STORE_BODY"] is False


def test_records_meta_and_headers_combined() -> None:
    mw, _ = make_mw()
    headers = {"X-Robots-Tag": ["noarchive", "otherbot: noindex", "webrobot: nofollow"]}
    request, response = html_response(
        page('<meta name="robots" content="index, NOFOLLOW"><meta name="otherbot" content="none">'),
        headers,
    )
    assert robots_of(mw, request, response) == ["noarchive", "nofollow", "index"]


def test_page_without_directives_records_nothing() -> None:
    mw, _ = make_mw()
    request, response = html_response(page('<meta name="description" content="noindex">'))
    assert robots_of(mw, request, response) is None


def test_body_meta_is_ignored() -> None:
    mw, _ = make_mw()
    request, response = html_response(page("", '<meta name="robots" content="noindex">'))
    assert robots_of(mw, request, response) is None


@pytest.mark.parametrize(
    ("cls", "content_type", "body"),
    [
        (Response, "application/pdf", b"%PDF-1.4 <meta name=robots content=nofollow>"),
        (TextResponse, "text/plain; charset=utf-8", b"<meta name=robots content=nofollow>"),
        (Response, "image/png", bytes(range(256))),
    ],
)
def test_header_applies_to_non_html_and_their_bodies_are_not_read(
    cls: type[Response], content_type: str, body: bytes
) -> None:
    mw, _ = make_mw()
    request = Request(URL)
    response = cls(
        URL, body=body, request=request,
        headers={"Content-Type": content_type, "X-Robots-Tag": "noindex, webrobot: noarchive"},
    )  # fmt: skip
    assert robots_of(mw, request, response) == ["noindex", "noarchive"]


def test_opt_out_meta_key() -> None:
    mw, _ = make_mw()
    request, response = html_response(
        page('<meta name="robots" content="noindex">'), {"X-Robots-Tag": "nofollow"},
        meta={"dont_obey_meta_robots": True},
    )  # fmt: skip
    assert robots_of(mw, request, response) is None


def test_product_token_comes_from_robotstxt_user_agent() -> None:
    mw, _ = make_mw(ROBOTSTXT_USER_AGENT="MyBot")
    head = '<meta name="mybot" content="noindex"><meta name="webrobot" content="nofollow">'
    request, response = html_response(page(head), {"X-Robots-Tag": "mybot: noarchive"})
    assert robots_of(mw, request, response) == ["noarchive", "noindex"]


def test_product_token_falls_back_to_user_agent() -> None:
    mw, _ = make_mw(ROBOTSTXT_USER_AGENT=None, USER_AGENT="OtherName/2.0 (+http://x)")
    request, response = html_response(page('<meta name="othername" content="noindex">'))
    assert robots_of(mw, request, response) == ["noindex"]


def test_signal_carries_the_directives() -> None:
    mw, crawler = make_mw()
    seen: list[dict[str, Any]] = []

    def receiver(**kwargs: Any) -> None:  # held here: signal receivers are weak references
        seen.append(kwargs)

    crawler.signals.connect(receiver, signal=signals.page_directives)
    request, response = html_response(page('<meta name="robots" content="noindex">'))
    mw.process_response(request, response)
    request2, response2 = html_response(page())
    mw.process_response(request2, response2)
    assert len(seen) == 1
    assert seen[0]["response"] is response
    assert seen[0]["directives"] == ["noindex"]
    assert seen[0]["site"] == "http://127.0.0.1:8000"


PAGE = '<html><head><title>Caf\xe9</title><meta name="robots" content="noindex"></head><body>x</body></html>'


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (PAGE.encode("latin-1"), "text/html; charset=iso-8859-1"),
        (PAGE.encode("latin-1"), "text/html; charset=utf-8"),  # mislabelled
        (PAGE.encode("utf-8"), "text/html; charset=iso-8859-1"),  # mislabelled
        (PAGE.encode("utf-8"), "text/html; charset=no-such-charset"),
        (
            PAGE.replace("<title>", "<meta charset=windows-1252><title>").encode("cp1252"),
            "text/html",
        ),
        (
            PAGE.replace("Caf\xe9", "\u65e5\u672c").encode("shift_jis"),
            "text/html; charset=shift_jis",
        ),
        (PAGE.encode("utf-16"), "text/html"),  # with a byte order mark
        (PAGE.encode("utf-16"), "text/html; charset=utf-8"),  # BOM says otherwise
        (PAGE.encode("utf-16-le"), "text/html; charset=utf-16"),  # no BOM
        (PAGE.encode("utf-16-be"), "text/html; charset=utf-16"),  # no BOM
        (PAGE.encode("latin-1"), "text/html; charset=utf-16"),  # ASCII said to be UTF-16
        (PAGE.encode("utf-32"), "text/html"),
    ],
)
def test_encodings_and_wrong_labels(body: bytes, content_type: str) -> None:
    mw, _ = make_mw()
    request, response = html_response(body, content_type=content_type)
    assert robots_of(mw, request, response) == ["noindex"]


@pytest.mark.parametrize(
    "body",
    [
        bytes(range(256)) * 64,
        b"\x00\xff\xfe<html>" + bytes(range(256)),
        b"",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
        b"<html><head><title>Bro\xe9ken</ti",
    ],
)
def test_binary_and_broken_bodies_do_not_crash(body: bytes) -> None:
    mw, crawler = make_mw()
    request, response = html_response(body, {"X-Robots-Tag": "noarchive"})
    assert robots_of(mw, request, response) == ["noarchive"]
    assert crawler.stats.get_value("webrobot/meta/unreadable") is None


def test_an_exception_while_reading_is_counted_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    mw, crawler = make_mw()

    def explode(text: str, agent: str) -> list[str]:
        raise ValueError("boom")

    monkeypatch.setattr("webrobot.pages.pagerules.head_meta_directives", explode)
    request, response = html_response(page(), {"X-Robots-Tag": "nofollow"})
    assert robots_of(mw, request, response) == ["nofollow"]
    assert crawler.stats.get_value("webrobot/meta/unreadable") == 1


# -- page_rules: what the spider enforces ---------------------------------------------

LINKS = [Link("http://127.0.0.1:8000/a"), Link("http://127.0.0.1:8000/b", nofollow=True)]


def rules_for(
    directives: list[str] | None, meta: dict[str, Any] | None = None, **settings: Any
) -> Any:
    crawler = make_crawler(**settings)
    _, response = html_response(page(), meta=meta)
    if directives is not None:
        response.meta["robots"] = directives
    return page_rules(crawler, response), crawler


def test_rules_without_directives_follow_plain_links_only() -> None:
    rules, crawler = rules_for(None)
    assert (rules.index, rules.follow, rules.store_body) == (True, True, False)
    assert [link.url for link in rules.links(LINKS)] == ["http://127.0.0.1:8000/a"]
    assert crawler.stats.get_value("webrobot/meta/rel_nofollow") == 1
    assert crawler.stats.get_value("webrobot/meta/noindex") is None


@pytest.mark.parametrize(
    ("directives", "index", "follow", "counted"),
    [
        (["noindex"], False, True, ["noindex"]),
        (["nofollow"], True, False, ["nofollow"]),
        (["none"], False, False, ["noindex", "nofollow"]),
        (["index", "noindex", "all"], False, True, ["noindex"]),
        (["all"], True, True, []),
        (["noarchive"], True, True, ["noarchive"]),
        (["whatever", "max-snippet:3"], True, True, []),
    ],
)
def test_rules_enforce_and_count(
    directives: list[str], index: bool, follow: bool, counted: list[str]
) -> None:
    rules, crawler = rules_for(directives)
    assert (rules.index, rules.follow) == (index, follow)
    # The spider middleware drops a noindex page's items and a nofollow page's requests.
    mw = build_from_crawler(MetaRobotsSpiderMiddleware, crawler)
    _, response = html_response(page())
    response.meta["robots"] = directives
    links = [Request(link.url) for link in rules.links(LINKS)]
    out = list(mw.process_spider_output(response, [{"url": URL}, *links, {"url": URL + "#2"}]))
    assert [x for x in out if isinstance(x, dict)] == (
        [{"url": URL}, {"url": URL + "#2"}] if index else []
    )
    assert [x.url for x in out if isinstance(x, Request)] == (
        ["http://127.0.0.1:8000/a"] if follow else []
    )
    for event in ("noindex", "nofollow", "noarchive"):
        expected = 1 if event in counted else None  # once per page
        assert crawler.stats.get_value(f"webrobot/meta/{event}") == expected, event
    # a nofollow page's rel=nofollow links are not counted separately
    assert crawler.stats.get_value("webrobot/meta/rel_nofollow") == (1 if follow else None)


def test_store_body_is_opt_in_and_never_for_noarchive() -> None:
    assert rules_for(None)[0].store_body is False
    assert rules_for(None, WEBROBOT_STORE_BODY="True")[0].store_body is True
    assert rules_for(["nofollow"], WEBROBOT_STORE_BODY="True")[0].store_body is True
    assert rules_for(["noarchive"], WEBROBOT_STORE_BODY="True")[0].store_body is False


def test_rel_nofollow_can_be_ignored() -> None:
    rules, crawler = rules_for(None, WEBROBOT_HONOR_REL_NOFOLLOW="False")
    assert len(list(rules.links(LINKS))) == 2
    assert crawler.stats.get_value("webrobot/meta/rel_nofollow") is None


@pytest.mark.parametrize(
    ("meta", "settings"),
    [({"dont_obey_meta_robots": True}, {}), ({}, {"WEBROBOT_META_ROBOTS_ENABLED": "False"})],
)
def test_switched_off_or_opted_out_nothing_is_enforced(
    meta: dict[str, Any], settings: dict[str, Any]
) -> None:
    rules, crawler = rules_for(
        ["none", "noarchive"], meta=meta, WEBROBOT_STORE_BODY="True", **settings
    )
    assert (rules.index, rules.follow, rules.store_body) == (True, True, True)
    assert len(list(rules.links(LINKS))) == 2
    assert not any(k.startswith("webrobot/meta/") for k in crawler.stats.get_stats())
