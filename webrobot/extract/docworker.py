"""The process that reads documents, apart from the crawl (no Scrapy here).

A document from the web may be slow, damaged or hostile: a PDF whose streams
inflate to gigabytes, a page tree that loops, a font that makes the parser
spin. So :mod:`webrobot.extract.documents` never parses one in the crawl's
process: it sends the bytes to this worker (a ``spawn`` child, started once
and reused) and waits for the answer with a deadline; a worker past its
deadline is killed and a fresh one started for the next document.

In the worker, before PDFium sees a document, every zlib (``FlateDecode``)
stream of the file is inflated once and its output counted and discarded: a
file whose streams inflate to more than the limit is refused as a
decompression bomb without PDFium allocating anything. The worker's address
space is capped too (``RLIMIT_AS``), so what the scan misses fails as an
allocation, not as the machine's memory; and an alarm ends a worker whose
parent vanished during a parse.

Answers are ``("ok", result)`` or ``("error", reason, message)``; the reasons
are the ``reason`` of :mod:`webrobot.extract.documents`' exceptions.
"""

from __future__ import annotations

import math
import os
import re
import signal
import zlib
from typing import TYPE_CHECKING, Any

from webrobot.optional import MissingExtra, require

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: What pypdfium2 serves, as its missing-package message names it.
FEATURE = "Reading PDFs (documents in WEBROBOT_EXTRACT)"
#: PDFium's document-loading error codes (``FPDF_ERR_*``).
_ERR_PASSWORD = 4
_ERR_SECURITY = 5
_STREAM = re.compile(rb"stream\r?\n|stream\r")
_CHUNK = 1 << 20  # output bytes per step
_IN_CHUNK = 1 << 16  # input bytes per step


class Refused(Exception):
    """A document this worker will not read: ``reason`` and a one-line message."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _zlib_header(head: bytes) -> bool:
    """RFC 1950: deflate (CM 8) and a check value making CMF*256+FLG a multiple of 31."""
    return len(head) == 2 and head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0


def inflated_size(body: bytes, limit: int) -> int:
    """The bytes the zlib streams of ``body`` inflate to, counted up to just
    over ``limit`` (then counting stops). Output is discarded as it comes; the
    input is read through a memoryview, never copied."""
    total = 0
    view = memoryview(body)
    for match in _STREAM.finditer(body):
        start = match.end()
        if not _zlib_header(body[start : start + 2]):
            continue  # not zlib: raw, DCT (JPEG), LZW... text extraction pays little for them
        inflater = zlib.decompressobj()
        offset = start
        try:
            while offset < len(body) and not inflater.eof:
                data: bytes | memoryview = view[offset : offset + _IN_CHUNK]
                offset += len(data)
                while data:
                    total += len(inflater.decompress(data, _CHUNK))
                    if total > limit:
                        return total
                    data = inflater.unconsumed_tail
                    if inflater.eof:
                        break
        except zlib.error:
            continue  # a damaged stream: PDFium decides what it makes of it
    return total


def _text(page: Any) -> str:
    textpage = page.get_textpage()
    try:
        return str(textpage.get_text_bounded())
    finally:
        textpage.close()


def read_pdf(body: bytes, max_inflated: int) -> dict[str, Any]:
    """The text and metadata of a PDF; :class:`Refused` when it cannot be read."""
    if max_inflated and inflated_size(body, max_inflated) > max_inflated:
        raise Refused(
            "bomb", f"its streams inflate to more than {max_inflated} bytes (a decompression bomb)"
        )
    try:
        pdfium = require("pypdfium2", "documents", FEATURE)
    except MissingExtra as exc:
        raise Refused("missing_library", str(exc)) from None
    try:
        pdf = pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code in (_ERR_PASSWORD, _ERR_SECURITY):
            raise Refused("encrypted", "encrypted with a password") from None
        raise Refused("damaged", f"not a readable PDF ({exc})") from None
    try:
        metadata = pdf.get_metadata_dict(skip_empty=True)
        pages = len(pdf)
        texts = []
        for index in range(pages):
            page = pdf[index]
            try:
                texts.append(_text(page))
            finally:
                page.close()
    except pdfium.PdfiumError as exc:
        raise Refused("damaged", f"a page could not be read ({exc})") from None
    finally:
        pdf.close()
    return {
        "main_text": "\n".join(t.strip("\r\n") for t in texts).replace("\r\n", "\n").strip(),
        "metadata": {
            "title": _clean(metadata.get("Title")),
            "author": _clean(metadata.get("Author")),
            "pages": pages,
        },
    }


def _clean(value: Any) -> str | None:
    text = str(value or "").replace("\x00", "").strip()
    return text or None


def _limit_memory(megabytes: int) -> None:
    if not megabytes:
        return
    try:
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not Linux, or a lower hard limit already
        pass


def serve(conn: Connection, parent: int, memory_mb: int) -> None:
    """The worker's loop: ``(kind, body, max_inflated, timeout)`` in, an answer out;
    ends when the crawl closes its end of the pipe."""
    _limit_memory(memory_mb)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        kind, body, max_inflated, timeout = job
        # The crawl kills a worker past its deadline; should the crawl itself be
        # gone, the alarm's default action ends this process a little later.
        signal.alarm(max(1, math.ceil(timeout)) + 5)
        try:
            if kind != "pdf":
                raise Refused("unsupported", f"no reader for {kind}")
            answer: tuple[Any, ...] = ("ok", read_pdf(body, max_inflated))
        except Refused as exc:
            answer = ("error", exc.reason, str(exc))
        except MemoryError:
            answer = ("error", "too_much_memory", "reading it needed more memory than allowed")
        except Exception as exc:  # noqa: BLE001 - a reader's bug is one document's error
            answer = ("error", "error", f"{type(exc).__name__}: {exc}"[:300])
        finally:
            signal.alarm(0)
        del body, job
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        if os.getppid() != parent:
            return
