"""Main-text shapes seen on real built blogs that the reading does not get right yet.

Each case in ``tests/fixtures/maintext_open/<case>`` is a page written here in the
markup of the theme it was seen on (``page.html``; the real site is named in
``expected.json``'s ``seen_on``) with what a reader takes from it, in the format of
``tests/fixtures/maintext`` (``lines``: whole lines the text holds, in order;
``absent``: passages it must not hold; ``first_line``: the line the text starts
with). ``why`` says what goes wrong. A case that passes makes its test fail (strict
xfail): move its folder into ``tests/fixtures/maintext``, where every case must pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from parsel import Selector

from tests.test_maintext_structure import in_order
from webrobot.extract.maintext import main_reading
from webrobot.extract.page import SourcePage

pytest.importorskip("trafilatura")

FIXTURES = Path(__file__).parent / "fixtures" / "maintext_open"
#: None open at times: the folder is then gone, and the cases' test is skipped.
CASES = (
    sorted(p.name for p in FIXTURES.iterdir() if (p / "page.html").is_file())
    if FIXTURES.is_dir()
    else []
)


def problems(case: str) -> list[str]:
    html = (FIXTURES / case / "page.html").read_text("utf-8")
    expected = json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))
    page = SourcePage(f"https://{case}.example/post/", html, Selector(text=html, type="html").root)
    text = main_reading(page).text or ""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    found = [f"missing line {m!r}" for m in in_order(lines, expected["lines"])]
    found += [f"holds {a!r}" for a in expected.get("absent", []) if a in text]
    first = expected.get("first_line")
    if first is not None and lines[:1] != [first]:
        found.append(f"starts with {lines[:1]!r}")
    return found


def test_every_case_says_why_and_where() -> None:
    for case in CASES:
        expected = json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))
        assert expected["why"] and expected["seen_on"], case


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            case,
            marks=pytest.mark.xfail(
                strict=True,
                reason=json.loads((FIXTURES / case / "expected.json").read_text("utf-8"))["why"],
            ),
        )
        for case in CASES
    ],
)
def test_the_text_reads_as_the_post(case: str) -> None:
    assert problems(case) == []
