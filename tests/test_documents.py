"""read_document: text and metadata of PDFs read in a worker process with a
deadline; every hostile or broken input is one DocumentError with its reason,
in bounded time, and the worker keeps serving afterwards."""

from __future__ import annotations

import io
import os
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pdfmaker import bomb_pdf, text_pdf
from webrobot.extract import docworker
from webrobot.extract.documents import (
    REASONS,
    DocumentBomb,
    DocumentDamaged,
    DocumentEncrypted,
    DocumentError,
    DocumentTimeout,
    DocumentTooLarge,
    DocumentUnsupported,
    close_workers,
    document_kind,
    document_limits,
    read_document,
)

pytest.importorskip("pypdfium2")

URL = "http://example.test/doc.pdf"
LIMITS: dict[str, Any] = {"max_bytes": 5_000_000, "timeout": 20.0}


@pytest.fixture(scope="module", autouse=True)
def _workers() -> Any:
    yield
    close_workers()


def read(body: bytes, content_type: str = "application/pdf", **limits: Any) -> dict[str, Any]:
    return read_document(body, URL, content_type, **{**LIMITS, **limits})


def test_text_and_metadata() -> None:
    body = text_pdf(["first page", "second page"], title="A Title", author="Ann Author")
    result = read(body)
    assert result["main_text"] == "first page\nsecond page"
    assert result["metadata"] == {"title": "A Title", "author": "Ann Author", "pages": 2}


def test_compressed_streams_read() -> None:
    result = read(text_pdf(["squeezed text"], compress=True))
    assert result["main_text"] == "squeezed text"
    assert result["metadata"]["title"] is None


def test_generic_type_sniffed_other_types_refused() -> None:
    body = text_pdf(["sniffed"])
    assert document_kind("application/octet-stream", body) == "pdf"
    assert read(body, "application/octet-stream")["main_text"] == "sniffed"
    with pytest.raises(DocumentUnsupported) as caught:
        read(body, "image/png")
    assert caught.value.reason == "unsupported"
    assert URL in str(caught.value)


def test_too_large_refused_before_reading() -> None:
    body = text_pdf(["x" * 100])
    with pytest.raises(DocumentTooLarge) as caught:
        read(body, max_bytes=len(body) - 1)
    assert f"{len(body)} bytes" in str(caught.value)
    assert read(body, max_bytes=0)["main_text"].startswith("x")  # 0: no limit


def test_encrypted() -> None:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(text_pdf(["secret text"])))
    writer.encrypt("password", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(DocumentEncrypted) as caught:
        read(out.getvalue())
    assert caught.value.reason == "encrypted"
    assert "\n" not in str(caught.value)


def test_random_bytes_with_a_pdf_header_are_damaged() -> None:
    body = b"%PDF-1.7\n" + os.urandom(50_000)
    with pytest.raises(DocumentDamaged) as caught:
        read(body)
    assert caught.value.reason == "damaged"


def test_truncated_pdf_is_read_or_damaged_never_more() -> None:
    body = text_pdf([f"page {i}" for i in range(20)], compress=True)
    for cut in (len(body) // 3, len(body) // 2, len(body) - 40, 20):
        started = time.monotonic()
        try:
            result = read(body[:cut])
        except DocumentDamaged:
            pass
        else:  # PDFium rebuilds what it can: only pages that were there
            assert result["metadata"]["pages"] <= 20
        assert time.monotonic() - started < 10


def test_decompression_bomb_refused_before_pdfium() -> None:
    body = bomb_pdf(64 << 20)  # 64 MB of blanks in ~64 KB
    assert len(body) < 200_000
    started = time.monotonic()
    with pytest.raises(DocumentBomb) as caught:
        read(body, max_inflated=16 << 20)
    assert time.monotonic() - started < 10
    assert "decompression bomb" in str(caught.value)
    # the same file under a limit it fits is read (a blank page)
    assert read(body, max_inflated=128 << 20)["metadata"]["pages"] == 1


def test_inflated_size_counts_only_up_to_the_limit() -> None:
    body = bomb_pdf(32 << 20)
    assert docworker.inflated_size(body, 1 << 20) <= (1 << 20) + (1 << 20)
    assert docworker.inflated_size(body, 1 << 30) == 32 << 20
    assert docworker.inflated_size(text_pdf(["plain"]), 1 << 20) == 0


def test_timeout_kills_the_worker_and_the_next_document_is_read() -> None:
    body = text_pdf([f"page {i} " * 20 for i in range(3000)], compress=True)
    started = time.monotonic()
    with pytest.raises(DocumentTimeout) as caught:
        read(body, timeout=0.02, max_bytes=0)  # 3,000 pages: far longer than 20 ms
    assert time.monotonic() - started < 5
    assert caught.value.reason == "timeout"
    assert read(text_pdf(["after the timeout"]))["main_text"] == "after the timeout"


def test_every_error_has_a_listed_reason() -> None:
    assert {"too_large", "timeout", "encrypted", "damaged", "bomb", "unsupported"} <= set(REASONS)
    assert issubclass(DocumentBomb, DocumentError)


def test_limits_from_settings() -> None:
    limits = document_limits(
        {"WEBROBOT_DOCUMENT_MAX_BYTES": "1000", "WEBROBOT_DOCUMENT_TIMEOUT": 2}
    )
    assert limits["max_bytes"] == 1000
    assert limits["timeout"] == 2.0
    assert limits["max_inflated"] == 256 * 1024 * 1024


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.integers(min_value=0, max_value=4000))
def test_any_bytes_give_a_result_or_a_document_error(noise: bytes, cut: int) -> None:
    body = text_pdf(["stable"])
    mangled = body[:cut] + noise + body[cut + len(noise) :]
    try:
        result = read(mangled, timeout=10.0)
    except DocumentError as exc:
        assert exc.reason in REASONS
    else:
        assert isinstance(result["main_text"], str)


def test_the_worker_ends_with_the_process_that_started_it(tmp_path: Any) -> None:
    """A crawl killed with SIGKILL leaves no document worker behind: the worker
    waits on its pipe, which closes with the crawl."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    from tests.crawling import PROJECT_ROOT, wait_until

    script = tmp_path / "crawl.py"
    script.write_text(
        "import sys, time\n"
        "from tests.pdfmaker import text_pdf\n"
        "from webrobot.extract import documents\n"
        "if __name__ == '__main__':\n"
        "    documents.read_document(text_pdf(['x']), 'u', 'application/pdf', max_bytes=0, timeout=30)\n"
        "    print(documents._POOL.idle[0].process.pid, flush=True)\n"
        "    time.sleep(60)\n"
    )
    crawl = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert crawl.stdout is not None
        worker = int(crawl.stdout.readline())
        assert Path(f"/proc/{worker}").exists()
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(10)

        def gone() -> bool:
            try:
                state = Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                return True
            return state in ("Z", "X")

        wait_until(gone, 10, "the document worker to end")
    finally:
        crawl.kill()
        crawl.wait()
        if crawl.stdout is not None:
            crawl.stdout.close()
