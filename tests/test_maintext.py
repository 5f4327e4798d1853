"""The main-text extractor on small pages written here: what it keeps, what it drops,
and that no page makes it raise."""

from __future__ import annotations

import json
import sys
from typing import Any

import lxml.etree
import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract import largepage, maintext
from webrobot.extract.largepage import is_large
from webrobot.extract.maintext import _CONTROL, _SPACES, choose, main_text, prefer_declared, tidy
from webrobot.extract.page import SourcePage
from webrobot.optional import MissingExtra

ENGLISH = [
    (
        "The river harbour was rebuilt last spring after the old stone quay collapsed during "
        "the winter storms, and the village council paid for most of the work itself."
    ),
    (
        "Engineers from the northern railway company measured the new walls twice a week for "
        "three months, and they recorded no movement at all in the foundations."
    ),
    (
        "Fishermen say the deeper berths now let larger boats unload at low tide, which used to "
        "be impossible, and the morning market has grown by a third since the reopening."
    ),
    (
        "The museum beside the lighthouse will open an exhibition about the quay's history in "
        "June, with photographs collected from families who have lived here for generations."
    ),
]
JAPANESE = [
    "昨年の春、冬の嵐で古い石の岸壁が崩れた後、川の港は再建され、村の議会が工事費用の大部分を負担した。",
    "北部鉄道会社の技術者たちは三か月間、毎週二回新しい壁を測定し、基礎にまったく動きがないことを記録した。",
    "漁師たちによると、深くなった岸壁のおかげで干潮時でも大型船が荷揚げできるようになり、朝市は再開以来三分の一ほど大きくなった。",
    "灯台の隣にある博物館では、六月に岸壁の歴史をテーマにした展示が開かれ、何世代にもわたってここに住む家族から集めた写真が並ぶ。",
]
RUSSIAN = [
    (
        "Речную гавань перестроили прошлой весной после того, как старая каменная пристань "
        "обрушилась во время зимних штормов, и сельский совет оплатил большую часть работ."
    ),
    (
        "Инженеры северной железнодорожной компании измеряли новые стены дважды в неделю в "
        "течение трёх месяцев и не зафиксировали никакого движения фундамента."
    ),
    (
        "Рыбаки говорят, что более глубокие причалы теперь позволяют крупным судам разгружаться "
        "во время отлива, а утренний рынок вырос на треть после открытия."
    ),
]
ARABIC = [
    (
        "أعيد بناء ميناء النهر في الربيع الماضي بعد انهيار الرصيف الحجري القديم خلال عواصف "
        "الشتاء، ودفع مجلس القرية معظم تكاليف العمل بنفسه."
    ),
    (
        "قام مهندسو شركة السكك الحديدية الشمالية بقياس الجدران الجديدة مرتين في الأسبوع لمدة "
        "ثلاثة أشهر، ولم يسجلوا أي حركة على الإطلاق في الأساسات."
    ),
    (
        "يقول الصيادون إن الأرصفة الأعمق تسمح الآن للقوارب الكبيرة بالتفريغ عند انخفاض المد، "
        "وقد نما سوق الصباح بمقدار الثلث منذ إعادة الافتتاح."
    ),
]
MENU = ["Home", "World", "Politics", "Business", "Technology", "Science", "Sport", "Culture"]
COOKIE = "We use cookies to improve your experience. Accept all cookies or manage your settings."
AD = "Advertisement: subscribe today and save forty percent on your first year of access."
FOOTER = "Copyright 2026 The Harbour Gazette. Privacy policy. Terms of use. Contact us."
COMMENT = "Great article, thanks for sharing! I grew up near this harbour and loved it."
SCRIPT = "window.analyticsQueue = window.analyticsQueue || []; trackPageView();"


def article_page(
    paragraphs: list[str], lang: str = "en", title: str = "The harbour", kind: str = "article"
) -> str:
    menu = "".join(f'<li><a href="/{w.lower()}">{w}</a></li>' for w in MENU)
    related = "".join(
        f'<li><a href="/story/{i}">Another story about the harbour number {i}</a></li>'
        for i in range(8)
    )
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta property="og:type" content="{kind}">'
        f"<script>{SCRIPT}</script><style>body {{ color: black; }}</style></head><body>"
        f'<header><nav><ul>{menu}</ul></nav></header><div class="cookie-banner">{COOKIE}</div>'
        f"<main><article><h1>{title}</h1>{body}</article></main>"
        f'<aside class="sidebar"><h2>Related</h2><ul>{related}</ul><div class="ad">{AD}</div></aside>'
        f'<section id="comments" class="comments"><h3>Comments</h3><div class="comment">'
        f"<p>{COMMENT}</p></div></section>"
        f"<footer><p>{FOOTER}</p></footer><script>{SCRIPT}</script></body></html>"
    )


