"""The disk guard's decisions: thresholds, pause/resume/give up, which errors are a full disk."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from webrobot.job.diskspace import (
    MB,
    DiskWatch,
    Reading,
    Threshold,
    describe_error,
    is_disk_error,
)


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), True),
        (OSError(errno.EDQUOT, "Disk quota exceeded"), True),
        (OSError(errno.EIO, "Input/output error"), True),
        (sqlite3.OperationalError("database or disk is full"), True),
        (sqlite3.OperationalError("disk I/O error"), True),
        (ValueError("Internal error: 'No space left on device (os error 28)'"), True),
        (OSError(errno.ENOENT, "No such file or directory"), False),
        (OSError(errno.EACCES, "Permission denied"), False),
        (sqlite3.OperationalError("database is locked"), False),
        (ValueError("bad value"), False),
    ],
)
def test_which_errors_are_a_full_disk(exc: BaseException, expected: bool) -> None:
    assert is_disk_error(exc) is expected


def test_a_disk_error_raised_from_another_counts() -> None:
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as inner:
            raise RuntimeError("could not write") from inner
    except RuntimeError as outer:
        assert is_disk_error(outer)
    assert not is_disk_error(None)


def test_describe_error_gives_the_reason_without_the_errno_noise() -> None:
    assert describe_error(OSError(errno.ENOSPC, "No space left on device", "/x")) == (
        "No space left on device"
    )
    assert describe_error(sqlite3.OperationalError("database or disk is full")) == (
        "database or disk is full"
    )


@pytest.mark.parametrize(
    ("threshold", "free", "total", "low"),
    [
        (Threshold(500 * MB), 499 * MB, 100_000 * MB, True),
        (Threshold(500 * MB), 500 * MB, 100_000 * MB, False),
        (Threshold(0), 0, 100 * MB, False),  # no floor at all
        (Threshold(100 * MB, 0.05), 4_000 * MB, 100_000 * MB, True),  # 5 % of 100 GB is 5 GB
        (Threshold(100 * MB, 0.05), 6_000 * MB, 100_000 * MB, False),
        (Threshold(100 * MB, 0.05), 90 * MB, 1_000 * MB, True),  # the floor wins on a small disk
    ],
)
def test_threshold(threshold: Threshold, free: int, total: int, low: bool) -> None:
    assert threshold.low(Reading("/x", free, total)) is low


def test_pause_resume_and_the_time_paused() -> None:
    watch = DiskWatch(Threshold(10 * MB), timeout=60)
    plenty = [Reading("/job", 50 * MB, 100 * MB), Reading("/warc", 40 * MB, 100 * MB)]
    short = [Reading("/job", 50 * MB, 100 * MB), Reading("/warc", 5 * MB, 100 * MB)]
    assert watch.check(plenty, 0.0).action == ""
    paused = watch.check(short, 1.0)
    assert paused.action == "pause" and paused.reading == short[1]
    assert watch.paused and watch.pauses == 1
    assert watch.check(short, 30.0).action == ""  # still paused: said once
    assert watch.total_paused(30.0) == 29.0
    resumed = watch.check(plenty, 31.0)
    assert resumed.action == "resume" and resumed.paused_for == 30.0
    assert not watch.paused and watch.paused_seconds == 30.0
    assert watch.check(short, 40.0).action == "pause"
    assert watch.pauses == 2


def test_gives_up_after_the_timeout_and_never_with_zero() -> None:
    watch = DiskWatch(Threshold(10 * MB), timeout=60)
    short = [Reading("/job", 1 * MB, 100 * MB)]
    watch.check(short, 0.0)
    assert watch.check(short, 59.0).action == ""
    gave_up = watch.check(short, 60.0)
    assert gave_up.action == "give_up" and gave_up.paused_for == 60.0
    patient = DiskWatch(Threshold(10 * MB), timeout=0)
    patient.check(short, 0.0)
    assert patient.check(short, 1e9).action == ""


def test_the_messages_name_the_folder_the_free_space_and_the_threshold() -> None:
    watch = DiskWatch(Threshold(500 * MB), timeout=600)
    reading = Reading("/data/job", 120 * MB, 10_000 * MB)
    text = watch.pause_message(reading)
    assert "/data/job" in text and "120 MB free" in text and "threshold of 500 MB" in text
    assert "closing after 600 s" in text
    text = watch.give_up_message(reading, 601)
    assert "/data/job" in text and "disk_full" in text and "601 s" in text
    fraction = DiskWatch(Threshold(100 * MB, 0.05)).pause_message(reading)
    assert "500 MB (5.0% of the disk)" in fraction
