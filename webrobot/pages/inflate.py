"""The first bytes of a compressed body, however far it would inflate.

Pure logic (zlib, brotli): no Scrapy, no I/O. Used for robots.txt, where RFC
9309 (2.5) asks to parse at least the first 500 KiB: a body that inflates
past the limit (or without end) is cut there, never refused as a whole, and a
truncated stream (the download stopped at the limit) gives what it holds.
"""

from __future__ import annotations

import zlib

try:
    import brotli  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - Scrapy depends on brotli for br
    brotli = None

_CHUNK = 64 * 1024
#: Content-Encoding values this module decodes (others are left to Scrapy).
ENCODINGS = frozenset(
    {"gzip", "x-gzip", "deflate", "br"} if brotli else {"gzip", "x-gzip", "deflate"}
)


def _zlib_prefix(data: bytes, limit: int, wbits: int) -> tuple[bytes, bool]:
    decompressor = zlib.decompressobj(wbits=wbits)
    out = bytearray()
    pending = data
    while True:
        chunk = decompressor.decompress(pending, max_length=_CHUNK)
        out += chunk
        if limit > 0 and len(out) > limit:
            return bytes(out[:limit]), True
        pending = decompressor.unconsumed_tail
        if decompressor.eof or not chunk:  # the end, or all input used and nothing left inside
            return bytes(out), False


def inflate_prefix(body: bytes, encoding: str, limit: int) -> tuple[bytes, bool]:
    """``(first limit bytes of the decoded body, whether more would follow)``.

    ``limit`` 0 means no limit. A damaged stream yields what was decoded
    before the damage. Raises ``ValueError`` for an encoding not in
    :data:`ENCODINGS`."""
    encoding = encoding.strip().lower()
    try:
        if encoding in ("gzip", "x-gzip"):
            return _zlib_prefix(body, limit, 47)  # gzip or zlib header
        if encoding == "deflate":
            try:
                return _zlib_prefix(body, limit, 15)
            except zlib.error:
                return _zlib_prefix(body, limit, -15)  # raw deflate, as some servers send
    except zlib.error:
        return b"", False
    if encoding == "br" and brotli is not None:
        decompressor = brotli.Decompressor()
        out = bytearray()
        try:
            out += decompressor.process(body, output_buffer_limit=_CHUNK)
            while not decompressor.is_finished() and (limit <= 0 or len(out) <= limit):
                chunk = decompressor.process(b"", output_buffer_limit=_CHUNK)
                if not chunk:
                    break
                out += chunk
        except brotli.error:
            pass
        if limit > 0 and len(out) > limit:
            return bytes(out[:limit]), True
        return bytes(out), False
    raise ValueError(f"unsupported Content-Encoding {encoding!r}")
