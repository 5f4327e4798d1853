"""The WARC writer alone: records, digests, revisits, rotation, the digest log."""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from webrobot.archive.warc import (
    DigestLog,
    Exchange,
    WarcArchive,
    request_line_target,
)
from webrobot.archive.warcrepair import repair_open_files


def exchange(url: str, body: bytes, **kw: object) -> Exchange:
    return Exchange(
        url=url, method="GET", request_headers=[("User-Agent", "webrobot/test")], request_body=b"",
        status=200, response_headers=[("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")],
        payload=body, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def records(folder: Path) -> list:
    out = []
    for path in sorted(folder.glob("*.warc.gz*")):
        with path.open("rb") as stream:
            for rec in ArchiveIterator(stream, check_digests="raise"):
                out.append(
                    (rec.rec_type, rec.rec_headers, rec.http_headers, rec.content_stream().read())
                )
    return out


def test_request_line_target() -> None:
    assert request_line_target("http://h:8/a/b?x=1#frag") == "/a/b?x=1"
    assert request_line_target("http://h") == "/"


def test_pair_digest_revisit_and_framing(tmp_path: Path) -> None:
    archive = WarcArchive(tmp_path, prefix="t", info={"software": "test"})
    assert archive.write(exchange("http://h/a", b"<p>same</p>")) == "response"
    assert archive.write(exchange("http://h/b", b"<p>same</p>", truncated="length")) == "revisit"
    assert (
        archive.write(exchange("http://h/c", b"")) == "response"
    )  # empty bodies are never revisits
    assert archive.write(exchange("http://h/d", b"")) == "response"
    archive.close()
    recs = records(tmp_path)
    assert [r[0] for r in recs] == ["warcinfo"] + ["response", "request", "revisit", "request"] + [
        "response",
        "request",
    ] * 2
    first = recs[1][1]
    sha1 = "sha1:" + base64.b32encode(hashlib.sha1(b"<p>same</p>").digest()).decode()
    assert first.get_header("WARC-Payload-Digest") == sha1
    revisit = recs[3][1]
    assert revisit.get_header("WARC-Refers-To-Target-URI") == "http://h/a"
    assert revisit.get_header("WARC-Payload-Digest") == sha1
    # the body handed over was de-chunked: the framing header is renamed
    assert recs[1][2].get_header("Transfer-Encoding") is None
    assert recs[1][2].get_header("X-Crawler-Transfer-Encoding") == "chunked"
    assert recs[2][2].get_header("Host") == "h"
    assert recs[2][2].protocol == "GET"


def test_rotation_and_names(tmp_path: Path) -> None:
    clock = iter(datetime(2026, 11, 24, 10, 0, s, tzinfo=UTC) for s in range(60))
    archive = WarcArchive(
        tmp_path, prefix="crawl", max_size=1, host="my host", pid=42, clock=lambda: next(clock)
    )
    for n in range(3):
        archive.write(exchange(f"http://h/{n}", f"body {n}".encode()))
        assert archive.current_path is None  # each file closed once it passed max_size
    archive.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        f"crawl-2026112410000{n}000000-0000{n + 1}-my_host-42.warc.gz" for n in range(3)
    ]
    assert [len(records(tmp_path)) for _ in range(1)] == [9]


def test_digest_log_survives_a_restart_and_a_cut_line(tmp_path: Path) -> None:
    log_path = tmp_path / "job" / "digests.txt"
    archive = WarcArchive(tmp_path / "w", digests=DigestLog(log_path))
    archive.write(exchange("http://h/a", b"payload"))
    archive.close()
    with log_path.open("a") as log:
        log.write("0123 cut")  # a line a kill interrupted
    again = WarcArchive(tmp_path / "w", digests=DigestLog(log_path))
    assert again.write(exchange("http://h/b", b"payload")) == "revisit"
    again.write(exchange("http://h/c", b"other payload"))
    again.close()
    assert len(DigestLog(log_path)) == 2  # the cut line is skipped, the next one whole


def _types(path: Path) -> list[tuple[str, str | None]]:
    with path.open("rb") as stream:
        return [
            (rec.rec_type, rec.rec_headers.get_header("WARC-Target-URI"))
            for rec in ArchiveIterator(stream, check_digests="raise")
        ]


GONE = 2**22 + 7  # above Linux's default pid_max: no process has it


def _killed_file(tmp_path: Path, host: str, pid: int) -> Path:
    """A file as a killed writer leaves it: open, its last exchange torn."""
    archive = WarcArchive(tmp_path, prefix="t", host=host, pid=pid)
    for n in range(3):
        archive.write(exchange(f"http://h/{n}", f"body {n}".encode() * 50))
    path = archive.current_path
    assert path is not None
    archive._out.close()  # type: ignore[union-attr]  # the process dies: no rename
    return path


def test_repair_cuts_a_torn_exchange_and_closes_the_file(tmp_path: Path) -> None:
    path = _killed_file(tmp_path, "here", GONE)
    whole = path.read_bytes()
    one_more = WarcArchive(tmp_path / "other", host="here", pid=2)
    one_more.write(exchange("http://h/torn", b"torn body" * 100))
    one_more.close()
    other = next((tmp_path / "other").iterdir())
    with other.open("rb") as stream:
        warcinfo = ArchiveIterator(stream)
        warcinfo.read_to_end(next(warcinfo))
        member = other.read_bytes()[warcinfo.get_record_length() :]  # the exchange's records
    for cut_at in (len(member) - 5, len(member) // 2, 30):  # a response torn, or its request
        path.write_bytes(whole + member[:cut_at])
        repairs = repair_open_files(tmp_path, "here")
        assert [r.path.name for r in repairs] == [path.name.removesuffix(".open")]
        assert repairs[0].records_cut >= 1 and repairs[0].bytes_cut == cut_at
        closed = repairs[0].path
        assert closed.read_bytes() == whole
        assert [t for t, _ in _types(closed)] == ["warcinfo"] + ["response", "request"] * 3
        closed.rename(path)  # again, with another cut


def test_repair_cuts_an_exchange_missing_its_request(tmp_path: Path) -> None:
    path = _killed_file(tmp_path, "here", GONE)
    whole = path.read_bytes()
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        ends = []
        for rec in records:
            records.read_to_end(rec)
            ends.append(records.get_record_offset() + records.get_record_length())
    path.write_bytes(whole[: ends[-2]])  # the last response whole, its request gone
    (repair,) = repair_open_files(tmp_path, "here")
    assert repair.records_cut == 1
    assert [u for t, u in _types(repair.path) if t == "response"] == ["http://h/0", "http://h/1"]


def test_repair_leaves_live_and_foreign_files_alone(tmp_path: Path) -> None:
    live = WarcArchive(tmp_path, prefix="t", host="here", pid=GONE)
    live.write(exchange("http://h/a", b"a"))  # locked: its writer is alive
    foreign = _killed_file(tmp_path, "elsewhere", GONE)
    running = _killed_file(tmp_path, "here", 1)  # pid 1 runs: created, maybe not locked yet
    assert repair_open_files(tmp_path, "here") == []
    assert running.exists()
    assert live.current_path is not None and live.current_path.exists() and foreign.exists()
    live.write(exchange("http://h/b", b"b"))
    live.close()
    assert [u for t, u in _types(live.files[0]) if t == "response"] == ["http://h/a", "http://h/b"]
