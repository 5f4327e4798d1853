"""The exit statuses of ``scrapy crawl``: one table, one status per kind of ending."""

from __future__ import annotations

from pathlib import Path

import pytest

from webrobot.job import exitstatus
from webrobot.job.exitstatus import GAVE_UP, NO_SUCH_NAME, REFUSED, STATUSES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "reference" / "commands.md"


@pytest.mark.parametrize(
    ("pages", "dead", "failures", "held_only", "expected"),
    [
        (3, ["no_such_name"], 2, False, None),  # one site answered: the crawl did its job
        (0, [], 0, False, None),  # nothing to fetch (robots.txt forbade all, no start URL)
        (0, ["no_such_name"], 1, False, NO_SUCH_NAME),
        (0, ["no_such_name", "no_such_name"], 0, False, NO_SUCH_NAME),
        (0, ["refused"], 1, False, REFUSED),
        (0, ["no_such_name", "refused"], 0, False, REFUSED),
        (0, [], 4, False, GAVE_UP),  # robots.txt or pages kept failing (5xx, timeouts)
        (0, [], 0, True, GAVE_UP),  # closed with nothing left but held sites
    ],
)
def test_nothing_fetched(
    pages: int,
    dead: list[str],
    failures: int,
    held_only: bool,
    expected: exitstatus.ExitStatus | None,
) -> None:
    assert exitstatus.nothing_fetched(pages, dead, failures, held_only=held_only) == expected


def test_statuses_are_distinct_and_documented() -> None:
    codes = [s.code for s in STATUSES]
    assert len(set(codes)) == len(codes)
    assert len({s.name for s in STATUSES}) == len(STATUSES)
    assert exitstatus.markdown_table() in DOCS.read_text(encoding="utf-8"), (
        "docs/reference/commands.md must hold exitstatus.markdown_table()"
    )


def test_a_crawl_a_signal_stopped_exits_as_shells_report_it() -> None:
    import signal

    assert exitstatus.stopped_by(signal.SIGINT) == exitstatus.INTERRUPTED
    assert exitstatus.INTERRUPTED.code == 130
    assert exitstatus.stopped_by(signal.SIGTERM) == exitstatus.TERMINATED
    assert exitstatus.TERMINATED.code == 143
    assert exitstatus.stopped_by(signal.SIGHUP).code == 128 + signal.SIGHUP
