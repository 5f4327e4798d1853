"""The main text keeps a post's structure and leaves its chrome out, on blog pages written
here in the markup of Jekyll, WordPress, Hugo and Ghost (``tests/fixtures/maintext/<case>``:
``page.html`` and ``expected.json`` beside it).

``expected.json``: ``lines``, whole lines the text holds, in this order (headings, list
items, code lines each on its own line); ``markdown_lines``, the same for the Markdown;
``text_contains`` / ``markdown_contains``, passages each holds; ``absent``, passages
neither holds (site footer, donation plea, share bar, related posts, menu); ``first_line``,
the line both start with (not the headline, nor the date printed under it). Cases seen
on real built blogs name the site in ``seen_on`` and what the text got wrong before in
``was_wrong``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from parsel import Selector

from webrobot.extract.maintext import Reading, main_reading, main_text
from webrobot.extract.page import SourcePage

pytest.importorskip("trafilatura")

FIXTURES = Path(__file__).parent / "fixtures" / "maintext"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "page.html").is_file())


#: The same pages declaring themselves articles (``og:type``, as jekyll-seo-tag and most
#: themes write it): the precise reading then reads them.
ARTICLE = '<meta property="og:type" content="article"><title>'


def expected_of(case: str) -> dict:
    return json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))


def read(case: str, article: bool = False) -> tuple[Reading, dict]:
    html = (FIXTURES / case / "page.html").read_text("utf-8")
    if article:
        html = html.replace("<title>", ARTICLE, 1)
    expected = json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))
    page = SourcePage(f"https://{case}.example/post", html, Selector(text=html, type="html").root)
    return main_reading(page), expected


def in_order(lines: list[str], wanted: list[str]) -> list[str]:
    """The wanted lines not found as whole lines after the previous one."""
    missing, at = [], 0
    for line in wanted:
        try:
            at = lines.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing


def test_every_platform_has_a_case() -> None:
    assert set(CASES) >= {"jekyll", "wordpress", "hugo", "ghost"}


@pytest.mark.parametrize("article", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_headings_lists_and_code_are_lines_of_their_own(case: str, article: bool) -> None:
    reading, expected = read(case, article)
    assert reading.text is not None
    assert in_order(reading.text.split("\n"), expected["lines"]) == []
    for passage in expected.get("text_contains", []):
        assert passage in reading.text


@pytest.mark.parametrize("article", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_the_markdown_marks_headings_lists_code_and_tables(case: str, article: bool) -> None:
    reading, expected = read(case, article)
    assert reading.markdown is not None
    assert in_order(reading.markdown.split("\n"), expected["markdown_lines"]) == []
    for passage in expected.get("markdown_contains", []):
        assert passage in reading.markdown


@pytest.mark.parametrize("article", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_footers_pleas_share_bars_and_related_posts_are_left_out(case: str, article: bool) -> None:
    reading, expected = read(case, article)
    for passage in expected["absent"]:
        assert passage not in (reading.text or ""), passage
        assert passage not in (reading.markdown or ""), passage


@pytest.mark.parametrize("article", [False, True])
@pytest.mark.parametrize("case", [c for c in CASES if "first_line" in expected_of(c)])
def test_the_text_starts_with_the_posts_own_first_line(case: str, article: bool) -> None:
    reading, expected = read(case, article)
    assert (reading.text or "").split("\n")[0] == expected["first_line"]
    assert (reading.markdown or "").split("\n")[0] == expected["first_line"]


@pytest.mark.parametrize("case", CASES)
def test_main_text_is_the_readings_text(case: str) -> None:
    reading, _ = read(case)
    html = (FIXTURES / case / "page.html").read_text("utf-8")
    assert main_text(SourcePage("https://x.example/", html)) == reading.text


def test_the_title_the_text_drops_is_dropped_from_the_markdown_too() -> None:
    reading, _ = read("jekyll")
    assert "Speeding up builds with caches" not in (reading.text or "")
    assert "Speeding up builds with caches" not in (reading.markdown or "")
