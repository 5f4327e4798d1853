"""The main text's fast reading (resiliparse: what the full-text index reads when the
mining did not) on realistic pages: the article is kept whole, the page's furniture
(menu, cookie banner, sidebar, comments, footer, scripts) is not indexed; the full
reading (trafilatura) drops the same furniture through the same interface."""

from __future__ import annotations

import sys

import pytest

from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.pagelanguage import page_language
from webrobot.optional import MissingExtra
from webrobot.search.worker import MAX_TEXT, PageToIndex, check_installed, page_text

pytest.importorskip("resiliparse")


def fast(html: str) -> str | None:
    return main_text(SourcePage("http://a.test/p", html), mode="fast")


ARTICLE = [
    "Harbour Lights Return To The Old Quay",
    (
        "After eleven years of darkness the lantern on the northern breakwater was relit on "
        "Tuesday evening, watched by a crowd of several hundred people along the quay."
    ),
    (
        "The restoration was paid for by a village collection and carried out by volunteers "
        "from the maritime museum, who spent two winters repairing the brass lamp housing."
    ),
    (
        "Harbour master Ingrid Solberg said the light would again guide the small fishing "
        "boats that still leave the harbour before dawn every morning of the season."
    ),
]

NAV_WORDS = ["Frontpage", "Weatherdesk", "Sportsround", "Subscribe"]
BANNER = "We use cookies to improve your experience. Accept all cookiewall"
SIDEBAR = ["Trending elsewhere", "Ten sidebarish recipes for the weekend"]
FOOTER = ["Privacypolicy", "Copyright 2026 Coastal Gazette Footermark"]
COMMENT = "Firstcommenter says this is wonderful news"


def realistic_page(landmarks: bool) -> str:
    menu = "".join(f'<li><a href="/{w.lower()}">{w}</a></li>' for w in NAV_WORDS)
    related = "".join(f'<li><a href="/r/{i}">{s}</a></li>' for i, s in enumerate(SIDEBAR))
    legal = " | ".join(f'<a href="/legal/{i}">{w}</a>' for i, w in enumerate(FOOTER))
    article = f"<h1>{ARTICLE[0]}</h1>" + "".join(f"<p>{p}</p>" for p in ARTICLE[1:])
    comments = f'<section class="comments"><h3>Comments</h3><p>{COMMENT}</p></section>'
    if landmarks:
        body = (
            f'<header><div class="logo">Coastal Gazette</div><nav><ul>{menu}</ul></nav></header>'
            f'<div class="cookie-banner"><p>{BANNER}</p><button>OK</button></div>'
            f"<main><article>{article}</article>{comments}</main>"
            f"<aside><h2>Related</h2><ul>{related}</ul></aside>"
            f"<footer><p>{legal}</p></footer>"
        )
    else:
        body = (
            f'<div id="header"><div class="logo">Coastal Gazette</div>'
            f'<div class="menu"><ul>{menu}</ul></div></div>'
            f'<div class="cookie-banner"><p>{BANNER}</p></div>'
            f'<div id="wrap"><div class="content">{article}</div>{comments}'
            f'<div class="sidebar"><h2>Related</h2><ul>{related}</ul></div></div>'
            f'<div id="footer"><p>{legal}</p></div>'
        )
    return (
        "<!DOCTYPE html><html lang='en-GB'><head><meta charset='utf-8'>"
        f"<title>{ARTICLE[0]} | Coastal Gazette</title>"
        "<script>var scriptword = 1;</script><style>.stylemark { color: red }</style>"
        f"</head><body>{body}<script>loadScriptAds();</script></body></html>"
    )


@pytest.mark.parametrize("landmarks", [True, False], ids=["html5-landmarks", "divs-only"])
def test_the_article_is_kept_and_the_furniture_dropped(landmarks: bool) -> None:
    html = realistic_page(landmarks)
    text = fast(html)
    assert text is not None
    # the whole article, one paragraph per line, in reading order
    assert text.splitlines() == ARTICLE
    for furniture in [*NAV_WORDS, BANNER, *SIDEBAR, *FOOTER, COMMENT, "Coastal Gazette"]:
        assert furniture not in text
    for code in ("scriptword", "loadScriptAds", "stylemark"):
        assert code not in text


@pytest.mark.parametrize("landmarks", [True, False], ids=["html5-landmarks", "divs-only"])
def test_the_full_reading_drops_the_same_furniture(landmarks: bool) -> None:
    pytest.importorskip("trafilatura")
    text = main_text(SourcePage("http://a.test/p", realistic_page(landmarks)), mode="full")
    assert text is not None
    for paragraph in ARTICLE[1:]:
        assert paragraph in text
    for furniture in [*NAV_WORDS, BANNER, *SIDEBAR, *FOOTER, COMMENT, "scriptword"]:
        assert furniture not in text


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="'quick'"):
        main_text(SourcePage("http://a.test/p", "<p>x</p>"), mode="quick")  # type: ignore[arg-type]


def test_without_resiliparse_the_fast_reading_names_the_search_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "resiliparse.extract.html2text", None)
    with pytest.raises(MissingExtra, match=r"webrobot\[search\]"):
        fast("<p>x</p>")


def test_language_from_the_page_else_the_header() -> None:
    assert page_language(b"<html lang='pt-BR'><p>x</p>") == "pt"
    assert page_language(b"<html><p>x</p>", "de-AT, en") == "de"
    assert page_language(b"<html><p>x</p>", "not a language") is None
    assert page_language(b"<html><p>x</p>") is None


@pytest.mark.parametrize(
    "html",
    [
        "",
        "  ",
        "<html></html>",
        "<p>",
        "\x00\x01 not html at all <<<>>>",
        "<html><body><nav>x</nav>",
    ],
)
def test_empty_or_broken_pages_give_text_or_none_not_an_error(html: str) -> None:
    text = fast(html)
    assert text is None or (isinstance(text, str) and text.strip())


def record(body: bytes, main_text: str | None = None) -> PageToIndex:
    return PageToIndex("http://a.test/p", "http://a.test:80", "a.test", "T", "", body, "utf-8",
                       main_text=main_text)  # fmt: skip


def test_the_index_reads_the_fast_text_and_cuts_huge_pages_to_the_kept_length() -> None:
    paragraph = "<p>" + "lighthouse keeper " * 500 + "</p>"
    html = "<html><body><article>" + paragraph * 100 + "</article></body></html>"
    text = page_text(record(html.encode()))
    assert len(text) == MAX_TEXT
    assert text.startswith("lighthouse keeper")
    assert page_text(record(realistic_page(True).encode())).splitlines() == ARTICLE


def test_the_index_keeps_an_items_own_text_and_cuts_it_too() -> None:
    assert page_text(record(realistic_page(True).encode(), "Mined text.")) == "Mined text."
    assert page_text(record(b"<p>body words</p>", "")) == ""
    assert len(page_text(record(b"", "w" * (MAX_TEXT + 5)))) == MAX_TEXT


def test_the_search_extra_is_checked_without_importing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    check_installed()
    monkeypatch.setitem(sys.modules, "tantivy", None)  # as if not installed
    with pytest.raises(MissingExtra) as caught:
        check_installed()
    assert str(caught.value) == (
        "The full-text index (WEBROBOT_INDEX_ENABLED) needs the 'tantivy' package, "
        "which is not installed: pip install 'webrobot[search]'"
    )
