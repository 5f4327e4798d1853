from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from webrobot.sites.config import parse_site_config
from webrobot.urls.canonical import Canonicalizer, ParamMatcher, canonical_url, canonicalizer_for

INDEX = ("index.html", "index.htm", "default.aspx")
STRIP = ("sessionid", "utm_*", "*_ref", "x*y")

#: Pairs that are one resource under the rules above.
SAME = [
    ("HTTP://Example.COM/a", "http://example.com/a"),
    ("http://example.com:80/a", "http://example.com/a"),
    ("https://example.com:443/a", "https://example.com/a"),
    ("http://example.com:080/a", "http://example.com/a"),
    ("http://user:pw@example.com:80/", "http://user:pw@example.com/"),
    ("http://[::1]:80/", "http://[::1]/"),
    ("http://example.com/a#frag", "http://example.com/a"),
    ("http://example.com/a#", "http://example.com/a"),
    ("http://example.com/~staff/", "http://example.com/%7Estaff/"),
    ("http://example.com/%7estaff/", "http://example.com/%7Estaff/"),
    ("http://example.com/caf%c3%a9", "http://example.com/caf%C3%A9"),
    ("http://example.com/café", "http://example.com/caf%C3%A9"),
    ("http://example.com/search?b=2&a=1", "http://example.com/search?a=1&b=2"),
    ("http://example.com/a?", "http://example.com/a"),
    ("http://example.com", "http://example.com/"),
    ("http://bücher.example/", "http://xn--bcher-kva.example/"),
    ("http://BÜCHER.example/", "http://xn--bcher-kva.example/"),
    ("http://Example.COM./a", "http://example.com/a"),  # the root label's dot: the same host
    ("http://user@example.com.:8080/", "http://user@example.com:8080/"),
    ("http://bücher.example./", "http://xn--bcher-kva.example/"),
    ("http://example.com/a/./b/../c", "http://example.com/a/c"),
    ("http://example.com/a/%2e%2E/c", "http://example.com/c"),
    # index_pages
    ("http://example.com/dir/index.html", "http://example.com/dir/"),
    ("http://example.com/index.htm", "http://example.com/"),
    ("http://example.com/dir/default.aspx?x=1", "http://example.com/dir/?x=1"),
    ("http://example.com/dir/index.html#top", "http://example.com/dir/"),
    # strip_params
    ("http://example.com/p?sessionid=abc", "http://example.com/p"),
    ("http://example.com/p?SessionID=abc&a=1", "http://example.com/p?a=1"),
    ("http://example.com/p?utm_source=x&utm_medium=y&a=1", "http://example.com/p?a=1"),
    ("http://example.com/p?utm%5Fsource=x", "http://example.com/p"),
    ("http://example.com/p?a=1&from_ref=z", "http://example.com/p?a=1"),
    ("http://example.com/p?xay=1&b=2", "http://example.com/p?b=2"),
    ("http://example.com/p;sessionid=abc", "http://example.com/p"),
    ("http://example.com/dir/index.html;sessionid=abc?utm_x=1", "http://example.com/dir/"),
]

#: Pairs that must stay different.
DIFFERENT = [
    ("http://example.com/A", "http://example.com/a"),  # paths keep their case
    ("http://example.com/a", "https://example.com/a"),
    ("http://example.com:8080/a", "http://example.com/a"),
    ("https://example.com:80/a", "https://example.com/a"),  # 80 is not https's default
    ("http://example.com/a", "http://example.com/a/"),
    ("http://example.com/a%2Fb", "http://example.com/a/b"),  # an encoded slash is data
    ("http://example.com/p?a=1", "http://example.com/p?a=2"),
    ("http://example.com/p?a=1", "http://example.com/p"),
    ("http://example.com/p?session=1", "http://example.com/p"),  # not a strip_params name
    ("http://example.com/p?xy_ref2=1", "http://example.com/p"),  # globs match whole names
    ("http://example.com/dir/index.php", "http://example.com/dir/"),
    ("http://example.com/dir/INDEX.HTML", "http://example.com/dir/"),  # case kept
    ("http://example.com/dir/myindex.html", "http://example.com/dir/"),
    ("http://example.com/index.html/x", "http://example.com//x"),
    ("http://example.com/p;v=2", "http://example.com/p"),
    ("http://user@example.com/", "http://example.com/"),
    ("http://example.com../", "http://example.com/"),  # not a host name: left alone
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_aliases_are_one_url(a: str, b: str) -> None:
    canon = Canonicalizer(INDEX, STRIP)
    assert canon(a) == canon(b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_resources_stay_different(a: str, b: str) -> None:
    canon = Canonicalizer(INDEX, STRIP)
    assert canon(a) != canon(b)


def test_canonical_spelling() -> None:
    assert canonical_url("HTTP://Example.COM:80/%7estaff/x.html?b=2&a=1#f") == (
        "http://example.com/~staff/x.html?a=1&b=2"
    )
    assert canonical_url("http://example.com/dir/index.html", index_pages=["index.html"]) == (
        "http://example.com/dir/"
    )


def test_without_rules_index_pages_and_params_stay() -> None:
    canon = Canonicalizer()
    assert canon("http://example.com/dir/index.html") == "http://example.com/dir/index.html"
    assert canon("http://example.com/p?sessionid=1") == "http://example.com/p?sessionid=1"


def test_non_ascii_index_page_name() -> None:
    canon = Canonicalizer(index_pages=["índice.html"])
    assert canon("http://example.com/d/%C3%ADndice.html") == "http://example.com/d/"
    assert canon("http://example.com/d/índice.html") == "http://example.com/d/"


def test_unparsable_url_is_its_own_canonical_form() -> None:
    assert Canonicalizer()("http://example.com:99999/") == "http://example.com:99999/"


def test_param_matcher() -> None:
    match = ParamMatcher(["sessionid", "utm_*", "*id", "a*b*c"])
    assert match("SESSIONID") and match("utm_") and match("utm_campaign")
    assert match("sid") and match("abc") and match("axbxc") and match("utm%5Fx")
    assert not match("utm") and not match("session") and not match("abx")
    assert not ParamMatcher([])


def test_rules_come_from_the_site_config() -> None:
    config = parse_site_config(
        'start_urls = ["http://a/"]\nindex_pages = ["index.html"]\nstrip_params = ["sid"]',
        "a.toml", "a",
    )  # fmt: skip
    canon = canonicalizer_for(config)
    assert canon("http://a/x/index.html?sid=1&q=2") == "http://a/x/?q=2"
    assert canonicalizer_for(config) is canon, "compiled once per rule set"
    assert canonicalizer_for(None)("http://a/x/index.html") == "http://a/x/index.html"


@pytest.mark.parametrize("url", ["http:////evil.example/x", "http:////m%5Bx%5D/", "http:///a"])
def test_a_url_without_a_host_does_not_gain_one(url: str) -> None:
    """w3lib keeps an empty host and a path starting with '//'; joined back
    naively, that path would turn into a host (and ``%5B`` into an IPv6 bracket)."""
    canonical = Canonicalizer()(url)
    assert urlsplit(canonical).hostname is None
