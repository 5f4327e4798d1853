"""A documentation theme's chrome (``webrobot/extract/docchrome.py``): skip links, tables of
contents, breadcrumbs and version badges left out of the main text; and the main text of
real Docusaurus pages, where the site's snapshot is on this machine."""

from __future__ import annotations

import os
from pathlib import Path

import lxml.html
import pytest

from webrobot.extract.docchrome import (
    is_contents,
    is_skip_link,
    is_version_badge,
    names_contents,
    names_version_picker,
    without_doc_chrome,
    words,
)


def _element(html: str):
    return lxml.html.fragment_fromstring(html)


def test_class_and_id_words_split_at_dashes_underscores_and_camel_case() -> None:
    assert words("tableOfContents_cNA8") == ["table", "of", "contents", "c", "na", "8"]
    assert words("theme-doc-toc-mobile") == ["theme", "doc", "toc", "mobile"]
    assert words("VPSkipLink") == ["vp", "skip", "link"]


def test_names_of_tables_of_contents_and_breadcrumbs() -> None:
    for name in (
        "theme-doc-toc-mobile",
        "tocCollapsible_jdIR",
        "tableOfContents_cNA8",
        "TableOfContents",
        "table-of-contents",
        "breadcrumbs",
        "wall-breadcrumbs__list",
        "toc",
    ):
        assert names_contents(name), name
    # Sphinx's list of a section's pages is an index page's content; "contents" alone
    # and words that only contain the letters are not a table of contents
    for name in ("toctree-wrapper compound", "content", "page-contents-body", "protocol", "stock"):
        assert not names_contents(name), name


def test_names_of_version_badges_and_pickers() -> None:
    for name in ("theme-doc-version-badge badge", "theme-doc-version-banner", "rst-versions",
                 "version-switcher__button", "md-version__list versionMenu"):  # fmt: skip
        assert names_version_picker(name), name
    for name in ("version", "md-version", "release-version-history", "conversion-badge"):
        assert not names_version_picker(name), name


def test_skip_links_are_named_by_their_class_or_their_target() -> None:
    assert is_skip_link(_element('<a href="#" class="skipToContent_ZgBM">跳到主要内容</a>'))
    assert is_skip_link(_element('<a href="#main-content">Skip to main content</a>'))
    assert is_skip_link(_element('<a href="#content" class="screen-reader-text">Content</a>'))
    assert is_skip_link(_element('<a href="#VPContent" class="VPSkipLink">Skip to content</a>'))
    # a button that does the same, named by its class
    assert is_skip_link(_element('<button class="HiddenSkip">Skip to main content</button>'))
    assert not is_skip_link(_element('<button class="menu-toggle">Menu</button>'))
    # another fragment, another page, a long text, a link of the content itself
    assert not is_skip_link(_element('<a href="#install">Installation</a>'))
    assert not is_skip_link(_element('<a href="/main" class="skip">Skip</a>'))
    long = "Skip to the part of this page that explains how the tool is installed"
    assert not is_skip_link(_element(f'<a href="#main" class="skip-link">{long}</a>'))
    tree = lxml.html.fromstring(
        '<html><body><main><p>See <a href="#content">the content</a>.</p></main></body></html>'
    )
    assert not is_skip_link(tree.find(".//a"))


def test_tables_of_contents_read_as_links_or_a_short_button() -> None:
    toc = _element(
        '<div class="tableOfContents_cNA8"><ul class="table-of-contents">'
        '<li><a href="#a">Installing</a></li><li><a href="#b">Running</a></li></ul></div>'
    )
    assert is_contents(toc)
    button = '<div class="theme-doc-toc-mobile"><button>On this page</button></div>'
    assert is_contents(_element(button))
    assert is_contents(_element('<div aria-label="Table of contents"><a href="#a">A</a></div>'))
    assert is_contents(_element('<ol aria-label="breadcrumbs"><li><a href="/">Home</a></li></ol>'))
    prose = (
        '<div class="has-toc"><p>The tool reads its settings from a file, then from the'
        " environment, and the last one read wins; <a href='#env'>the environment</a>"
        " is read last of all, so that a deployment can change one value.</p></div>"
    )
    assert not is_contents(_element(prose))  # its text is not links: content
    assert not is_contents(_element('<h2 class="wp-block-heading toc">Why trust us</h2>'))


def test_version_badges_are_short() -> None:
    assert is_version_badge(_element('<span class="theme-doc-version-badge">Version: Next</span>'))
    long = "<p>" + "This release changed how settings are read. " * 10 + "</p>"
    assert not is_version_badge(_element(f'<div class="version-banner">{long}</div>'))


