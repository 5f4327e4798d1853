"""The report's URL templates table (webrobot.report.frontier): only the
templates that matter, and how many single URLs were left out."""

from __future__ import annotations

from parsel import Selector

from webrobot.report.frontier import templates_html, templates_that_matter


def template(name: str, pages: int, refused: dict[str, int] | None = None) -> dict[str, object]:
    return {"template": name, "pages": pages, "longest_chain": 0, "refused": refused or {}}


TEMPLATES = [
    template("http://a/cal?month={v}", 13),
    template("http://a/p/{n}", 1, {"template_budget": 4}),
    *[template(f"http://a/page{i}.html", 1) for i in range(30)],
]


def rows(html: str) -> list[list[str]]:
    return [r.css("td::text").getall() for r in Selector(text=html).css("tbody tr")]


def test_only_templates_with_pages_or_refusals_are_shown() -> None:
    shown, left_out = templates_that_matter(TEMPLATES)
    assert [t["template"] for t in shown] == ["http://a/cal?month={v}", "http://a/p/{n}"]
    assert left_out == 30
    html = templates_html(TEMPLATES)
    assert [r[0] for r in rows(html)] == ["http://a/cal?month={v}", "http://a/p/{n}"]
    assert "30 single URLs (one page each, nothing refused) are left out" in html
    assert "page7.html" not in html


def test_the_crawl_wide_count_of_single_urls_wins() -> None:
    """report.json lists at most 50 templates; the crawl counted every single URL."""
    html = templates_html(TEMPLATES, single_urls=120)
    assert "120 single URLs" in html


def test_nothing_left_out_no_note_and_only_singles_no_table() -> None:
    html = templates_html(TEMPLATES[:2])
    assert len(rows(html)) == 2 and "left out" not in html
    only_singles = templates_html(TEMPLATES[2:5])
    assert rows(only_singles) == []
    assert "3 single URLs" in only_singles and "No template had more than one page" in only_singles
    assert templates_html([]) == ""
    assert "1 single URL (" in templates_html(TEMPLATES[2:3])
