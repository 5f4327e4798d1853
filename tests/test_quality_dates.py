"""The dates, authors and titles gate: on the hand-written pages of
``tests/fixtures/dates`` (Jekyll, WordPress, Hugo, Ghost, news and institution
pages in several languages, split by site) the publication date's accuracy stays
at or above its pinned floor on both splits and at or above htmldate's extensive
mode measured in the same run; authors and titles stay at their floors
(``python -m benchmarks.quality.dates`` prints the table)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from benchmarks.quality import source_page
from benchmarks.quality.dates import (
    FIXTURES,
    SPLITS,
    FieldScore,
    Results,
    evaluate,
    fixture_cases,
    htmldate_cases,
)
from webrobot.extract.metadata import metadata

#: Split -> accuracy floor. The pages were written to the patterns of real sites
#: before the extractor was run on them, then it was fixed on them: the floors
#: guard against regressions; the figures on real unseen sites are in
#: docs/benchmarks.md.
FLOORS = {"dev": 1.0, "unseen": 1.0}
AUTHORS_FLOOR = 1.0
TITLE_FLOOR = 1.0


@pytest.fixture(scope="module")
def scored() -> tuple[Results, dict[str, FieldScore]]:
    pytest.importorskip("htmldate")
    return evaluate(fixture_cases(), ["webrobot", "htmldate extensive"])


def test_the_fixtures_are_many_varied_and_on_both_sides() -> None:
    cases = fixture_cases()
    assert len(cases) >= 20
    assert {c.split for c in cases} == set(SPLITS)
    assert len({c.site for c in cases}) == len(cases)  # one page a site
    assert any(c.published is None for c in cases)  # a page with no date
    languages = set()
    for folder in FIXTURES.iterdir():
        answer = json.loads((folder / "expected.json").read_text("utf-8"))
        assert (
            {"url", "published"}
            <= set(answer)
            <= {"url", "published", "modified", "authors", "title"}
        )
        html = (folder / "page.html").read_text("utf-8")
        languages.add(html.split('lang="', 1)[1][:2] if 'lang="' in html else "")
    assert {"en", "de", "fr", "es", "it", "nl"} <= languages


@pytest.mark.parametrize("split", SPLITS)
def test_publication_dates_at_their_floor_and_not_behind_htmldate(
    scored: tuple[Results, dict[str, FieldScore]], split: str
) -> None:
    results, _ = scored
    ours, anchor = results["webrobot"][split], results["htmldate extensive"][split]
    assert ours.accuracy >= FLOORS[split], ours.wrong
    assert ours.accuracy >= anchor.accuracy, ours.wrong


def test_authors_titles_and_modified_dates_at_their_floors(
    scored: tuple[Results, dict[str, FieldScore]],
) -> None:
    _, fields = scored
    assert fields["authors"].rate >= AUTHORS_FLOOR, fields["authors"].wrong
    assert fields["title"].rate >= TITLE_FLOOR, fields["title"].wrong
    assert fields["modified"].total >= 3 and not fields["modified"].wrong


def test_a_jekyll_post_reads_as_a_person_reads_it() -> None:
    folder = FIXTURES / "jekyll-minima-post"
    answer = json.loads((folder / "expected.json").read_text("utf-8"))
    page = source_page(answer["url"], (folder / "page.html").read_text("utf-8"))
    found = metadata(page, today=date(2024, 6, 1), date_search="off")
    assert found["published"] == "2021-03-04T10:15:00+01:00"
    assert found["authors"] == ["Jane Doe"]
    assert found["title"] == "Welcome to Jekyll!"


def test_a_page_without_a_date_is_read_as_none(tmp_path: Path) -> None:
    """htmldate's answers write a page without a date as ``NaN``: no answer equals it,
    so it is read as no date (an extractor that gives none is right there)."""
    (tmp_path / "tests" / "cache").mkdir(parents=True)
    (tmp_path / "tests" / "cache" / "a.html").write_text("<p>x</p>", "utf-8")
    (tmp_path / "tests" / "cache" / "b.html").write_text("<p>y</p>", "utf-8")
    (tmp_path / "tests" / "eval_x.json").write_text(
        '{"https://a.example/": {"file": "a.html", "date": NaN},'
        ' "https://b.example/": {"file": "b.html", "date": "2020-01-02"}}',
        "utf-8",
    )
    cases = {c.url: c.published for c in htmldate_cases(tmp_path)}
    assert cases == {"https://a.example/": None, "https://b.example/": "2020-01-02"}
