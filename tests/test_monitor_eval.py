"""The monitor's quality floors, on the public benchmark's real pages (scripts/eval_monitor.py)."""

from __future__ import annotations

import pytest

from scripts import eval_monitor


@pytest.mark.skipif(
    not eval_monitor.DATA.exists(), reason=f"no benchmark data at {eval_monitor.DATA}"
)
def test_the_monitor_keeps_its_floors(capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_monitor.main(["--check"]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "changed precision" in out and "copy recall" in out


def test_the_floors_can_fail() -> None:
    """A rule that calls every page changed is caught by the precision floor."""
    pages = eval_monitor.articles()[:30] if eval_monitor.DATA.exists() else []
    if not pages:
        pytest.skip("no benchmark data")
    real = eval_monitor.changes
    try:
        eval_monitor.changes = lambda old, new: [
            {"field": "main_text", "added": ["x"], "removed": []}
        ]  # type: ignore[assignment]
        scores = eval_monitor.evaluate_changes(pages)
    finally:
        eval_monitor.changes = real
    assert scores["changed precision"] < eval_monitor.FLOORS["changed precision"]


@pytest.mark.skipif(
    not eval_monitor.HTML.exists(), reason=f"no benchmark pages at {eval_monitor.HTML}"
)
def test_real_html_through_an_extractor_keeps_its_floors() -> None:
    """Noise put into real pages' HTML is no change after extraction; a sentence added
    to the article is found and named (the first 60 pages, for time; all in the script)."""
    pytest.importorskip("trafilatura")
    scores = eval_monitor.evaluate_html(60)
    assert scores["html pages"] >= 50 and scores["html changed pages"] >= 40, scores
    for name in ("html noise quiet", "html changed recall", "html changes named"):
        assert scores[name] >= eval_monitor.FLOORS[name], (name, scores)