def crawl_page(html: str, url: str = "https://example.org/news/harbour") -> SourcePage:
    """The page as the glue builds it: the tree of Scrapy's selector."""
    return SourcePage(url=url, html=html, root=Selector(text=html, type="html").root)


def assert_article(text: str | None, paragraphs: list[str]) -> None:
    assert text is not None
    lines = text.splitlines()
    for paragraph in paragraphs:
        assert paragraph in lines, paragraph
    for noise in (COOKIE, AD, FOOTER, COMMENT, SCRIPT, "Politics", "Another story"):
        assert noise not in text, noise


def test_keeps_the_article_and_drops_the_boilerplate() -> None:
    assert_article(main_text(crawl_page(article_page(ENGLISH))), ENGLISH)


@pytest.mark.parametrize("menu", ["<nav>{links}</nav>", "<div role='navigation'>{links}</div>"])
def test_a_short_pages_menu_is_not_its_text(menu: str) -> None:
    links = "".join(f"<a href='/{n}'>Section {n}</a>" for n in ("news", "sport", "weather"))
    html = (
        "<html><head><title>Home</title></head><body>" + menu.format(links=links)
        + "<main><h1>Home</h1><p>Welcome to the harbour town site.</p></main></body></html>"
    )  # fmt: skip
    text = main_text(crawl_page(html))
    assert text is not None and "Welcome to the harbour town site." in text
    assert "Section" not in text


def test_the_headline_is_not_repeated_in_the_text() -> None:
    text = main_text(crawl_page(article_page(ENGLISH, title="Harbour rebuilt after the storm")))
    assert text == "\n".join(ENGLISH)


def test_paragraphs_are_lines_with_no_empty_lines_or_stray_spaces() -> None:
    spaced = [p.replace(" ", "  \n\t ", 3) for p in ENGLISH]
    text = main_text(crawl_page(article_page(spaced)))
    assert text is not None
    assert text.splitlines()[-len(ENGLISH) :] == ENGLISH
    assert all(line == line.strip() and line and "  " not in line for line in text.splitlines())


@pytest.mark.parametrize(
    ("paragraphs", "lang"), [(JAPANESE, "ja"), (RUSSIAN, "ru"), (ARABIC, "ar")]
)
def test_any_script(paragraphs: list[str], lang: str) -> None:
    assert_article(main_text(crawl_page(article_page(paragraphs, lang))), paragraphs)


def test_the_crawls_tree_is_left_as_it_was() -> None:
    page = crawl_page(article_page(ENGLISH).replace("<p>", "<p><!-- note -->", 2))
    before = lxml.etree.tostring(page.root)
    text = main_text(page)
    assert lxml.etree.tostring(page.root) == before
    # the text after a comment inside a paragraph is kept
    assert_article(text, ENGLISH)


def test_the_crawls_tree_is_left_as_it_was_when_it_cannot_be_pruned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def failing(tree: object, unread: bool = True) -> object:
        raise ValueError("no pruning")

    monkeypatch.setattr(maintext, "reading_tree", failing)
    page = crawl_page(article_page(ENGLISH))
    before = lxml.etree.tostring(page.root)
    assert_article(main_text(page), ENGLISH)
    assert lxml.etree.tostring(page.root) == before


def test_without_the_crawls_tree_the_html_is_parsed() -> None:
    html = article_page(ENGLISH)
    assert_article(main_text(SourcePage(url="https://example.org/", html=html)), ENGLISH)
    xml_tree = lxml.etree.fromstring(b"<html><body><p>x</p></body></html>")
    assert_article(main_text(SourcePage("https://example.org/", html, root=xml_tree)), ENGLISH)


@pytest.mark.parametrize(
    "html",
    ["", "   \n ", "<html></html>", "<html><body></body></html>", "<html><body> </body></html>"],
)
def test_an_empty_page_gives_none(html: str) -> None:
    root = Selector(text=html, type="html").root if html.strip() else None
    assert main_text(SourcePage("https://example.org/", html, root=root)) is None


