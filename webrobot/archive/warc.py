"""WARC/1.1 files of what was fetched, written with warcio (no Scrapy here).

:class:`WarcArchive` takes one :class:`Exchange` (a request and the response to
it, as they went over the wire) at a time and writes it as a ``response`` record
followed by its ``request`` record (``WARC-Concurrent-To`` ties them), or, when
the payload's MD5 equals an earlier response's, as a ``revisit`` record
(profile ``identical-payload-digest``, pointing at the first URL and date)
followed by the request. Every record is its own gzip member, so a reader can
seek to any record and a cut file loses at most its last record.

Files are named ``PREFIX-YYYYmmddHHMMSSffffff-NNNNN-HOST-PID.warc.gz``: every
process (every worker, every run of a resumed job) has its own file set and
never appends to a file another process wrote. A file being written ends in
``.open`` (and is locked with ``flock`` while it is written) and is renamed when
it is full (``max_size`` bytes) or closed; each file starts with a ``warcinfo``
record naming the crawler, its version and its settings.

A file a killed process left ``.open`` is repaired by the next archive opened
on the same folder (:mod:`webrobot.archive.warcrepair`). An exchange is
written with one ``write`` after both records are built, so a kill can leave
at most one exchange incomplete, and that one had not been handed on.

Why warcio: it is the reference Python implementation (Webrecorder's, used by
pywb), computes the block and payload digests itself, and reads back what it
writes; fastwarc reads faster but its writer needs the digests done by hand.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import io
import os
import socket
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

WARC_VERSION = "1.1"
#: A finished file's name ends so; the file being written has ``.open`` after it.
SUFFIX = ".warc.gz"
OPEN_SUFFIX = ".open"
#: Hop-by-hop framing that the HTTP client removed from the body it handed over:
#: kept under this name, as Heritrix and wpull do, so readers do not de-chunk twice.
RENAMED_HEADER_PREFIX = "X-Crawler-"
_FRAMING_HEADERS = frozenset({"transfer-encoding"})


@dataclass(frozen=True, slots=True)
class Exchange:
    """One fetch: what was sent and what came back (body as received, still
    content-encoded)."""

    url: str
    method: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    status: int
    response_headers: list[tuple[str, str]]
    payload: bytes
    protocol: str = "HTTP/1.1"
    #: "length" when the body was cut short (download size limit, stopped download)
    truncated: str | None = None
    ip: str | None = None
    #: the kind of page requisite this fetch was (``None``: a page), kept in
    #: the main record's ``X-Webrobot-Requisite`` field so that tools listing
    #: an archive's pages (``scrapy webrobot-wacz``) can leave requisites out
    requisite: str | None = None


#: WARC field of a requisite's response (or revisit) record: the requisite's kind.
REQUISITE_FIELD = "X-Webrobot-Requisite"


@dataclass(frozen=True, slots=True)
class FirstCopy:
    """Where the first response with a given payload is archived."""

    digest: str  # WARC-Payload-Digest of that response (sha1:BASE32)
    uri: str
    date: str  # its WARC-Date


class DigestLog:
    """The payload MD5s already archived, remembered across a resumed job in an
    append-only text file (one ``md5 digest date uri`` line per first copy; a
    line cut by a kill is ignored)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.first: dict[bytes, FirstCopy] = {}
        self._file: io.TextIOWrapper | None = None
        if path is not None and path.exists():
            with path.open("r", encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    parts = line.rstrip("\n").split(" ", 3)
                    if len(parts) != 4 or not line.endswith("\n"):
                        continue
                    try:
                        key = bytes.fromhex(parts[0])
                    except ValueError:
                        continue
                    self.first[key] = FirstCopy(parts[1], parts[3], parts[2])

    def get(self, md5: bytes) -> FirstCopy | None:
        return self.first.get(md5)

    def add(self, md5: bytes, copy: FirstCopy) -> None:
        self.first[md5] = copy
        if self.path is not None:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("a", encoding="utf-8")
                if self._file.tell() and not self.path.read_bytes().endswith(b"\n"):
                    self._file.write("\n")  # end a line cut by a kill before appending
            self._file.write(f"{md5.hex()} {copy.digest} {copy.date} {copy.uri}\n")
            self._file.flush()

    def __len__(self) -> int:
        return len(self.first)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class SharedDigestLog:
    """The payloads already archived by any worker of a shared crawl, in Redis:
    one hash per first byte of the MD5 (``<prefix>:<xx>``, spread over a
    cluster's slots), field the MD5, value ``digest date uri`` of the first copy
    (about 150 bytes a distinct payload). ``HSETNX``: the first copy written
    stays the original. Read and written from the archive's writer thread, so
    Redis's round trips never hold up the crawl's reactor. If Redis fails the
    page is archived as a full response (always valid), counted in ``errors``."""

    def __init__(self, server: Any, prefix: str) -> None:
        self.server = server
        self.prefix = prefix
        self.errors = 0
        self.first_error = ""
        self._added = 0

    def _key(self, md5: bytes) -> str:
        return f"{self.prefix}:{md5[:1].hex()}"

    def _failed(self, exc: Exception) -> None:
        self.errors += 1
        self.first_error = self.first_error or f"{type(exc).__name__}: {exc}"

    def get(self, md5: bytes) -> FirstCopy | None:
        try:
            value = self.server.hget(self._key(md5), md5)
        except Exception as exc:  # noqa: BLE001 - Redis down: a full response instead
            self._failed(exc)
            return None
        if value is None:
            return None
        parts = (
            value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        ).split(" ", 2)
        return FirstCopy(parts[0], parts[2], parts[1]) if len(parts) == 3 else None

    def add(self, md5: bytes, copy: FirstCopy) -> None:
        try:
            self.server.hsetnx(self._key(md5), md5, f"{copy.digest} {copy.date} {copy.uri}")
            self._added += 1
        except Exception as exc:  # noqa: BLE001 - Redis down: its duplicates written in full
            self._failed(exc)

    def __len__(self) -> int:
        return self._added

    def close(self) -> None:
        self.server.close()


def file_name(prefix: str, serial: int, when: datetime, host: str, pid: int) -> str:
    stamp = when.strftime("%Y%m%d%H%M%S%f")
    safe_host = "".join(c if c.isalnum() or c in ".-" else "_" for c in host) or "host"
    return f"{prefix}-{stamp}-{serial:05d}-{safe_host}-{pid}{SUFFIX}"


def request_line_target(url: str) -> str:
    """The request-target of an origin-form request line: path and query."""
    rest = url.split("://", 1)[-1]
    slash = rest.find("/")
    target = rest[slash:] if slash >= 0 else "/"
    return target.split("#", 1)[0] or "/"


def host_header(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0].split("?", 1)[0].rsplit("@", 1)[-1]


def response_http_headers(exchange: Exchange) -> StatusAndHeaders:
    reason = _reason(exchange.status)
    headers = [
        (RENAMED_HEADER_PREFIX + name if name.lower() in _FRAMING_HEADERS else name, value)
        for name, value in exchange.response_headers
    ]
    return StatusAndHeaders(
        f"{exchange.status} {reason}".rstrip(), headers, protocol=exchange.protocol
    )


def request_http_headers(exchange: Exchange) -> StatusAndHeaders:
    headers = list(exchange.request_headers)
    if not any(name.lower() == "host" for name, _ in headers):
        headers.insert(0, ("Host", host_header(exchange.url)))
    line = f"{exchange.method} {request_line_target(exchange.url)}"
    return StatusAndHeaders(line, headers, protocol=exchange.protocol, is_http_request=True)


def _sha1(data: bytes) -> str:
    """A WARC digest (``sha1:`` and base 32, as warcio writes them), computed by
    hashlib in one call instead of warcio's reading loop."""
    return "sha1:" + base64.b32encode(hashlib.sha1(data, usedforsecurity=False).digest()).decode()


def _block_digest(writer: WARCWriter, http_headers: StatusAndHeaders, payload: bytes) -> str:
    """The digest of a record's block: its HTTP headers as warcio will write them,
    then the payload."""
    if not http_headers.headers_buff:
        http_headers.compute_headers_buffer(writer.header_filter)
    digest = hashlib.sha1(http_headers.headers_buff, usedforsecurity=False)
    digest.update(payload)
    return "sha1:" + base64.b32encode(digest.digest()).decode()


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


@dataclass
class WarcArchive:
    """Writes exchanges into a rotating set of WARC files (see module doc)."""

    folder: Path
    prefix: str = "webrobot"
    max_size: int = 1_000_000_000  # bytes before the next file (0: one file)
    info: dict[str, str] = field(default_factory=dict)
    digests: DigestLog | SharedDigestLog = field(default_factory=DigestLog)
    dedupe: bool = True
    #: zlib level of each record's gzip member: on 15 KB HTML pages level 1 takes
    #: 0.10 ms a page against level 6's 0.27 ms, for files 5 % larger
    compress_level: int = 1
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    #: called with each finished file's path
    on_file_closed: Callable[[Path], None] | None = None

    def __post_init__(self) -> None:
        self.serial = 0
        self.files: list[Path] = []
        self.bytes_written = 0
        self._path: Path | None = None
        self._out: io.FileIO | None = None
        self._writer: WARCWriter | None = None
        #: Set by :meth:`abandon`: a write failed, nothing more is written.
        self.stopped = False
        self._good = 0  # bytes of the open file that are whole exchanges

    # -- files ---------------------------------------------------------------
    def _member(self, writer: WARCWriter, record: object) -> bytes:
        """One record as one gzip member, at ``compress_level`` (warcio's own
        gzip writer always uses 9: several times the CPU for a few % smaller files)."""
        buffer = io.BytesIO()
        writer.out = buffer
        writer.write_record(record)
        packer = zlib.compressobj(self.compress_level, zlib.DEFLATED, 31)
        return packer.compress(buffer.getbuffer()) + packer.flush()

    def _write(self, writer: WARCWriter, *records: object) -> None:
        """The records in one write (a kill cuts at most this group)."""
        assert self._out is not None
        view = memoryview(b"".join(self._member(writer, record) for record in records))
        while view:  # unbuffered: a short write (a full disk) goes on or raises
            view = view[self._out.write(view) or 0 :]

    def _open(self) -> WARCWriter:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.serial += 1
        name = file_name(self.prefix, self.serial, self.clock(), self.host, self.pid)
        self._path = self.folder / (name + OPEN_SUFFIX)
        # Unbuffered: each exchange reaches the kernel in whole writes, and after a
        # failed one no buffer is left to be written at close (see abandon()).
        self._out = self._path.open("xb", buffering=0)
        self._good = 0
        fcntl.flock(self._out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # "being written"
        writer = WARCWriter(self._out, gzip=False, warc_version=WARC_VERSION)
        self._write(
            writer,
            writer.create_warcinfo_record(name, {"format": "WARC File Format 1.1", **self.info}),
        )
        self._good = self._out.tell()
        self._writer = writer
        return writer

    def _finish_file(self) -> None:
        if self._out is None or self._path is None:
            return
        self._out.close()
        final = self._path.with_name(self._path.name[: -len(OPEN_SUFFIX)])
        self._path.rename(final)
        self.files.append(final)
        self._out = self._writer = self._path = None
        if self.on_file_closed is not None:
            self.on_file_closed(final)

    def close(self) -> None:
        try:
            self._finish_file()
        finally:
            self.digests.close()

    def abandon(self) -> bool:
        """A write failed (a full disk): cut the open file back to its last whole
        exchange and write nothing more in this run. False when even the cut
        failed: the file is left ``.open`` for :func:`repair_open_files`."""
        self.stopped = True
        if self._out is None:
            return True
        try:
            os.ftruncate(self._out.fileno(), self._good)
            self._out.seek(self._good)
        except OSError:
            self._out.close()
            self._out = self._writer = self._path = None
            return False
        if self._good == 0:  # not even its warcinfo record: no file
            assert self._path is not None
            self._out.close()
            self._path.unlink(missing_ok=True)
            self._out = self._writer = self._path = None
        return True

    @property
    def current_path(self) -> Path | None:
        return self._path

    # -- records ---------------------------------------------------------------
    def write(self, exchange: Exchange) -> str:
        """Archive one exchange; returns the type of its main record
        (``"response"`` or ``"revisit"``)."""
        if self.stopped:
            raise RuntimeError("the archive stopped after a failed write")
        writer = self._writer or self._open()
        assert self._out is not None
        start = self._out.tell()
        extra: dict[str, str] = {}
        if exchange.ip:
            extra["WARC-IP-Address"] = exchange.ip
        if exchange.requisite:
            extra[REQUISITE_FIELD] = exchange.requisite
        md5 = hashlib.md5(exchange.payload, usedforsecurity=False).digest()
        first = self.digests.get(md5) if self.dedupe and exchange.payload else None
        http_headers = response_http_headers(exchange)
        if first is not None:
            extra["WARC-Block-Digest"] = _block_digest(writer, http_headers, b"")
            main = writer.create_revisit_record(
                exchange.url, first.digest, first.uri, first.date,
                http_headers=http_headers, warc_headers_dict=extra,
            )  # fmt: skip
            kind = "revisit"
        else:
            if exchange.truncated:
                extra["WARC-Truncated"] = exchange.truncated
            extra["WARC-Payload-Digest"] = _sha1(exchange.payload)
            extra["WARC-Block-Digest"] = _block_digest(writer, http_headers, exchange.payload)
            main = writer.create_warc_record(
                exchange.url, "response", payload=io.BytesIO(exchange.payload),
                length=len(exchange.payload), http_headers=http_headers, warc_headers_dict=extra,
            )  # fmt: skip
            kind = "response"
        request_headers = request_http_headers(exchange)
        body = exchange.request_body
        request = writer.create_warc_record(
            exchange.url, "request", payload=io.BytesIO(body), length=len(body),
            http_headers=request_headers,
            warc_headers_dict={
                "WARC-Payload-Digest": _sha1(body),
                "WARC-Block-Digest": _block_digest(writer, request_headers, body),
            },
        )  # fmt: skip
        request.rec_headers.replace_header("WARC-Date", main.rec_headers.get_header("WARC-Date"))
        request.rec_headers.add_header(
            "WARC-Concurrent-To", main.rec_headers.get_header("WARC-Record-ID")
        )
        self._write(writer, main, request)
        self._good = self._out.tell()
        if kind == "response" and self.dedupe and exchange.payload:
            digest = main.rec_headers.get_header("WARC-Payload-Digest")
            date = main.rec_headers.get_header("WARC-Date")
            self.digests.add(md5, FirstCopy(digest, exchange.url, date))
        end = self._out.tell()
        self.bytes_written += end - start
        if self.max_size and end >= self.max_size:
            self._finish_file()
        return kind
