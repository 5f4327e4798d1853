"""Small PDFs made by the tests themselves: text pages, and hostile ones (a
decompression bomb, truncated files). Objects are written in order and the
cross-reference table points at their real offsets."""

from __future__ import annotations

import zlib


def _pdf(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\n" % (
        len(objects) + 1,
        len(objects),
    )
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _stream(data: bytes, compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        return (
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
        )
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _escape(text: str) -> bytes:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")


def text_pdf(pages: list[str], title: str = "", author: str = "", compress: bool = False) -> bytes:
    """A PDF with one line of Helvetica text per page, and an Info dictionary."""
    count = len(pages)
    # 1 catalog, 2 pages, 3 font, then (page, content) pairs, then info
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, text in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        content = b"BT /F1 12 Tf 72 720 Td (" + _escape(text) + b") Tj ET"
        objects.append(_stream(content, compress))
    objects.append(b"<< /Title (" + _escape(title) + b") /Author (" + _escape(author) + b") >>")
    return _pdf(objects)


def bomb_pdf(inflated_bytes: int) -> bytes:
    """One page whose content stream is ``inflated_bytes`` of blank operators,
    compressed: a few hundred kilobytes that inflate to ``inflated_bytes``."""
    compressor = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    parts = [compressor.compress(chunk) for _ in range(inflated_bytes >> 20)]
    parts.append(compressor.flush())
    data = b"".join(parts)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream",
        b"<< >>",
    ]
    return _pdf(objects)
