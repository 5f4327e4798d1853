"""The dev-page reader of the unseen evaluation: it loads dev pages only, and scores and
marks them as the evaluation does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.quality import unseendev
from benchmarks.quality.unseen import Page


def _site(split: str) -> str:
    return next(
        f"https://site{i}.example/"
        for i in range(100)
        if Page("s", f"https://site{i}.example/", "").split == split
    )


def test_only_dev_pages_of_the_asked_kinds_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [
        Page("wcxb-listing", _site("dev"), "<p>x</p>", "x"),
        Page("wcxb-listing", _site("held"), "<p>y</p>", "y"),
        Page("wcxb-article", _site("dev"), "<p>z</p>", "z"),
    ]
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: pages)
    assert unseendev.dev_pages(("listing",)) == [pages[0]]
    assert unseendev.dev_pages(("listing", "article")) == [pages[0], pages[2]]


def test_dev_pages_are_chosen_by_how_they_are_built(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [
        Page("wcxb-article", _site("dev"), "<table><tr><td><font>old</font></td></tr></table>"),
        Page("wcxb-article", _site("dev"), "<main><p>new</p></main>"),
    ]
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: pages)
    assert unseendev.dev_pages(("article",), "legacy") == pages[:1]
    assert unseendev.dev_pages(("article",), "modern") == pages[1:]
    assert unseendev.dev_pages(("article",)) == pages


def test_page_scores_use_the_evaluations_shingles() -> None:
    assert unseendev.prf("a b c d e", "a b c d e") == (1.0, 1.0, 1.0)
    p, r, f = unseendev.prf("a b c d e f g h", "a b c d e")
    assert p == 1.0 and 0 < r < 1 and 0 < f < 1
    assert unseendev.prf("a b c d", "") == (0.0, 0.0, 0.0)


def test_lines_are_marked_by_what_the_other_side_holds(capsys: pytest.CaptureFixture[str]) -> None:
    page = Page(
        "wcxb-listing", _site("dev"), "", "one two three four five\nsix seven eight nine ten"
    )
    unseendev.show(page, "one two three four five\ncookie banner text here now")
    out = capsys.readouterr().out.splitlines()
    assert "  one two three four five" in out
    assert "- cookie banner text here now" in out
    assert "- six seven eight nine ten" in out


def test_saved_texts_compare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [Page("wcxb-listing", _site("dev"), "<html><body><p>Some text.</p></body></html>", "x")]
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: pages)
    saved = tmp_path / "texts.json"
    assert unseendev.main(["--kinds", "listing", "--summary", "--save", str(saved)]) == 0
    assert saved.is_file() and pages[0].url + "#0" in saved.read_text()


def test_trafilatura_eval_dev_pages_are_scored_by_passages(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dev = Page("trafilatura-eval", _site("dev"), "", None, ["kept passage"], ["menu words"])
    held = Page("trafilatura-eval", _site("held"), "", None, ["x"], ["y"])
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: pytest.fail("wcxb not asked for"))
    monkeypatch.setattr(unseendev, "trafilatura_eval", lambda repos: [dev, held])
    assert unseendev.dev_pages(("trafilatura-eval",)) == [dev]
    assert unseendev.page_prf(dev, "the kept passage here") == (1.0, 1.0, 1.0)
    assert unseendev.page_prf(dev, "kept passage and menu words") == (0.5, 1.0, 2 / 3)
    unseendev.show(dev, "menu words only")
    out = capsys.readouterr().out.splitlines()
    assert "- kept passage" in out
    assert "! menu words" in out


def test_large_losses_are_counted_on_each_side() -> None:
    found = unseendev.losses([(0, 0.9, 0.5), (1, 0.1, 0.2), (2, 0.4, 0.7), (3, 0.25, 0.05)])
    assert found.mean == pytest.approx((0.4125, 0.3625))
    assert found.low == (2, 2)  # 0.1 and 0.25 below 0.3; 0.2 and 0.05 on the other side
    assert found.behind == (2,)  # 0.3 behind; page 1 is 0.1 behind only
    assert found.ahead == (0, 3)
    assert unseendev.losses([]) == unseendev.Losses((0.0, 0.0), (0, 0), (), ())


def _one_page_beside_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ours: str, option: str
) -> None:
    """Runs ``unseendev`` on one listing page of the dev half, whose text is ``ours``,
    beside a saved text equal to the page's truth, with ``option``."""
    page = Page("wcxb-listing", _site("dev"), "<p>x</p>", "one two three four five six")
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: [page])
    monkeypatch.setattr(unseendev, "extractor", lambda name: lambda html: ours)
    saved = tmp_path / "texts.json"
    saved.write_text('{"' + page.url + '#0": "one two three four five six"}')
    assert unseendev.main(["--kinds", "listing", option, "--against", str(saved)]) == 0