DOCS_PAGE = """<html><head><title>Quick start | Tool</title></head><body>
<div role="region"><a href="#" class="skipToContent_ZgBM">Skip to main content</a></div>
<nav class="navbar"><a href="/docs/intro">Docs</a><a href="/blog">Blog</a></nav>
<div class="main-wrapper"><aside class="theme-doc-sidebar-container"><ul>
<li><a href="/docs/intro">Introduction</a></li><li><a href="/docs/quickstart">Quick start</a></li>
</ul></aside><main class="docMainContainer"><div class="row"><div class="col"><article>
<span class="theme-doc-version-badge badge badge--secondary">Version: Next</span>
<div class="tocCollapsible_jdIR theme-doc-toc-mobile"><button type="button"
class="clean-btn tocCollapsibleButton_Fzxq">On this page</button></div>
<div class="theme-doc-markdown markdown"><h1>Quick start</h1>
<h2 id="recommended">Recommended<a class="hash-link" href="#recommended">\u200b</a></h2>
<p><a href="/docs/kubernetes">Deploying on Kubernetes</a></p>
<h2 id="standalone">Standalone<a class="hash-link" href="#standalone">\u200b</a></h2>
<p><a href="/docs/standalone">Running the proxy alone</a></p></div></article></div>
<div class="col col--3"><div class="tableOfContents_cNA8 theme-doc-toc-desktop">
<ul class="table-of-contents"><li><a href="#recommended">Recommended</a></li>
<li><a href="#standalone">Standalone</a></li></ul></div></div></div></main></div>
<footer class="footer">Copyright 2022 the authors.</footer></body></html>"""


def test_the_chrome_is_removed_in_place_and_the_content_stays() -> None:
    tree = lxml.html.fromstring(DOCS_PAGE)
    assert without_doc_chrome(tree) == 4  # skip link, badge, the two tables of contents
    text = " ".join(tree.text_content().split())
    for chrome in ("Skip to main content", "Version: Next", "On this page"):
        assert chrome not in text
    assert text.count("Recommended") == 1 and "Running the proxy alone" in text
    assert tree.find(".//article") is not None and tree.find(".//main") is not None


def test_a_short_documentation_page_reads_without_its_chrome() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://tool.example/docs/quickstart/", DOCS_PAGE)) or ""
    lines = [line.lstrip("- ") for line in text.split("\n")]
    assert lines == [
        "Recommended",
        "Deploying on Kubernetes",
        "Standalone",
        "Running the proxy alone",
    ], lines


MIRROR = Path(os.environ.get("WEBROBOT_MIRROR", "/work/.mirror"))
#: A Docusaurus 2 site in Chinese and English (its built ``docs/`` kept in the repository).
DOCUSAURUS = "database-mesh/pisanix.io"
DOCUSAURUS_COMMIT = "01e59c1a0d351de54d4d1db9547866b935f7e651"
DOCUSAURUS_PAGES = (
    "docs/quickstart/index.html",
    "en/docs/quickstart/index.html",
    "en/docs/intro/index.html",
    "en/docs/Features/loadbalancer/index.html",
    "docs/UseCases/kubernetes/index.html",
)


def test_real_docusaurus_pages_keep_no_skip_link_badge_or_table_of_contents() -> None:
    """Scored as ``benchmarks/quality/realdocs.py`` scores a page: every line of the body,
    no line of the chrome, each of the body's headings once."""
    pytest.importorskip("trafilatura")
    from benchmarks.quality import realblogs, source_page
    from benchmarks.quality.realdocs import (
        Site,
        _body,
        body_text,
        chrome_lines,
        expected_lines,
        score_page,
    )
    from webrobot.extract.maintext import main_text

    gitdir = MIRROR / DOCUSAURUS.replace("/", "+") / "repo"
    if not gitdir.is_dir():
        pytest.skip(f"{DOCUSAURUS}'s snapshot is not under {MIRROR}")
    site = Site(
        repo=DOCUSAURUS,
        commit=DOCUSAURUS_COMMIT,
        generator="Docusaurus 2",
        content="//div[contains(@class, 'theme-doc-markdown')]",
        chrome="//div[@role='region'] | //span[contains(@class, 'theme-doc-version-badge')]"
        " | //div[contains(@class, 'theme-doc-toc-mobile')] | //aside | //footer",
        pages=DOCUSAURUS_PAGES,
    )
    for path in site.pages:
        html = realblogs.read_blob(gitdir, site.commit, path)
        url = f"https://pisanix.example/{path}"
        root = source_page(url, html).root
        body = _body(root, site)
        wanted = expected_lines(body)
        chrome = chrome_lines(root, site, set(wanted))
        text = main_text(source_page(url, html)) or ""
        recall, precision, _, missed, kept = score_page(text, wanted, body_text(body), chrome)
        assert kept == [], (path, kept)
        assert recall >= 0.9 and precision >= 0.95, (path, recall, precision, missed)
        headings = [" ".join(h.text_content().split()) for h in body.iter("h2", "h3")]
        lines = text.split("\n")
        assert all(lines.count(heading) <= 1 for heading in headings), (path, lines)