def test_control_characters_in_the_page_do_not_lose_it() -> None:
    """lxml keeps them in the crawl's tree but will not serialise them."""
    with_bells = [p.replace(" ", "\x07 ", 2).replace("the", "the\x0b", 1) for p in ENGLISH]
    html = article_page(with_bells)
    page = crawl_page(html)
    assert "\x07" in "".join(page.root.itertext())
    assert_article(main_text(page), ENGLISH)


def test_broken_markup_still_gives_the_article() -> None:
    html = article_page(ENGLISH)
    broken = (
        html.replace("</p>", "", 3)
        .replace("<main>", "<main><div><span><b>")
        .replace("</article>", "</div></div></table></article")
        .replace("<!DOCTYPE html>", "\x00\ufeff<!DOCTYPE html>")
    )
    text = main_text(crawl_page(broken))
    assert text is not None
    for paragraph in ENGLISH:
        assert paragraph in text
    assert COOKIE not in text and FOOTER not in text


def declared_page(body_html: str, declared: object, scripts: str = "") -> str:
    block = declared if isinstance(declared, str) else json.dumps(declared)
    return (
        "<html><head><title>App</title>"
        f'<script type="application/ld+json">{block}</script>{scripts}</head>'
        f"<body>{body_html}</body></html>"
    )


def test_an_app_shell_gives_the_declared_article_body() -> None:
    declared = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "name": "The Harbour Gazette"},
            {"@type": "NewsArticle", "articleBody": "<p>" + "</p><p>".join(ENGLISH) + "</p>"},
        ],
    }
    shell = '<div id="app">Loading&hellip;</div><noscript>Please enable JavaScript.</noscript>'
    assert main_text(crawl_page(declared_page(shell, declared))) == "\n".join(ENGLISH)


def test_a_declared_teaser_does_not_replace_the_article() -> None:
    teaser = {"@type": "NewsArticle", "articleBody": ENGLISH[0][:80]}
    html = article_page(ENGLISH).replace(
        "</head>", f'<script type="application/ld+json">{json.dumps(teaser)}</script></head>'
    )
    assert_article(main_text(crawl_page(html)), ENGLISH)


def test_a_declared_body_about_something_else_does_not_replace_a_short_article() -> None:
    other = {"@type": "NewsArticle", "articleBody": " ".join(RUSSIAN * 3)}
    html = declared_page("<article><p>" + "</p><p>".join(ENGLISH[:2]) + "</p></article>", other)
    assert main_text(crawl_page(html)) == "\n".join(ENGLISH[:2])


@pytest.mark.parametrize(
    "block",
    [
        "{not json at all",
        "[" * 100_000,
        '{"articleBody": 42}',
        '"just a string"',
        "",
        '<!-- {"articleBody": "short"} -->',
    ],
)
def test_json_ld_that_is_not_usable_leaves_the_markup(block: str) -> None:
    html = article_page(ENGLISH).replace(
        "</head>", f'<script type="application/ld+json">{block}</script></head>'
    )
    assert_article(main_text(crawl_page(html)), ENGLISH)


def readings(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, bool]]:
    """The options of every trafilatura reading main_text makes, in order (the report a
    reading may be given left out)."""
    calls: list[dict[str, bool]] = []
    real = maintext._read

    def counting(trafilatura: object, tree: object, **focus: Any) -> tuple[str | None, object]:
        calls.append({k: v for k, v in focus.items() if k != "report"})
        return real(trafilatura, tree, **focus)

    monkeypatch.setattr(maintext, "_read", counting)
    return calls


PRECISE = {"fast": True, "favor_precision": True}


def test_a_5_mb_page(monkeypatch: pytest.MonkeyPatch) -> None:
    filler = "".join(
        f'<div class="teaser"><a href="/s/{i}">Teaser link {i}</a> <span>{i} comments</span></div>'
        for i in range(60_000)
    )
    html = article_page(ENGLISH).replace("<footer>", filler + "<footer>")
    assert len(html) > 5_000_000
    page = crawl_page(html)
    assert is_large(page.root)
    calls = readings(monkeypatch)
    text = main_text(page)
    assert text is not None and ENGLISH[0] in text
    assert_article(text, ENGLISH)
    assert "Teaser link" not in text
    # Its short precise reading is trusted: no broad reading, no fallbacks.
    assert calls == [PRECISE]


def test_a_large_page_keeps_a_short_precise_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    html = article_page(ENGLISH[:1])
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 1_000_000)
    calls = readings(monkeypatch)
    small = main_text(crawl_page(html))
    assert calls == [PRECISE, {"fast": False}]
    calls.clear()
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 20)
    assert main_text(crawl_page(html)) == small
    assert calls == [PRECISE]


