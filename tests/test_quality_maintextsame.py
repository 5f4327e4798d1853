"""The sameness check of the main text: a run compared with itself is the same, and a
saved reading that differs is named and fails the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("trafilatura")

from benchmarks.quality import maintext, maintextsame


@pytest.fixture
def benchmark() -> None:
    if not (maintext.default_data() / maintext.BENCHMARK).is_dir():
        pytest.skip("the article benchmark is not at hand")


@pytest.mark.usefixtures("benchmark")
def test_a_run_is_the_same_as_itself_and_a_changed_page_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "readings.json"
    assert maintextsame.main(["--save", str(saved), "--limit", "3"]) == 0
    readings = json.loads(saved.read_text("utf-8"))
    assert len(readings) >= 3 and all(text for text, _ in readings.values())
    assert maintextsame.main(["--compare", str(saved), "--limit", "3"]) == 0
    assert "0 differ" in capsys.readouterr().out

    key = min(readings)
    readings[key][1] += "\none more line"  # the Markdown only
    saved.write_text(json.dumps(readings), "utf-8")
    assert maintextsame.main(["--compare", str(saved), "--limit", "3"]) == 1
    out = capsys.readouterr().out
    assert f"differs: {key}" in out and "1 differ" in out
