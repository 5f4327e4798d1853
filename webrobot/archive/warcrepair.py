"""Repairing the WARC files a killed process left ``.open`` (no Scrapy here).

The next archive opened on the same folder calls :func:`repair_open_files`: each
file written on this host by a process that is gone is cut after its last
complete exchange (a response or revisit record and its request record, both
read back whole by warcio with their digests checked), then closed under its
final name. A live writer's file is never touched.
"""

from __future__ import annotations

import fcntl
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from webrobot.archive.warc import OPEN_SUFFIX, SUFFIX


@dataclass(frozen=True, slots=True)
class Repair:
    """A file a killed writer left open, now cut after its last complete exchange
    and closed."""

    path: Path  # its name now (without ``.open``); None-like empty files are removed
    records_cut: int  # whole records after the last complete exchange, plus a torn one
    bytes_cut: int


def complete_length(path: Path) -> tuple[int, int]:
    """(bytes up to the end of the last complete exchange or warcinfo record,
    records after that point) of a WARC file, read with warcio with the digests
    checked; a record that cannot be read whole counts as one record."""
    good_end, after = 0, 0
    with path.open("rb") as stream, path.open("rb") as raw:
        records = ArchiveIterator(stream, check_digests="raise")
        try:
            for record in records:
                records.read_to_end(record)
                start, length = records.get_record_offset(), records.get_record_length()
                raw.seek(start)
                if not _whole_member(raw.read(length)):
                    after += 1  # its data is there, its gzip trailer is not
                    break
                if record.rec_type in ("request", "warcinfo"):
                    good_end, after = start + length, 0
                else:
                    after += 1
        except Exception:  # noqa: BLE001 - a torn record: whatever warcio says about it
            after += 1
    if after == 0 and good_end < path.stat().st_size:
        after = 1  # bytes warcio did not even see as a record
    return good_end, after


def _whole_member(data: bytes) -> bool:
    """Whether ``data`` is one gzip member to its end (trailer and all)."""
    unpacker = zlib.decompressobj(31)
    try:
        unpacker.decompress(data)
    except zlib.error:
        return False
    return unpacker.eof and not unpacker.unused_data


def _writer_of(name: str) -> tuple[str, int] | None:
    """(host, pid) in a file name made by :func:`~webrobot.archive.warc.file_name`."""
    stem = name.removesuffix(OPEN_SUFFIX).removesuffix(SUFFIX)
    head, _, pid = stem.rpartition("-")
    if not pid.isdigit():
        return None
    return head, int(pid)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (its file may be one it has
    just created and not locked yet)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, as another user's process
        return True
    return True


def repair_open_files(folder: Path, host: str) -> list[Repair]:
    """Cut and close the ``.open`` files in ``folder`` that were written on this
    host by a process that is gone (not running, and their lock is free); a live
    writer's file is never touched, nor one written on another host (its writer
    may live)."""
    safe_host = "".join(c if c.isalnum() or c in ".-" else "_" for c in host) or "host"
    repairs = []
    for path in sorted(folder.glob("*" + SUFFIX + OPEN_SUFFIX)):
        writer = _writer_of(path.name)
        if writer is None or not writer[0].endswith("-" + safe_host) or _alive(writer[1]):
            continue
        with path.open("r+b") as stream:
            try:
                fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # its writer is alive
            size = path.stat().st_size
            good_end, cut = complete_length(path)
            stream.truncate(good_end)
            stream.flush()
            os.fsync(stream.fileno())
        final = path.with_name(path.name[: -len(OPEN_SUFFIX)])
        if good_end == 0:
            path.unlink()
        else:
            path.rename(final)
        repairs.append(Repair(final, cut, size - good_end))
    return repairs
