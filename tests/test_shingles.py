"""Word shingles: how much of one text another holds."""

from __future__ import annotations

import pytest

from webrobot.extract.shingles import share_kept, shingles


def test_shingles_are_runs_of_four_words_in_any_script() -> None:
    assert shingles("a b c d e") == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}
    assert shingles("один, два; три четыре") == {("один", "два", "три", "четыре"): 1}
    assert shingles("x y") == {("x", "y"): 1}
    assert shingles(" ... ") == {}


@pytest.mark.parametrize(
    ("whole", "part", "share"),
    [
        ("a b c d e f", "a b c d e f", 1.0),
        ("a b c d e f", "a b c d", 1 / 3),
        ("a b c d e f", "z y x w", 0.0),
        ("", "anything at all here", 1.0),
        ("a b c d a b c d", "a b c d", 1 / 5),  # counts, not sets
    ],
)
def test_share_kept(whole: str, part: str, share: float) -> None:
    assert share_kept(whole, part) == pytest.approx(share)
