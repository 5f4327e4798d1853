"""The SimHash's measured distances on the public benchmark's real articles (scripts/eval_simhash.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from scripts import eval_simhash


@pytest.mark.skipif(
    not eval_simhash.DATA.exists(), reason=f"no benchmark data at {eval_simhash.DATA}"
)
def test_copies_are_within_three_bits_and_different_articles_are_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert eval_simhash.main(["--check"]) == 0, capsys.readouterr().out
    assert "different articles" in capsys.readouterr().out


def test_the_floors_can_fail() -> None:
    """Copies 10 bits apart fail the floor; a different pair at 2 bits fails the ceiling."""
    scores = eval_simhash.scores({"date line": Counter({10: 5})}, Counter({40: 9}), 5)
    assert scores["copies within 3 bits"] < eval_simhash.FLOORS["copies within 3 bits"]
    scores = eval_simhash.scores({"date line": Counter({0: 5})}, Counter({2: 1, 40: 9}), 5)
    assert (
        scores["different pairs within 3 bits"]
        > eval_simhash.FLOORS["different pairs within 3 bits"]
    )
