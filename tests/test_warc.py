"""The WARC writer alone: records, digests, revisits, rotation, the digest log."""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from webrobot.warc import DigestLog, Exchange, WarcArchive, request_line_target


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
