"""Documents (PDFs) a crawl downloads: their text and metadata, read apart
from the crawl. No Scrapy here.

:func:`read_document` is the one entry point. It never parses in the calling
process: a worker process (:mod:`webrobot.extract.docworker`, started on first
use and reused) reads the document with PDFium (pypdfium2, BSD-3-Clause /
Apache-2.0; the ``documents`` extra), under a deadline. Everything that goes
wrong is one :class:`DocumentError` whose ``reason`` the caller counts
(``webrobot/extract/documents/<reason>``) and whose message is one line:

=================== =========================================================
reason              when
=================== =========================================================
``too_large``       the body is over ``max_bytes``
``timeout``         not read within ``timeout`` seconds (the worker is killed)
``encrypted``       it needs a password
``damaged``         not a PDF PDFium can open (truncated past repair, garbage)
``bomb``            its streams inflate to more than ``max_inflated`` bytes
``too_much_memory`` reading it needed more than the worker's memory limit
``worker_died``     the worker died reading it (the limit hit inside PDFium)
``unsupported``     not a document type webrobot reads
``missing_library`` pypdfium2 is not installed
``error``           anything else the reader raised
=================== =========================================================

Only PDFs are read: the office formats have no reader here (see
docs/mining-documents-images.md for why).

Thread-safe: the glue may call it from a thread pool; at most
:data:`MAX_WORKERS` documents are read at once, the others wait their turn
(their deadline starts when their worker does).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from typing import TYPE_CHECKING, Any

from webrobot.extract import docworker
from webrobot.optional import MissingExtra, check
from webrobot.pages.contenttypes import mime_type
from webrobot.urls.documents import is_document

if TYPE_CHECKING:
    from collections.abc import Mapping
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

logger = logging.getLogger(__name__)

#: Documents read at once (one worker process each).
MAX_WORKERS = 2
#: Seconds a new worker may take to start (Python and pypdfium2 imported); not
#: counted in a document's deadline.
STARTUP_TIMEOUT = 60.0
#: Defaults of the limits not in the glue's contract.
DEFAULT_MAX_INFLATED = 256 * 1024 * 1024
DEFAULT_MEMORY_MB = 1024


class DocumentError(Exception):
    """A document that was not read; ``reason`` names why (the stats key's last part)."""

    reason = "error"

    def __init__(self, url: str, message: str) -> None:
        super().__init__(f"{url[:200]}: {message}")
        self.url = url


class DocumentTooLarge(DocumentError):
    reason = "too_large"


class DocumentTimeout(DocumentError):
    reason = "timeout"


class DocumentEncrypted(DocumentError):
    reason = "encrypted"


class DocumentDamaged(DocumentError):
    reason = "damaged"


class DocumentBomb(DocumentError):
    reason = "bomb"


class DocumentTooMuchMemory(DocumentError):
    reason = "too_much_memory"


class DocumentWorkerDied(DocumentError):
    reason = "worker_died"


class DocumentUnsupported(DocumentError):
    reason = "unsupported"


class DocumentReaderMissing(DocumentError):
    reason = "missing_library"


_BY_REASON: dict[str, type[DocumentError]] = {
    cls.reason: cls
    for cls in (
        DocumentError, DocumentTooLarge, DocumentTimeout, DocumentEncrypted, DocumentDamaged,
        DocumentBomb, DocumentTooMuchMemory, DocumentWorkerDied, DocumentUnsupported,
        DocumentReaderMissing,
    )
}  # fmt: skip
#: Every reason a :class:`DocumentError` can carry.
REASONS = tuple(sorted(_BY_REASON))


def document_kind(content_type: str, body: bytes) -> str | None:
    """``"pdf"`` when the declared type, or a generic type and the signature, says
    PDF; ``None`` for anything else."""
    return "pdf" if is_document(mime_type(content_type), body) else None


def document_limits(settings: Mapping[str, Any] | Any) -> dict[str, Any]:
    """The keyword arguments of :func:`read_document` from a crawl's settings
    (``WEBROBOT_DOCUMENT_*``), for the glue: ``read_document(body, url, type,
    **document_limits(settings))``."""
    from webrobot.settingsmodel.parse import read

    return {
        "max_bytes": read(settings, "WEBROBOT_DOCUMENT_MAX_BYTES"),
        "timeout": read(settings, "WEBROBOT_DOCUMENT_TIMEOUT"),
        "max_inflated": read(settings, "WEBROBOT_DOCUMENT_MAX_INFLATED_MB") * 1024 * 1024,
        "memory_mb": read(settings, "WEBROBOT_DOCUMENT_MEMORY_MB"),
    }


def read_document(
    body: bytes,
    url: str,
    content_type: str,
    *,
    max_bytes: int,
    timeout: float,
    max_inflated: int = DEFAULT_MAX_INFLATED,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> dict[str, Any]:
    """``{"main_text": str, "metadata": {"title", "author", "pages"}}`` of a
    document, or a :class:`DocumentError`. ``max_bytes`` and ``max_inflated``
    of 0 mean no limit; ``timeout`` is seconds for this document."""
    if max_bytes and len(body) > max_bytes:
        raise DocumentTooLarge(url, f"{len(body)} bytes, over the limit of {max_bytes}")
    kind = document_kind(content_type, body)
    if kind is None:
        raise DocumentUnsupported(url, f"no reader for {content_type or 'an undeclared type'!r}")
    try:
        check("pypdfium2", "documents", docworker.FEATURE)
    except MissingExtra as exc:
        raise DocumentReaderMissing(url, str(exc)) from None
    answer = _POOL.ask((kind, body, max_inflated, timeout), url, timeout, memory_mb)
    if answer[0] == "ok":
        result: dict[str, Any] = answer[1]
        return result
    _, reason, message = answer
    raise _BY_REASON.get(reason, DocumentError)(url, message)


class _Worker:
    """One worker process and the crawl's end of its pipe."""

    def __init__(self, memory_mb: int) -> None:
        context = multiprocessing.get_context("spawn")
        conn, child = context.Pipe()
        self.memory_mb = memory_mb
        self.conn: Connection = conn
        self.process: BaseProcess = context.Process(
            target=docworker.serve,
            args=(child, os.getpid(), memory_mb),
            name="webrobot-documents",
            daemon=True,
        )
        self.process.start()
        child.close()
        if not conn.poll(STARTUP_TIMEOUT):
            self.close()
            raise RuntimeError("the document worker did not start")
        conn.recv()

    def ask(self, job: tuple[Any, ...], url: str, timeout: float) -> tuple[Any, ...]:
        try:
            self.conn.send(job)
            if not self.conn.poll(timeout):
                self.close()
                raise DocumentTimeout(url, f"not read within {timeout:g} seconds")
            answer: tuple[Any, ...] = self.conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode
            self.close()
            raise DocumentWorkerDied(
                url, f"the document worker died reading it (exit code {code})"
            ) from None
        return answer

    def alive(self) -> bool:
        return self.process.is_alive() and not self.conn.closed

    def close(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class _Pool:
    """Idle workers, reused; at most :data:`MAX_WORKERS` busy at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(MAX_WORKERS)
        self.idle: list[_Worker] = []
        self.started = 0

    def ask(
        self, job: tuple[Any, ...], url: str, timeout: float, memory_mb: int
    ) -> tuple[Any, ...]:
        with self.slots:
            try:
                worker = self._take(memory_mb)
            except (RuntimeError, OSError, EOFError) as exc:
                raise DocumentWorkerDied(url, f"no document worker could start ({exc})") from None
            answer = worker.ask(job, url, timeout)  # closes the worker on failure
            with self.lock:
                self.idle.append(worker)
            return answer

    def _take(self, memory_mb: int) -> _Worker:
        with self.lock:
            while self.idle:
                worker = self.idle.pop()
                if worker.alive() and worker.memory_mb == memory_mb:
                    return worker
                worker.close()
            self.started += 1
        logger.debug("Starting a document worker")
        return _Worker(memory_mb)

    def close(self) -> None:
        """End the idle workers (tests, and a crawl that closes)."""
        with self.lock:
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.close()


_POOL = _Pool()


def close_workers() -> None:
    """End the idle document workers (they also end with the crawl's process)."""
    _POOL.close()
