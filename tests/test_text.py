"""The text primitives (webrobot.text): one definition of words, shingles and the
Hamming distance for every comparison of texts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from webrobot.extract import shingles as mainshingles
from webrobot.monitor import nearcopy
from webrobot.seen import simhash
from webrobot.text import hamming, normalise, shingles, words


def test_words_are_normalised_and_case_folded() -> None:
    assert words("Ｆｕｌｌ-width ＡＢＣ, Straße!") == ["full", "width", "abc", "strasse"]
    assert words("ﬁne  \n co-op") == ["fine", "co", "op"]
    assert normalise("Ⅻ") == "xii"


def test_shingles_are_runs_and_a_short_run_is_one() -> None:
    assert list(shingles(["a", "b", "c"], 2)) == [("a", "b"), ("b", "c")]
    assert list(shingles(["a"], 3)) == [("a",)]
    assert list(shingles([], 3)) == []


def test_hamming_counts_differing_bits() -> None:
    assert hamming(0b1011, 0b0001) == 2
    assert hamming(2**64 - 1, 0) == 64


@given(st.text(max_size=200))
def test_every_comparison_of_texts_counts_the_same_words(text: str) -> None:
    line = " ".join(text.splitlines())
    assert simhash.feature_words(line) == ["0" if w.isdecimal() else w for w in words(line)]
    runs = {" ".join(run) for run in shingles(words(text), nearcopy.SHINGLE_WORDS)}
    assert nearcopy.shingles([text]) == runs
    assert set(mainshingles.shingles(text)) == set(shingles(words(text), mainshingles.SIZE))


def test_the_monitor_and_the_main_text_fold_case_alike() -> None:
    upper = "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG"
    assert mainshingles.share_kept(upper, upper.lower()) == 1.0
    assert nearcopy.shingles([upper]) == nearcopy.shingles([upper.lower()])
