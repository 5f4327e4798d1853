"""Property-based tests (Hypothesis): no input crashes the robots.txt parser,
URL canonicalisation, meta robots parsing or site config loading, or raises
anything but the documented error. Part of the normal test command."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webrobot.pages.metarobots import (
    head_meta_directives,
    header_directives,
    parse_directives,
    policy,
)
from webrobot.robots.decoding import decode_robots_body
from webrobot.robots.parsers import FirstMatchRobotParser, Rfc9309RobotParser, crawler_token
from webrobot.sites.config import ConfigError, parse_site_config, parse_start_urls_argument
from webrobot.urls.canonical import canonical_url
from webrobot.urls.netpolicy import NetworkSettingError, parse_networks

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# robots.txt-shaped text: real directive names mixed with noise.
_directive = st.sampled_from(["User-agent", "Disallow", "Allow", "Crawl-delay", "Request-rate", "Sitemap",
                              "user agent", "Disalow", "Foo", ""])  # fmt: skip
_value = st.text(alphabet=string.printable + "\x00\xe9\u00ff*$/?%", max_size=30)
_line = st.builds(
    lambda d, sep, v: f"{d}{sep}{v}", _directive, st.sampled_from([":", ": ", " ", ""]), _value
)
robots_texts = st.lists(_line, max_size=30).map("\n".join)
robots_bodies = st.one_of(
    st.binary(max_size=400),
    robots_texts.map(lambda t: t.encode("utf-8")),
    robots_texts.map(lambda t: b"\xff\xfe" + t.encode("utf-8", "replace")),
    robots_texts.map(lambda t: t.encode("utf-16")),
)
paths = st.text(alphabet=string.ascii_letters + string.digits + "/%?=&*$.-_~\xe9", max_size=30)
agents = st.one_of(st.sampled_from(["webrobot", "*", "Mozilla/5.0 (compatible; ExampleBot/0.1)"]),
                   st.text(max_size=40))  # fmt: skip


@FAST
@given(robots_bodies, paths, agents)
def test_robots_parsers_never_fail(body: bytes, path: str, agent: str) -> None:
    text, problems = decode_robots_body(body)
    assert isinstance(text, str) and all(isinstance(p, str) for p in problems)
    url = "http://a.example/" + path.lstrip("/")
    for parser_cls in (Rfc9309RobotParser, FirstMatchRobotParser):
        parser = parser_cls(body)
        assert parser.allowed(url, agent) in (True, False)
        delay = parser.crawl_delay(agent)
        assert delay is None or delay >= 0
        assert parser.allowed("http://a.example/robots.txt", agent), (
            "robots.txt itself is always allowed"
        )


@FAST
@given(robots_texts, paths)
def test_a_valid_rule_survives_junk_around_it(noise: str, path: str) -> None:
    """The rule group after any junk lines still applies, however the body starts."""
    rules = "\n\nUser-agent: webrobot\nDisallow: /private\n"
    for prefix in (b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00"):
        body = prefix + (noise.replace("webrobot", "x").replace("User", "U") + rules).encode(
            "utf-8"
        )
        parser = Rfc9309RobotParser(body)
        assert not parser.allowed("http://a.example/private/" + path, "webrobot"), body[:80]


@FAST
@given(st.text(max_size=80))
def test_crawler_token_is_a_lower_case_token(agent: str) -> None:
    token = crawler_token(agent)
    assert token == token.lower() and all(c.isalpha() or c in "_-" for c in token)


urls = st.one_of(
    st.text(max_size=60),
    st.builds(lambda scheme, host, path: f"{scheme}://{host}/{path}",
              st.sampled_from(["http", "https", "HTTP", "ftp"]),
              st.text(alphabet=string.ascii_letters + string.digits + ".-:[]@%", min_size=1, max_size=20),
              st.text(max_size=30)),
)  # fmt: skip


@FAST
@given(urls, st.lists(st.sampled_from(["index.html", "default.asp"]), max_size=2),
       st.lists(st.sampled_from(["utm_*", "sid", "*"]), max_size=2))  # fmt: skip
def test_canonicalisation_never_fails_and_is_stable(
    url: str, index_pages: list[str], strip: list[str]
) -> None:
    once = canonical_url(url, index_pages, strip)
    assert isinstance(once, str)
    assert canonical_url(once, index_pages, strip) == canonical_url(once, index_pages, strip)


@FAST
@given(st.text(max_size=80), st.text(max_size=200))
def test_meta_robots_parsing_never_fails(content: str, html: str) -> None:
    directives = parse_directives(content)
    assert all(isinstance(d, str) for d in directives)
    result = policy(directives)
    assert result.index in (True, False) and result.follow in (True, False)
    assert isinstance(header_directives(content, "webrobot"), list)
    assert isinstance(
        head_meta_directives(f"<head><meta name='robots' content='{content}'>{html}", "webrobot"),
        list,
    )


toml_values = st.recursive(
    st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans(), st.text(max_size=10)),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=10,
)
_toml_keys = st.sampled_from(["start_urls", "allowed_domains", "allow", "deny", "depth_limit", "max_pages",
                              "download_delay", "concurrency", "user_agent", "from", "index_pages",
                              "strip_params", "colour"])  # fmt: skip


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return repr(value)


@FAST
@given(st.dictionaries(_toml_keys, toml_values, max_size=5), st.text(max_size=40))
def test_site_config_loading_raises_only_config_error(data: dict[str, object], junk: str) -> None:
    for text in ("\n".join(f"{k} = {_toml(v)}" for k, v in data.items()), junk):
        try:
            config = parse_site_config(text, "site.toml", "site")
        except ConfigError as exc:
            assert str(exc).startswith("site.toml")
        else:
            assert config.start_urls


@FAST
@given(st.one_of(st.text(max_size=60), st.lists(st.text(max_size=20), max_size=3)))
def test_start_url_arguments_raise_only_config_error(value: object) -> None:
    try:
        urls = parse_start_urls_argument(value)
    except ConfigError:
        return
    assert urls and all(
        u.startswith(("http://", "https://", "HTTP", "Http")) or "://" in u for u in urls
    )


@FAST
@given(st.one_of(st.text(max_size=40), st.lists(st.text(max_size=20), max_size=3)))
def test_blocked_networks_raise_only_their_error(value: object) -> None:
    try:
        parse_networks(value)
    except NetworkSettingError as exc:
        assert "WEBROBOT_BLOCKED_NETWORKS" in str(exc)
