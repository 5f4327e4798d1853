"""The page-by-page reader of the unseen sets' dev half: its scores and diffs."""

from __future__ import annotations

from benchmarks.quality.unseen import Page
from benchmarks.quality.unseendev import _prf, diff


def test_a_whole_truth_is_scored_by_shingles_and_diffed_by_lines() -> None:
    page = Page(
        "wcxb-forum",
        "https://forum.example/t/1",
        "",
        "alice\nthe first post of the thread\nbob\nthe reply to it here",
    )
    text = "the first post of the thread\nthe reply to it here\nLog in to reply"
    p, r, f = _prf(page, text)
    assert 0 < p < 1 and 0 < r < 1 and 0 < f < 1
    assert diff(page, text) == ["  - alice", "  - bob", "  + Log in to reply"]


def test_passages_are_scored_by_the_share_read_right() -> None:
    page = Page(
        "trafilatura-eval",
        "https://news.example/a",
        "",
        None,
        ["wanted  one", "wanted two"],
        ["menu line"],
    )
    text = "wanted one and more\nmenu line"
    p, r, share = _prf(page, text)
    assert (p, r) == (0.5, 0.5)
    assert share == 1 / 3
    assert diff(page, text) == ["  - wanted two", "  + menu line"]
