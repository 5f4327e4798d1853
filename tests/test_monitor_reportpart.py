"""The crawl report's ``changes`` section: counted by kind, capped for big crawls, shown
old beside new in report.html, escaped (a hostile page's text stays text), and read
in headless Chromium by what the page shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lxml.html
import pytest

from tests.browser import render
from tests.test_report_html import sample_report
from webrobot.monitor import events, reportpart
from webrobot.monitor.reportpart import ChangesTally, page_diff
from webrobot.report.html import render_html
from webrobot.report.htmlchanges import changes_section

HOSTILE = '<script>document.title="owned"</script><img src="http://evil.example/x.png">'
T = "2026-11-28T06:00:12Z"


def tally_of_a_crawl() -> ChangesTally:
    tally = ChangesTally("watch/shop")
    tally.add(events.new("https://shop.example/new", T, "New"))
    tally.add(events.removed("https://shop.example/gone", T, 404))
    tally.add(events.changed("https://shop.example/lantern", T, [
        {"field": "price", "old": "1299.00", "new": "1249.00"},
        {"field": "title", "old": None, "new": HOSTILE},
        {"field": "main_text", "added": ["The cafe closes in winter.", HOSTILE],
         "removed": ["The museum opens at ten."]},
    ]))  # fmt: skip
    return tally


def test_the_section_counts_every_kind_and_keeps_the_diffs() -> None:
    section = tally_of_a_crawl().section()
    assert section["counts"] == {"new": 1, "changed": 1, "removed": 1, "moved": 0, "match": 0,
                                 "template_changed": 0}  # fmt: skip
    (page,) = section["pages"]
    assert page["url"] == "https://shop.example/lantern"
    assert page["fields"] == [{"field": "price", "old": "1299.00", "new": "1249.00"},
                              {"field": "title", "old": None, "new": HOSTILE}]  # fmt: skip
    assert page["removed"] == ["The museum opens at ten."]
    assert page["added"] == ["The cafe closes in winter.", HOSTILE]
    assert section["pages_left_out"] == 0


def test_a_big_crawl_is_capped_and_what_is_left_out_is_counted() -> None:
    tally = ChangesTally()
    many = [f"Sentence number {i} of a long page." for i in range(reportpart.SENTENCES + 7)]
    for i in range(reportpart.PAGES + 5):
        tally.add(events.changed(f"https://x.example/{i}", T, [
            {"field": "description", "old": "a" * 5000, "new": "b"},
            {"field": "main_text", "added": many, "removed": many[:3]}]))  # fmt: skip
    section = tally.section()
    assert len(section["pages"]) == reportpart.PAGES
    assert section["pages_left_out"] == 5 and section["counts"]["changed"] == reportpart.PAGES + 5
    page = section["pages"][0]
    assert len(page["added"]) == reportpart.SENTENCES and page["sentences_left_out"] == 7
    assert len(page["fields"][0]["old"]) == reportpart.SENTENCE_CHARS
    html = changes_section(section)
    assert "5 more changed pages" in html and "7 more sentences" in html
    assert len(html) < 700_000


def test_page_diff_of_an_event_without_text_changes() -> None:
    diff = page_diff(events.changed("u", T, [{"field": "price", "old": "1", "new": "2"}]))
    assert (diff["removed"], diff["added"], diff["sentences_left_out"]) == ([], [], 0)


def report_with_changes() -> dict[str, Any]:
    return {**sample_report(), "changes": tally_of_a_crawl().section()}


def test_hostile_text_is_escaped_in_the_html() -> None:
    html = render_html(report_with_changes())
    assert HOSTILE not in html
    root = lxml.html.fromstring(html)
    assert len(root.xpath("//script")) == 1, "only the page's own script"
    assert root.xpath("//section[@id='changes']//img") == []
    assert root.xpath("string(//p[@id='change-counts'])") == (
        "1 new pages · 1 changed · 1 removed · 0 moved · 0 watch matches · 0 site templates changed"
    )


def test_no_monitor_no_section() -> None:
    assert 'id="changes"' not in render_html(sample_report())
    assert changes_section(None) == changes_section({}) == ""


def _cells(root: Any, side: str) -> list[str]:
    return [c.text_content() for c in root.xpath(f"//section[@id='changes']//td[@class='{side}']")]


@pytest.mark.slow
def test_chromium_shows_the_diff_old_beside_new_and_runs_nothing_from_the_page(
    tmp_path: Path,
) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_html(report_with_changes()), "utf-8")
    shown = render(page, tmp_path / "report.png")
    assert shown.console == [], shown.console
    assert shown.requests == [], "the hostile <img> was not loaded"
    root = lxml.html.fromstring(shown.dom)
    assert root.xpath("string(//title)").startswith("webrobot crawl report"), "no script ran"
    assert 'data-ready="1"' in shown.dom
    rows = root.xpath("//section[@id='changes']//table[@class='diff']/tbody/tr")
    shown_rows = [[c.text_content() for c in row.xpath("th|td")] for row in rows]
    assert shown_rows == [
        ["price", "1299.00", "1249.00"],
        ["title", "(none)", HOSTILE],
        ["main text", "The museum opens at ten.", "The cafe closes in winter."],
        ["", "", HOSTILE],
    ]
    assert root.xpath("string(//section[@id='changes']/h3)") == "https://shop.example/lantern"
    assert _cells(root, "old")[0] == "1299.00" and _cells(root, "new")[0] == "1249.00"
