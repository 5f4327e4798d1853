"""End-to-end: webrobot's commands as real subprocesses.

* In another Scrapy project that uses the add-on, ``scrapy search`` and the other
  webrobot commands are known, through the ``scrapy.commands`` entry points that
  ``pyproject.toml`` declares (installed here as the metadata of an installed
  package on ``PYTHONPATH``, as pip would write it).
* ``webrobot search`` says ``webrobot search:`` in its messages, its usage line and
  its errors; ``scrapy search`` says ``scrapy search:``.
* ``webrobot search ... --json | head -c 800`` ends quietly: no traceback, the exit
  status of a program a closed pipe stopped (141).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.crawling import PROJECT_ROOT, write_project
from webrobot.commands import PIPE_CLOSED

pytestmark = pytest.mark.slow

#: Enough results to fill the pipe's buffer (64 KiB) many times over.
PAGES = 400
COMMANDS = ("search", "webrobot-export", "webrobot-seed", "webrobot-wacz")


def installed_metadata(folder: Path) -> Path:
    """The entry points of pyproject.toml as an installed distribution's metadata."""
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text("utf-8"))
    points = project["project"]["entry-points"]
    info = folder / "webrobot-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: webrobot\nVersion: 0\n", "utf-8")
    groups = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
        for group, entries in points.items()
    )
    (info / "entry_points.txt").write_text(groups, "utf-8")
    return folder


def run(
    cwd: Path, *args: str, path: list[Path], shell: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` (or the ``shell`` command line) with ``path`` as ``PYTHONPATH``."""
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in path)
    command = shell or [sys.executable, *args]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "project", ["http://127.0.0.1:9/"])


def test_another_project_with_the_addon_knows_every_webrobot_command(
    project: Path, tmp_path: Path
) -> None:
    metadata = installed_metadata(tmp_path / "site")
    path = [project, PROJECT_ROOT, metadata]
    listed = run(project, "-m", "scrapy", path=path)
    assert listed.returncode == 0, listed.stderr[-2000:]
    for command in COMMANDS:
        assert f"  {command} " in listed.stdout, listed.stdout
        helped = run(project, "-m", "scrapy", command, "-h", path=path)
        assert helped.returncode == 0, helped.stderr[-2000:]
        assert f"\n  scrapy {command} " in helped.stdout
    missing = run(project, "-m", "scrapy", "search", "--index", str(tmp_path / "none"), "word",
                  path=path)  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.startswith(f"scrapy search: no search index at {tmp_path / 'none'}")


def test_without_the_entry_points_the_project_does_not_know_them(project: Path) -> None:
    """What the entry points are for: the add-on line alone cannot add commands."""
    result = run(project, "-m", "scrapy", "search", "word", path=[project, PROJECT_ROOT])
    assert result.returncode == 2 and "Unknown command: search" in result.stdout


def test_webrobot_search_speaks_under_its_own_name(tmp_path: Path) -> None:
    missing = run(tmp_path, "-m", "webrobot", "search", "--index", str(tmp_path / "none"), "w",
                  path=[PROJECT_ROOT])  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.startswith("webrobot search: no search index at"), missing.stderr
    no_query = run(tmp_path, "-m", "webrobot", "search", path=[PROJECT_ROOT])
    assert no_query.returncode == 2
    assert "\n  webrobot search [options]" in no_query.stderr, no_query.stderr
    assert "webrobot search: error: give a query, e.g. webrobot search " in no_query.stderr
    assert "scrapy" not in no_query.stderr


def test_search_output_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    from webrobot.search.index import IndexedPage, SearchIndex

    index = SearchIndex(tmp_path / "index", create=True)
    for i in range(PAGES):
        index.put(IndexedPage(
            url=f"http://127.0.0.1:8000/p{i}", site="http://127.0.0.1:8000", host="127.0.0.1",
            title=f"Expedition report {i}", text="the zanzibarian expedition report " * 40,
            fetched_at="2026-01-01T00:00:00Z",
        ))  # fmt: skip
    index.commit()
    index.close()
    # The reader stops after 800 bytes and closes the pipe; the shell reports the
    # writer's exit status through PIPESTATUS.
    script = (
        f"{sys.executable} -m webrobot search --index index --json --limit {PAGES} expedition"
        ' | head -c 800 > head.out; echo "status=${PIPESTATUS[0]}" >&2'
    )
    result = run(tmp_path, path=[PROJECT_ROOT], shell=["bash", "-c", script])
    assert (tmp_path / "head.out").stat().st_size == 800
    assert "Traceback" not in result.stderr and "BrokenPipeError" not in result.stderr, (
        result.stderr
    )
    assert result.stderr.strip().splitlines()[-1] == f"status={PIPE_CLOSED}", result.stderr
