"""The tier of a test file and the serial tests, read from the source (tests/tiers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import tiers

HERE = Path(__file__).resolve().parent


def write(tmp_path: Path, source: str, name: str = "test_new.py") -> Path:
    path = tmp_path / name
    path.write_text(source, "utf-8")
    return path


@pytest.mark.parametrize(
    ("source", "tier"),
    [
        ("from webrobot.urls.canonical import Canonicalizer\n", "unit"),
        ("import asyncio\nfrom scrapy.utils.test import get_crawler\n", "unit"),
        ("from tests.crawling import run_crawl\n", "loopback"),
        ("import subprocess\n", "loopback"),
        ("def test_x():\n    import socket\n", "loopback"),  # an import inside a test counts
        ("from webrobot.demo.server import SiteServer\n", "loopback"),
        ("from tests.nginxbed import NginxBed\nimport subprocess\n", "bed"),
        ("from tests.browser import render\n", "bed"),
        ("import shutil\nPROMETHEUS = shutil.which('prometheus')\n", "bed"),
        ("import sys\nARGS = [sys.executable, '-m', 'venv', 'x']\n", "install"),
        ("import venv\nfrom tests.nginxbed import NginxBed\n", "install"),  # the heaviest wins
    ],
)
def test_a_new_file_falls_into_a_tier_by_what_it_imports_and_names(
    tmp_path: Path, source: str, tier: str
) -> None:
    assert tiers.file_tier(write(tmp_path, source)) == tier


def test_helpers_from_an_end_to_end_test_file_make_a_file_loopback(tmp_path: Path) -> None:
    write(tmp_path, "from tests.crawling import run_crawl\n", "test_helpers.py")
    write(tmp_path, "def page(): return 1\n", "test_pure.py")
    assert tiers.file_tier(write(tmp_path, "from tests.test_helpers import x\n")) == "loopback"
    pure = write(tmp_path, "from tests.test_pure import page\n", "test_other.py")
    assert tiers.file_tier(pure) == "unit"


def test_fixtures_raise_the_tier_of_a_test() -> None:
    unit = HERE / "test_canonical.py"
    assert tiers.tier(unit, ["tmp_path"]) == "unit"
    assert tiers.tier(unit, ["make_site"]) == "loopback"
    assert tiers.tier(unit, ["redis_server"]) == "loopback"
    assert tiers.tier(unit, ["nginx_bed"]) == "bed"
    assert tiers.tier(HERE / "test_package.py", ["make_site"]) == "install", "never lowered"


@pytest.mark.parametrize(
    ("source", "together"),
    [
        ("import pytest\n@pytest.fixture(scope='module')\ndef crawled(): ...\n", True),
        ("from pytest import fixture\n@fixture(autouse=True, scope='class')\ndef a(): ...\n", True),
        ("import pytest\n@pytest.fixture\ndef site(): ...\n", False),
        ("import pytest\n@pytest.fixture(scope='function')\ndef site(): ...\n", False),
        ("import venv\n", True),  # the install tier: its virtualenvs
    ],
)
def test_a_file_that_shares_a_module_fixture_stays_on_one_worker(
    tmp_path: Path, source: str, together: bool
) -> None:
    assert tiers.one_worker(write(tmp_path, source)) is together


def test_the_scheduler_keeps_such_a_file_together_and_hands_out_the_others_one_by_one() -> None:
    pytest.importorskip("xdist")
    from tests.scheduling import FileGroupScheduling

    scheduling = FileGroupScheduling.__new__(FileGroupScheduling)  # no controller needed
    scheduling.rootpath = HERE.parent
    assert scheduling._split_scope("tests/test_scrapyd.py::test_a") == "tests/test_scrapyd.py"
    assert scheduling._split_scope("tests/test_package.py::test_b[x]") == "tests/test_package.py"
    plain = "tests/test_canonical.py::test_c"
    assert scheduling._split_scope(plain) == plain


def test_the_suites_files_are_in_the_tiers_the_docs_name() -> None:
    expected = {
        "test_package.py": "install",
        "test_frontdoor_nginx.py": "bed",
        "test_archive_replay.py": "bed",
        "test_metrics_prometheus.py": "bed",
        "test_distributed_cluster.py": "bed",
        "test_scrapyd.py": "bed",
        "test_report_html.py": "bed",
        "test_crawl_basics.py": "loopback",
        "test_distributed_crawl.py": "loopback",
        "test_canonical.py": "unit",
        "test_robots_policy.py": "unit",
    }
    assert {name: tiers.file_tier(HERE / name) for name in expected} == expected


@pytest.mark.parametrize(
    ("body", "serial"),
    [
        ("took = 1.0\n    assert took < 20", True),
        ("took = 1.0\n    assert took < 90", False),  # a hang guard
        ("took = timeout = 3.0\n    assert took <= timeout + 30", False),  # a hang guard too
        ("took = timeout = 3.0\n    assert timeout + 30 > took", False),
        ("took = 1.0\n    assert 90 > took", False),
        ("took = 1.0\n    assert took > 90", True),  # a lower bound is no guard
        ("wait = 0.4\n    assert 59 < wait <= 60", True),
        ("import time\n    assert time.monotonic() < deadline", False),  # a wait's deadline
        ("async def go():\n        assert took < 2", True),  # in a function of the test's
        ("wait = 0.4\n    assert 0.3 < wait <= 0.5", True),
        ("gaps = [1.0]\n    assert max(gaps) < 0.3", True),
        ("import time\n    assert time.monotonic() - started < 2", True),
        ("a = b = None\n    assert a.started - b.finished == pytest.approx(4.0, abs=0.6)", True),
        ("hits = []\n    assert all(h.duration <= 0.5 for h in hits)", True),
        ("gaps = [1.0]\n    assert min(gaps) >= 0.3", True),  # a server late to log shortens gaps
        ("gaps = [1.0]\n    assert len(gaps) >= 3", False),  # a count
        ("hits = []\n    assert unspaced(hits, 0.2) == []", True),  # a spacing helper
        ("a = b = None\n    assert b.started >= a.finished", False),  # order, not speed
        ("n = 3\n    assert n < 10", False),
        ("s = 1\n    assert human_seconds(s) == '1 s'", False),  # a function of a span
    ],
)
def test_a_bound_on_a_span_of_time_makes_a_test_serial(
    tmp_path: Path, body: str, serial: bool
) -> None:
    path = write(tmp_path, f"import pytest\n\n\ndef test_it():\n    {body}\n")
    assert tiers.timing_tests(path) == (frozenset({"test_it"}) if serial else frozenset())


def test_every_test_gets_one_tier_and_serial_ones_are_found(
    request: pytest.FixtureRequest,
) -> None:
    markers = {m.name for m in request.node.iter_markers()}
    assert len(markers & set(tiers.TIERS)) == 1, markers
    session = request.session
    by_tier = {
        name: sum(1 for item in session.items if item.get_closest_marker(name))
        for name in tiers.TIERS
    }
    assert sum(by_tier.values()) == len(session.items), by_tier


def test_answers_read_once_are_taken_while_no_test_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tiers, "_KNOWN", {})
    timed = "import time\n\ndef test_t():\n    took = time.monotonic()\n    assert took < 2\n"
    write(tmp_path, "import socket\n" + timed, "test_end.py")
    write(tmp_path, "import pytest\n@pytest.fixture(scope='module')\ndef s(): ...\n", "test_s.py")
    saved = tiers.answers(tmp_path)
    assert saved["files"] == {
        "test_end.py": ["loopback", False, ["test_t"]],
        "test_s.py": ["unit", True, []],
    }
    # Answers that are not what the files say prove which ones are taken.
    doctored = {
        **saved,
        "files": {"test_end.py": ["bed", True, []], "test_s.py": ["install", False, []]},
    }
    assert tiers.preload(tmp_path, doctored)
    assert tiers.file_tier(tmp_path / "test_end.py") == "bed"
    assert tiers.one_worker(tmp_path / "test_end.py") is True
    assert tiers.timing_tests(tmp_path / "test_end.py") == frozenset()
    # A test file changed, added or removed: the answers are not taken.
    monkeypatch.setattr(tiers, "_KNOWN", {})
    write(tmp_path, "import pytest\n", "test_s.py")
    assert not tiers.preload(tmp_path, saved)
    assert tiers._KNOWN == {}
    saved = tiers.answers(tmp_path)
    write(tmp_path, "x = 1\n", "test_added.py")
    assert not tiers.preload(tmp_path, saved)
    assert not tiers.preload(tmp_path, None)
    assert not tiers.preload(tmp_path, {"digest": "something else", "files": {}})


def test_a_run_keeps_the_answers_for_every_test_file_of_the_suite(
    request: pytest.FixtureRequest,
) -> None:
    """What conftest.py keeps for a parallel run's workers is every file's answers as
    reading it gives them."""
    saved = tiers.answers(HERE)
    assert tiers.digest(HERE) == saved["digest"]
    assert "test_tiers.py" in saved["files"]
    assert saved["files"]["test_package.py"][:2] == ["install", True]
    cached = request.config.cache.get(conftest_key(), None) if request.config.cache else None
    if cached is not None and cached.get("digest") == saved["digest"]:
        assert cached == saved


def conftest_key() -> str:
    from tests.conftest import TIERS_CACHE_KEY

    return TIERS_CACHE_KEY
