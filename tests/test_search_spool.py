"""The index spool alone: order, segments, a record cut by a kill, checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest

from webrobot.search import spool as indexspool
from webrobot.search.spool import Position, SpoolReader, SpoolWriter, segment_path, segments


def test_records_come_back_in_order_across_segments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexspool, "SEGMENT_BYTES", 200)
    reader = SpoolReader(tmp_path)
    writer = SpoolWriter(tmp_path, reader.repair())
    for n in range(20):
        writer.append(("put", f"page {n}" * 3))
    writer.append(("remove", "page 3"))
    assert len(segments(tmp_path)) > 3
    got = [record for _, record in reader.read(final=True)]
    assert got == [("put", f"page {n}" * 3) for n in range(20)] + [("remove", "page 3")]
    assert reader.read(final=True) == []
    reader.committed(reader.position)
    assert segments(tmp_path) == [writer.segment]  # finished segments are dropped
    reader.drained()
    assert segments(tmp_path) == []
    assert SpoolReader(tmp_path).repair() == writer.segment + 2  # numbers never reused


def test_a_cut_record_is_dropped_and_uncommitted_records_replayed(tmp_path: Path) -> None:
    reader = SpoolReader(tmp_path)
    writer = SpoolWriter(tmp_path, reader.repair())
    for n in range(5):
        writer.append(("put", n))
    first_two = reader.read()[:2]
    reader.committed(first_two[-1][0])  # the index committed two records, then a kill
    writer.close()
    with segment_path(tmp_path, writer.segment).open("ab") as stream:
        stream.write(indexspool.encode(("put", "torn"))[:-3])  # a write cut by the kill

    again = SpoolReader(tmp_path)
    next_segment = again.repair()
    assert again.cut > 0 and next_segment == writer.segment + 1
    assert [r for _, r in again.read(final=True)] == [("put", n) for n in range(2, 5)]
    later = SpoolWriter(tmp_path, next_segment)
    later.append(("put", "after the restart"))
    assert [r for _, r in again.read(final=True)] == [("put", "after the restart")]


def test_a_partial_record_in_the_live_segment_waits(tmp_path: Path) -> None:
    reader = SpoolReader(tmp_path)
    writer = SpoolWriter(tmp_path, reader.repair())
    writer.append(("put", 1))
    data = indexspool.encode(("put", 2))
    with segment_path(tmp_path, writer.segment).open("ab") as stream:
        stream.write(data[:5])
        stream.flush()
        assert [r for _, r in reader.read()] == [("put", 1)]
        stream.write(data[5:])
    assert [r for _, r in reader.read()] == [("put", 2)]
    assert reader.position == Position(
        writer.segment, len(indexspool.encode(("put", 1))) + len(data)
    )
