"""The structured-data gate: extruct's own samples (``../shared/benchdata/extruct-samples``)
read as the crawl reads them must agree with their expected output at least as well
as pinned here, and at least as well as plain extruct measured in the same run
(``python -m benchmarks.quality.structured`` prints the table)."""

from __future__ import annotations

import pytest

from benchmarks.quality.structured import SAMPLES, evaluate

#: Syntax -> (exact-match rate, item F1) floors for the crawl's reading (rdfa="auto":
#: RDFa that only repeats OpenGraph's head tags is not read, hence its lower floor).
FLOORS = {
    "json-ld": (1.0, 1.0),
    "microdata": (1.0, 1.0),
    "opengraph": (1.0, 1.0),
    "rdfa": (0.77, 0.95),
}
#: With rdfa="always" every sample's RDFa is read, as extruct reads it.
RDFA_ALWAYS_FLOOR = (1.0, 1.0)


@pytest.fixture(scope="module")
def scores() -> dict:
    assert SAMPLES.is_dir(), f"the public samples are missing: {SAMPLES}"
    return evaluate()


@pytest.mark.parametrize("syntax", sorted(FLOORS))
def test_each_syntax_agrees_with_the_samples_at_least_as_pinned(scores: dict, syntax: str) -> None:
    score = scores["webrobot"][syntax]
    exact, f1 = FLOORS[syntax]
    assert score.pages >= 4
    assert score.exact_rate >= exact, score.misses
    assert score.f1 >= f1, score.misses


def test_rdfa_always_reads_every_sample_as_extruct_does(scores: dict) -> None:
    score = scores["webrobot rdfa=always"]["rdfa"]
    assert (score.exact_rate, score.f1) >= RDFA_ALWAYS_FLOOR, score.misses


@pytest.mark.parametrize("syntax", ["json-ld", "microdata", "opengraph"])
def test_never_below_plain_extruct(scores: dict, syntax: str) -> None:
    assert scores["webrobot"][syntax].f1 >= scores["extruct"][syntax].f1