def test_a_large_page_with_no_precise_text_is_read_broadly_without_fallbacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[dict[str, bool]] = []

    def reading(trafilatura: object, tree: object, **focus: Any) -> tuple[str | None, object]:
        calls.append({k: v for k, v in focus.items() if k != "report"})
        return (None, None) if focus.get("favor_precision") else (LONG, None)

    monkeypatch.setattr(maintext, "_read", reading)
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 20)
    assert main_text(crawl_page(article_page(ENGLISH))) == LONG
    assert calls == [PRECISE, {"fast": True}]


def test_missing_trafilatura_is_an_import_error_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)
    with pytest.raises(MissingExtra, match=r"pip install 'webrobot\[mining\]'") as caught:
        main_text(crawl_page(article_page(ENGLISH)))
    assert isinstance(caught.value, ImportError)


def test_an_extractor_failure_on_a_page_is_no_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    from webrobot.extract import trafilaturacompat

    def broken(*args: object, **kwargs: object) -> str:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(trafilaturacompat, "read", broken)
    assert main_text(crawl_page(article_page(ENGLISH))) is None


SHORT = "one two three four five six"
LONG = " ".join(f"w{i}" for i in range(40))
LONG_TRIMMED = " ".join(f"w{i}" for i in range(5, 40))


@pytest.mark.parametrize(
    ("precise", "broad", "expected"),
    [
        (None, None, None),
        (None, LONG, LONG),
        (LONG, None, LONG),
        (LONG_TRIMMED, LONG, LONG_TRIMMED),  # a trim of the broad text
        (SHORT, LONG, LONG),  # lost most of it
        ("x1 x2 x3 x4 x5 x6 x7 x8 x9 x10", LONG, LONG),  # something else
        (LONG + " extra words at the end", LONG, LONG + " extra words at the end"),
    ],
)
def test_choose(precise: str | None, broad: str | None, expected: str | None) -> None:
    assert choose(precise, broad) == expected


@pytest.mark.parametrize(
    ("text", "declared", "expected"),
    [
        (None, None, None),
        ("markup", None, "markup"),
        (None, LONG, LONG),
        (SHORT, None, SHORT),
        ("w0 w1 w2 w3 w4", LONG, LONG),  # the markup has only its start: the same article
        ("z0 z1 z2 z3 z4", LONG, "z0 z1 z2 z3 z4"),  # another text: the markup wins
        (LONG_TRIMMED, LONG, LONG_TRIMMED),  # the markup has most of it
    ],
)
def test_prefer_declared(text: str | None, declared: str | None, expected: str | None) -> None:
    assert prefer_declared(text, declared) == expected


def test_tidy() -> None:
    assert tidy(None) is None
    assert tidy(" \n\t\n ") is None
    assert tidy("  a \t b \n\n  c  \r\n") == "a b\nc"
    assert tidy("x\x00y\x1b[0m \x7f\n\x01\x02") == "xy[0m"


def test_tidy_without_control_characters_is_the_same_as_with_them() -> None:
    # the split-and-join of a text without control characters against the expressions
    # every text went through, on every white space and line break Python knows
    spaces = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    plain = _CONTROL.sub("", spaces)  # without the control characters that are spaces too
    assert "\xa0" in plain and "\x85" in plain and "\x0b" not in plain
    breaks = "\n\r\x85\u2028\u2029"
    texts = [f" a{spaces}b ", f"{spaces}x\u200by{spaces}", f"p{breaks}q \u3000r\xa0", spaces]
    texts += [f" a{plain}b ", f"{plain}x{plain}y\n{plain}", plain]
    texts += ["\u00a0\u00fc\tz\n\n w \r\n", "one line", "a\u2028 b\u2029\u2029c\x85d"]
    for text in texts:
        slow = (_SPACES.sub(" ", _CONTROL.sub("", line)).strip() for line in text.splitlines())
        assert tidy(text) == ("\n".join(line for line in slow if line) or None)


def test_a_page_that_is_no_article_gets_one_broad_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = readings(monkeypatch)
    text = main_text(crawl_page(article_page(ENGLISH, kind="website")))
    assert calls == [{"fast": False}]
    assert_article(text, ENGLISH)
    calls.clear()
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 20)
    main_text(crawl_page(article_page(ENGLISH, kind="website")))
    assert calls == [{"fast": True}], "a large page: without the fallbacks"


