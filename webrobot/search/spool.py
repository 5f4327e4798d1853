"""The durable hand-off between the crawl and the index process (no Scrapy).

The crawl appends each page to index (or URL to remove) to a **spool**: numbered
segment files in the index folder's ``spool/`` folder, one length- and
CRC-framed pickle per record, written with one ``os.write`` before the crawl
goes on (so it survives the crawl being killed: it is in the kernel's page
cache). The index process reads the segments in order, applies each record, and
after each index commit records how far it got in ``spool/checkpoint.json``
(written atomically), deleting the segments it has finished.

So after any kill (of the crawl, of the index process, or both), the next index
process replays everything after the checkpoint: a page that was fetched but
not yet committed to the index is indexed then. Replaying a page that was
already indexed only replaces it by itself (one document per URL), and records
are applied in the order they were written, so a removal never overtakes the
addition it follows. A record cut by a kill (its frame incomplete or its CRC
wrong) was never acknowledged to the crawl and is cut off; so is one that a
full disk cut (the writer cuts it at once, and raises).
"""

from __future__ import annotations

import json
import os
import pickle
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPOOL = "spool"
CHECKPOINT = "checkpoint.json"
SEGMENT_SUFFIX = ".pages"
#: A segment holds about this many bytes before the crawl starts the next one.
SEGMENT_BYTES = 32_000_000
_FRAME = struct.Struct("<II")  # payload length, CRC-32 of the payload


def segment_path(folder: Path, number: int) -> Path:
    return folder / f"{number:08d}{SEGMENT_SUFFIX}"


def segments(folder: Path) -> list[int]:
    """The numbers of the segments in ``folder``, in order."""
    found = []
    for path in folder.glob("*" + SEGMENT_SUFFIX):
        stem = path.name[: -len(SEGMENT_SUFFIX)]
        if stem.isdigit():
            found.append(int(stem))
    return sorted(found)


def encode(record: tuple[str, Any]) -> bytes:
    payload = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


@dataclass(frozen=True, slots=True)
class Position:
    segment: int
    offset: int


def read_checkpoint(folder: Path) -> Position:
    try:
        data = json.loads((folder / CHECKPOINT).read_text("utf-8"))
        return Position(int(data["segment"]), int(data["offset"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Position(0, 0)


def write_checkpoint(folder: Path, position: Position) -> None:
    tmp = folder / (CHECKPOINT + ".tmp")
    tmp.write_text(json.dumps({"segment": position.segment, "offset": position.offset}))
    os.replace(tmp, folder / CHECKPOINT)


def complete_length(path: Path) -> int:
    """Bytes of ``path`` that are whole records (the rest was cut by a kill)."""
    end = 0
    with path.open("rb") as stream:
        while True:
            head = stream.read(_FRAME.size)
            if len(head) < _FRAME.size:
                return end
            length, crc = _FRAME.unpack(head)
            payload = stream.read(length)
            if len(payload) < length or zlib.crc32(payload) != crc:
                return end
            end += _FRAME.size + length


class SpoolWriter:
    """The crawl's side: appends records to the newest segment."""

    def __init__(self, folder: Path, first_segment: int) -> None:
        self.folder = folder
        self.segment = first_segment
        self.records = 0
        self._size = 0
        self._fd = self._open()

    def _open(self) -> int:
        fd = os.open(
            segment_path(self.folder, self.segment), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644
        )
        self._size = os.fstat(fd).st_size
        return fd

    def append(self, record: tuple[str, Any]) -> None:
        data = encode(record)
        if self._size and self._size + len(data) > SEGMENT_BYTES:
            os.close(self._fd)
            self.segment += 1
            self._fd = self._open()
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError:
            # A full disk: cut the part of the record that was written, so that the
            # segment ends with a whole record (never acknowledged to the crawl).
            try:
                os.ftruncate(self._fd, self._size)
            except OSError:
                pass  # the reader's repair cuts it when the index opens next
            raise
        self._size += len(data)
        self.records += 1

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class SpoolReader:
    """The index process's side: the records after the checkpoint, in order."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.position = read_checkpoint(folder)
        self.cut = 0  # bytes of a record cut by a kill, dropped at start

    def repair(self) -> int:
        """Cut the newest segment after its last whole record (the only one a kill
        can have cut); returns the next free segment number for the crawl."""
        numbers = segments(self.folder)
        if numbers:
            newest = segment_path(self.folder, numbers[-1])
            whole = complete_length(newest)
            size = newest.stat().st_size
            if whole < size:
                with newest.open("r+b") as stream:
                    stream.truncate(whole)
                self.cut = size - whole
        for number in numbers:  # finished before the checkpoint: not needed any more
            if number < self.position.segment:
                segment_path(self.folder, number).unlink(missing_ok=True)
        if numbers and self.position.segment < numbers[0]:
            self.position = Position(numbers[0], 0)
        return max([*numbers, self.position.segment, 0]) + 1

    def pending_segments(self) -> list[int]:
        return [n for n in segments(self.folder) if n >= self.position.segment]

    def read(self, final: bool = False) -> list[tuple[Position, tuple[str, Any]]]:
        """The whole records from the position on (advancing it); at the end of a
        segment that has a successor, goes on in the successor. A partial record
        at the end of the newest segment is left for later (being written)."""
        out: list[tuple[Position, tuple[str, Any]]] = []
        while True:
            numbers = self.pending_segments()
            if not numbers:
                return out
            if numbers[0] > self.position.segment:
                self.position = Position(numbers[0], 0)
            path = segment_path(self.folder, self.position.segment)
            newer = len(numbers) > 1
            with path.open("rb") as stream:
                stream.seek(self.position.offset)
                data = stream.read()
            pos = 0
            while pos + _FRAME.size <= len(data):
                length, crc = _FRAME.unpack_from(data, pos)
                end = pos + _FRAME.size + length
                if end > len(data):
                    break
                payload = data[pos + _FRAME.size : end]
                if zlib.crc32(payload) != crc:
                    break
                pos = end
                out.append(
                    (
                        Position(self.position.segment, self.position.offset + pos),
                        pickle.loads(payload),
                    )
                )
            self.position = Position(self.position.segment, self.position.offset + pos)
            if not newer:
                return out
            if pos < len(data):  # a record cut in an older segment cannot be finished any more
                self.cut += len(data) - pos
            self.position = Position(numbers[1], 0)
            if final:
                continue
            if len(out) >= 1000:
                return out

    def drained(self) -> None:
        """Everything read is committed and nothing more will come (a clean end):
        drop the last segment too."""
        path = segment_path(self.folder, self.position.segment)
        if path.exists() and path.stat().st_size == self.position.offset:
            self.committed(Position(self.position.segment + 1, 0))  # drops the segment
            self.position = Position(self.position.segment + 1, 0)

    def committed(self, position: Position) -> None:
        """Everything before ``position`` is in the index: remember it, drop old segments."""
        write_checkpoint(self.folder, position)
        for number in segments(self.folder):
            if number < position.segment:
                segment_path(self.folder, number).unlink(missing_ok=True)