def test_losses_are_printed_beside_saved_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_page_beside_saved(tmp_path, monkeypatch, "nothing alike here", "--losses")
    out = capsys.readouterr().out
    assert "wcxb-listing dev (1 pages), webrobot / saved: F1 0.000 / 1.000" in out
    assert "pages below 0.3 1 / 0" in out
    assert "behind on [0], ahead on []" in out


def test_a_deficit_is_told_as_text_missed_or_kept() -> None:
    # page 0: ours misses 4 shingles the other finds; page 1: ours keeps 3 more it should
    # not; page 2: ours is ahead, and does not count
    rows = [
        ((6.0, 0.0, 4.0), (10.0, 0.0, 0.0)),
        ((10.0, 5.0, 0.0), (10.0, 2.0, 0.0)),
        ((10.0, 0.0, 0.0), (5.0, 5.0, 5.0)),
    ]
    found = unseendev.pooled(rows)
    assert found.behind == 2
    assert found.truth == 20.0
    assert found.missed == 4.0 and found.kept == 3.0
    assert found.ours == pytest.approx(((1 + 10 / 15 + 1) / 3, (0.6 + 1 + 1) / 3))
    assert found.theirs == pytest.approx(((1 + 10 / 12 + 0.5) / 3, (1 + 1 + 0.5) / 3))
    assert unseendev.pooled([]) == unseendev.Deficit((0.0, 0.0), (0.0, 0.0), 0, 0.0, 0.0, 0.0)


def test_the_pooled_deficit_is_printed_beside_saved_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_page_beside_saved(tmp_path, monkeypatch, "one two three four", "--pooled")
    out = capsys.readouterr().out
    assert "mean recall 0.333 / 1.000" in out
    assert "behind on 1 pages (truth 3): +2 missed, +0 kept beyond saved" in out


def test_pages_are_grouped_by_the_kind_the_main_text_takes_them_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    article = "<html><head><meta property='og:type' content='article'></head><body></body></html>"
    product = article.replace("'article'", "'product'")
    assert unseendev.page_kind(article) == "article"
    assert unseendev.page_kind(product) == "product"
    assert unseendev.page_kind(article.replace("'article'", "'book'")) == "none"
    site = _site("dev")
    pages = [
        Page("wcxb-product", site, article, "one two three four five six"),
        Page("wcxb-product", site + "item", product, "seven eight nine ten"),
    ]
    monkeypatch.setattr(unseendev, "wcxb", lambda repos: pages)
    text = "one two three four five six"
    monkeypatch.setattr(unseendev, "extractor", lambda name: lambda html: text)
    saved = tmp_path / "texts.json"
    other = {
        pages[0].url + "#0": "eleven twelve thirteen fourteen",
        pages[1].url + "#1": "seven eight nine ten",
    }
    saved.write_text(json.dumps(other))
    assert unseendev.main(["--kinds", "product", "--reading", "--against", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "wcxb-product dev, read as article (1 pages), webrobot / saved: F1 1.000 / 0.000" in out
    assert "wcxb-product dev, read as product (1 pages), webrobot / saved: F1 0.000 / 1.000" in out
