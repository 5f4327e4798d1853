"""The real-documentation evaluation (``benchmarks/quality/realdocs.py``): its scoring, on a
page written here, and its floor on the sites' snapshots where they are on this machine.

The snapshots are public repositories brought with the search tool's ``fetch``
(``/work/.mirror/<owner>+<name>/repo``, or ``$WEBROBOT_MIRROR``); they are read in
place and never copied here, so where they are absent (CI) the floor skips.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.quality import source_page
from benchmarks.quality.realdocs import (
    SITES,
    Site,
    _body,
    body_text,
    chrome_lines,
    evaluate,
    expected_lines,
    find_snapshots,
    mean_f1,
    score_page,
)

pytest.importorskip("trafilatura")

SITE = Site(
    repo="someone/tool",
    commit="0" * 40,
    generator="Sphinx",
    content="//div[@role='main']",
    chrome="//nav | //footer",
    pages=(),
)
PAGE = """<html><head><title>Setup - tool</title></head><body>
<nav><ul><li><a href="/">Setup</a></li><li><a href="/use">Using the tool</a></li></ul></nav>
<div role="main"><h1>Setup<a class="headerlink" href="#setup">¶</a></h1>
<p>Install the tool,
then run it once.</p>
<h2>Options<a class="headerlink" href="#options">¶</a></h2>
<table><tr><th>Name</th><th>Meaning</th></tr><tr><td>-q</td><td>quiet</td></tr></table>
<dl><dt>--fast</dt><dd>Skips the checks.</dd></dl>
<div class="highlight"><pre><span class="token-line">pip install tool</span><span class="token-line">tool --fast</span></pre></div>
<button>Copy</button></div>
<footer><p>Copyright 2024, the tool's authors.</p><a href="/use">Next: Using the tool</a></footer>
</body></html>"""


def _page():
    root = source_page("https://tool.example/setup.html", PAGE).root
    body = _body(root, SITE)
    wanted = expected_lines(body)
    return root, body, wanted


def test_the_expected_lines_are_the_bodys_blocks_each_a_line() -> None:
    _, _, wanted = _page()
    assert wanted == [
        "Install the tool, then run it once.",
        "Options",
        "Name Meaning",
        "-q quiet",
        "--fast",
        "Skips the checks.",
        "pip install tool",
        "tool --fast",
    ]  # the headline is the page's title; the heading's ¶ and the copy button are not text


def test_chrome_lines_are_those_the_body_does_not_say() -> None:
    root, _, wanted = _page()
    assert chrome_lines(root, SITE, set(wanted)) == [
        "Setup",
        "Using the tool",
        "Copyright 2024, the tool's authors.",
        "Next: Using the tool",
    ]


def test_a_reading_is_scored_by_lines_found_and_chrome_kept() -> None:
    root, body, wanted = _page()
    chrome = chrome_lines(root, SITE, set(wanted))
    text_of_body = body_text(body)
    good = (
        "Install the tool, then run it once.\n## Options\n| Name | Meaning |\n| -q | quiet |\n"
        "--fast\nSkips the checks.\npip install tool\ntool --fast"
    )
    recall, precision, f1, missed, kept = score_page(good, wanted, text_of_body, chrome)
    assert (recall, precision, missed, kept) == (1.0, 1.0, [], [])
    bad = "Install the tool,\nthen run it once.\nOptions\nUsing the tool"
    recall, precision, f1, missed, kept = score_page(bad, wanted, text_of_body, chrome)
    assert recall == 1 / 8 and kept == ["Using the tool"] and precision < 1 and f1 < 0.3


MIRROR = Path(os.environ.get("WEBROBOT_MIRROR", "/work/.mirror"))
#: webrobot's mean F1 over the pages, and trafilatura's in the same run stays below it.
FLOOR = 0.92


def test_real_documentation_scores_at_its_floor() -> None:
    snapshots = find_snapshots([], MIRROR)
    if len(snapshots) < len(SITES):
        pytest.skip(f"not every site's snapshot is under {MIRROR}")
    results = evaluate(snapshots, ["webrobot", "trafilatura"])
    assert mean_f1(results["webrobot"]) >= FLOOR
    assert mean_f1(results["webrobot"]) > mean_f1(results["trafilatura"])
