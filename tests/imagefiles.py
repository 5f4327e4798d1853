"""Images made by the tests: real PNG and JPEG files (Pillow), and a PNG whose
header claims 100000x100000 pixels (a decompression bomb's header)."""

from __future__ import annotations

import io
import struct
import zlib


def picture(width: int, height: int, fmt: str = "PNG", seed: int = 0) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (250, 250, 240))
    draw = ImageDraw.Draw(image)
    # smooth shapes a perceptual hash sees (placed by the seed), not noise
    for i in range(3):
        x = (seed * 37 + i * 53) % max(width // 2, 1)
        y = (seed * 23 + i * 41) % max(height // 2, 1)
        shade = (seed * 67 + i * 90) % 200
        draw.ellipse(
            (x, y, x + width // 2, y + height // 2), fill=(shade, 40 + i * 60, 200 - shade)
        )
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png_header(width: int = 100_000, height: int = 100_000) -> bytes:
    """A valid PNG signature and IHDR claiming ``width`` x ``height``, a tiny IDAT."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")
    )
