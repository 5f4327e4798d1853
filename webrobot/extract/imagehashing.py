"""What an image really is: its format, size in pixels and perceptual hash.
No Scrapy, no network: bytes in, a dict out.

Pillow reads the header first (format, width, height) without decoding; an
image of more pixels than the limit is refused there, before a pixel is
decoded (a PNG that says 100000x100000 costs its header only). Pillow's own
decompression-bomb check applies as well (its warning is taken as a refusal).
The hash is imagehash's pHash (a DCT of the 32x32 greyscale image, 64 bits as
16 hex digits): near-identical images, resized or recompressed, differ in a
few bits. A JPEG is decoded at a reduced scale for it (``draft``), which the
hash does not notice and which costs a fraction of a full decode. This is the one
picture hash of the crawl: the images a page shows and the pictures of the monitor's
watch rules are hashed here alike, so that a rule's picture and its copy on a page are
compared hash to hash.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

from webrobot.optional import MissingExtra, require

#: Why an image was not described (``webrobot/extract/images/<reason>``).
TOO_MANY_PIXELS = "too_many_pixels"
NOT_AN_IMAGE = "not_an_image"
#: A vector image (SVG): no pixels to hash without rendering it.
VECTOR = "vector_image"
DAMAGED = "damaged"
MISSING_LIBRARY = "missing_library"


class ImageRefused(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _libraries(extra: str, feature: str) -> tuple[Any, Any]:
    try:
        imagehash = require("imagehash", extra, feature)
        image_module = require("PIL.Image", extra, feature)
    except MissingExtra as exc:
        raise ImageRefused(MISSING_LIBRARY, str(exc)) from None
    return image_module, imagehash


def describe_image(
    body: bytes, max_pixels: int, *, extra: str = "images", feature: str = "Describing images"
) -> dict[str, Any]:
    """``{"format", "width", "height", "phash"}`` of an image, or :class:`ImageRefused`
    (``extra`` and ``feature``: what to name when Pillow or imagehash is missing)."""
    image_module, imagehash = _libraries(extra, feature)
    with warnings.catch_warnings():
        warnings.simplefilter("error", image_module.DecompressionBombWarning)
        try:
            image = image_module.open(io.BytesIO(body))
        except (image_module.UnidentifiedImageError, image_module.DecompressionBombWarning,
                image_module.DecompressionBombError) as exc:  # fmt: skip
            if isinstance(exc, image_module.UnidentifiedImageError):
                if b"<svg" in body[:2048].lower():
                    raise ImageRefused(VECTOR, "an SVG image: no pixels to hash") from None
                raise ImageRefused(NOT_AN_IMAGE, "not an image Pillow knows") from None
            raise ImageRefused(TOO_MANY_PIXELS, str(exc)) from None
        except (OSError, ValueError, SyntaxError) as exc:  # a header Pillow cannot parse
            raise ImageRefused(DAMAGED, f"unreadable header ({exc})") from None
        with image:
            width, height = image.size
            described = {
                "format": (image.format or "").lower() or None,
                "width": width,
                "height": height,
            }
            if max_pixels and width * height > max_pixels:
                raise ImageRefused(
                    TOO_MANY_PIXELS,
                    f"{width}x{height} pixels, over the limit of {max_pixels} (a decompression bomb?)",
                )
            try:
                if image.format == "JPEG":
                    image.draft("L", (64, 64))
                described["phash"] = str(imagehash.phash(image))
            except (
                image_module.DecompressionBombWarning,
                image_module.DecompressionBombError,
            ) as exc:
                raise ImageRefused(TOO_MANY_PIXELS, str(exc)) from None
            except (OSError, ValueError, SyntaxError, EOFError) as exc:  # truncated or corrupt data
                raise ImageRefused(DAMAGED, f"undecodable ({exc})"[:300]) from None
    return described