def test_a_large_product_page_is_read_without_fallbacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A product page is large from a lower bound than any other page: its fallbacks,
    looking for the largest block of text, read its menus and filters."""
    monkeypatch.setattr(largepage, "LARGE_PRODUCT_ELEMENTS", 20)
    calls = readings(monkeypatch)
    main_text(crawl_page(article_page(ENGLISH, kind="product")))
    assert calls == [{"fast": True}]
    calls.clear()
    main_text(crawl_page(article_page(ENGLISH, kind="website")))
    assert calls == [{"fast": False}], "another page of the same size: with the fallbacks"
    calls.clear()
    monkeypatch.setattr(largepage, "LARGE_PRODUCT_ELEMENTS", 1_000_000)
    main_text(crawl_page(article_page(ENGLISH, kind="product")))
    assert calls == [{"fast": False}], "a product page under the bound: with the fallbacks"


def test_a_long_precise_reading_is_trusted_without_the_broad_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = readings(monkeypatch)
    long_article = ENGLISH * 4
    assert len("".join(long_article)) > maintext.TRUSTED_LENGTH
    main_text(crawl_page(article_page(long_article)))
    assert calls == [PRECISE]
    calls.clear()
    main_text(crawl_page(article_page(ENGLISH[:1])))
    assert calls == [PRECISE, {"fast": False}]


TAGS = ["p", "div", "article", "main", "nav", "script", "style", "table", "td", "li", "a", "br"]
HTMLISH = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(TAGS).map(lambda t: f"<{t}>"),
        st.sampled_from(TAGS).map(lambda t: f"</{t}>"),
        st.sampled_from(["<!--", "-->", "<![CDATA[", "&amp;", "&#0;", "\x00", "\ud800"[:0]]),
        st.just('<script type="application/ld+json">{"articleBody": "x'),
    ),
    max_size=40,
).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HTMLISH, st.booleans())
def test_never_raises_on_html_ish_text(html: str, with_tree: bool) -> None:
    root = None
    if with_tree:
        try:
            root = Selector(text=html, type="html").root
        except (ValueError, lxml.etree.LxmlError):  # the crawl then has no tree either
            root = None
    text = main_text(SourcePage("https://example.org/", html, root=root))
    assert text is None or (text and all(line.strip() for line in text.splitlines()))
    reading = maintext.main_reading(SourcePage("https://example.org/", html, root=root))
    assert reading.text == text
    assert (reading.markdown is None) == (text is None)


def test_lxml_html_trees_work_too() -> None:
    html = article_page(ENGLISH)
    root = lxml.html.document_fromstring(html)
    assert_article(main_text(SourcePage("https://example.org/", html, root=root)), ENGLISH)


def test_a_page_that_ends_its_document_before_its_body_is_read_whole() -> None:
    """A blog theme's head closes the document (``</head></html>``) before the body."""
    html = (
        "<!DOCTYPE html><html><head><title>Hello World | Blog</title>"
        "<meta property='og:type' content='article'></head>\n</html>\n<body>"
        "<nav><a href='/'>Home</a></nav><article><h1>Hello World</h1>"
        + "<p>Welcome to the blog: this first post says how it is written and built.</p>"
        * 4
        + "<h2>Quick start</h2><p>Write a post, build the site, deploy it anywhere.</p>"
        "</article><footer>Powered by the theme</footer></body></html>"
    )
    text = main_text(SourcePage("http://blog.test/hello/", html)) or ""
    assert "Quick start" in text and "Write a post, build the site" in text
    assert "Powered by" not in text


def test_a_cookie_policy_page_keeps_its_policy() -> None:
    """The policy sits in a box whose class names cookies; trafilatura alone keeps it."""
    part = "We use cookies to remember your settings; this part says which, and for how long. "
    policy = "".join(f"<h2>Part {n}</h2><p>{part * 3}</p>" for n in range(3))
    html = (
        "<html><head><title>Cookie policy | Example Ltd</title></head><body><nav><a href='/'>"
        f"Home</a></nav><div class='page'><h1>Cookie policy</h1><div class='cookie-policy-content'>"
        f"{policy}</div></div><footer>Example Ltd</footer></body></html>"
    )
    page = SourcePage("https://example.com/cookies/", html, Selector(text=html).root)
    text = main_text(page) or ""
    assert "Part 2" in text and text.count("We use cookies") == 9
