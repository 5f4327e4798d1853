"""Image matching for watch rules: the distance between two perceptual hashes.

Pure: no Scrapy, no I/O. A picture's pHash (imagehash's DCT hash, 64 bits,
written as 16 hex digits) changes little when the picture is re-encoded, scaled,
slightly cropped or turned grey, and a lot for another picture. The hashes of
protected pictures are made when the watch rules load (:mod:`.rules`); a page's
images carry theirs (the ``phash`` of each entry of the item's ``images``).
"""

from __future__ import annotations

#: Most differing bits for a match, from the gap measured in tests/test_monitor_images.py
#: on 20 structured pictures: copies (JPEG quality 50, halved, 5 % trimmed from the edges,
#: grey, and all of these at once) differ by at most 10 bits, other pictures by 18 or more.
MAX_DISTANCE = 12
BITS = 64


def parse_hash(value: object) -> int | None:
    """A 64-bit hash from its hex form; None for anything else."""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if not text or len(text) > BITS // 4:
        return None
    try:
        return int(text, 16)
    except ValueError:
        return None


def similarity(d: int) -> float:
    """A distance as a score: 1 for the same hash, 0 for half the bits differing."""
    return round(max(0.0, 1 - d / (BITS / 2)), 3)
