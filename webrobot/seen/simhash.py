"""Near-duplicate texts: 64-bit SimHash and a banded index (Manku, Jain and Das Sarma,
"Detecting near-duplicates for web crawling", WWW 2007). Pure: no Scrapy, no I/O.

A text's features are its word shingles (runs of :data:`SHINGLE_WORDS` words,
case folded, punctuation not counted, every number the same word) taken from its
lines (paragraphs) of at least :data:`LINE_WORDS` words: the short lines are where
copies of one text differ without being different texts (a date line, a byline, an
advertisement's caption, "Share this"); when the long lines hold fewer than
:data:`MIN_WORDS` words, every line counts. Each feature is hashed to 64 bits (BLAKE2b), and
bit *i* of the SimHash is 1 when more features have bit *i* set than not. Texts
that share most of their shingles get fingerprints a few bits apart; different
texts differ in about 32 bits. Two pages are near duplicates when their
fingerprints differ in at most ``k`` bits (``k`` <= :data:`MAX_DISTANCE`).

Lookup is not a scan: the 64 bits are cut into :data:`BANDS` blocks of 16. If
two fingerprints differ in at most 3 bits, at least one of the four blocks is
equal in both (pigeonhole), so :class:`NearIndex` keeps one table per block,
keyed by that block's value, and compares only the fingerprints sharing a block
with the one asked about (Manku's permuted tables, with the permutation being
"which block leads"). Among N random fingerprints a table's bucket holds
N / 65536 of them on average.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

BITS = 64
BANDS = 4
BAND_BITS = BITS // BANDS
#: The largest distance the bands find every time (one block in four equal).
MAX_DISTANCE = BANDS - 1
#: Words per feature.
SHINGLE_WORDS = 3
#: Lines (paragraphs) of fewer words are left out of the features (see the module doc).
LINE_WORDS = 12
#: A text of fewer words is not judged: a few words make too few features for a
#: fingerprint that means anything (two short captions would look alike).
MIN_WORDS = 50
_WORD = re.compile(r"\w+")
_MASK = (1 << BITS) - 1


def words(text: str) -> list[str]:
    """The words of ``text``, case folded (punctuation and spacing do not count)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def feature_words(text: str) -> list[str]:
    """The words the features are made of: those of the long lines (every line's when
    the long ones are too few), numbers all ``0``."""
    lines = [words(line) for line in text.splitlines()]
    long = [line for line in lines if len(line) >= LINE_WORDS]
    if sum(map(len, long)) >= MIN_WORDS:
        lines = long
    return ["0" if word.isdecimal() else word for line in lines for word in line]


def features(text: str, size: int = SHINGLE_WORDS) -> Iterator[str]:
    """Every run of ``size`` words of :func:`feature_words` (all of them when fewer)."""
    w = feature_words(text)
    if len(w) <= size:
        if w:
            yield " ".join(w)
        return
    for i in range(len(w) - size + 1):
        yield " ".join(w[i : i + size])


def _hash(feature: str) -> int:
    digest = hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


#: Bits of one counter when the features' bits are summed all at once (see :func:`simhash`).
_LANE = 16
#: Each byte's 8 bits spread into 8 counters of :data:`_LANE` bits.
_SPREAD = [sum(((byte >> i) & 1) << (_LANE * i) for i in range(8)) for byte in range(256)]
#: Features summed before the counters could overflow.
_CHUNK = (1 << _LANE) - 1


def _spread(value: int) -> int:
    """The 64 bits of ``value`` as 64 counters of :data:`_LANE` bits, each 0 or 1."""
    out = 0
    for k, byte in enumerate(value.to_bytes(8, "little")):
        out |= _SPREAD[byte] << (_LANE * 8 * k)
    return out


def simhash(text: str) -> int:
    """The 64-bit SimHash of ``text`` (0 for a text without words).

    Bit *i* is 1 when more than half of the features' hashes have bit *i* set. The
    counts are taken for the 64 bits at once: each hash is spread into 64 counters of
    16 bits inside one integer (a table per byte) and the integers are added, so a
    feature costs 8 look-ups, not 64 bit tests."""
    counts = [0] * BITS
    lanes = 0
    seen = 0
    for feature in features(text):
        lanes += _spread(_hash(feature))
        seen += 1
        if seen % _CHUNK == 0:
            for bit in range(BITS):
                counts[bit] += (lanes >> (_LANE * bit)) & _CHUNK
            lanes = 0
    for bit in range(BITS):
        counts[bit] += (lanes >> (_LANE * bit)) & _CHUNK
    out = 0
    for bit, ones in enumerate(counts):
        if 2 * ones > seen:
            out |= 1 << bit
    return out


def distance(a: int, b: int) -> int:
    """Hamming distance: the bits in which ``a`` and ``b`` differ."""
    return ((a ^ b) & _MASK).bit_count()


def bands(fingerprint: int) -> list[int]:
    """The fingerprint's :data:`BANDS` blocks, lowest bits first."""
    block = (1 << BAND_BITS) - 1
    return [(fingerprint >> (BAND_BITS * i)) & block for i in range(BANDS)]


def to_hex(fingerprint: int) -> str:
    return f"{fingerprint & _MASK:016x}"


def judged(text: str) -> bool:
    """Whether ``text`` is long enough to be judged (:data:`MIN_WORDS`)."""
    return len(words(text)) >= MIN_WORDS


@dataclass
class NearIndex:
    """Fingerprints of the texts kept so far, each with the URL that first had it."""

    max_distance: int = MAX_DISTANCE
    _tables: list[dict[int, dict[int, str]]] = field(
        default_factory=lambda: [{} for _ in range(BANDS)]
    )
    _size: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.max_distance <= MAX_DISTANCE:
            raise ValueError(
                f"a near-duplicate distance of {self.max_distance} bits: expected 0 to {MAX_DISTANCE}"
            )

    def near(self, fingerprint: int) -> tuple[int, str] | None:
        """A kept fingerprint within ``max_distance`` bits, and its URL (the closest)."""
        best: tuple[int, int, str] | None = None
        for table, block in zip(self._tables, bands(fingerprint), strict=True):
            for other, url in table.get(block, {}).items():
                d = distance(fingerprint, other)
                if d <= self.max_distance and (best is None or d < best[0]):
                    best = (d, other, url)
        return None if best is None else (best[1], best[2])

    def first(self, fingerprint: int, url: str) -> tuple[int, str] | None:
        """Keep ``fingerprint`` for ``url`` unless a near one from another URL is
        kept already; returns that one (fingerprint, URL), or None when kept.
        The same URL asking again is not its own near copy."""
        found = self.near(fingerprint)
        if found is not None:
            return None if found[1] == url else found
        for table, block in zip(self._tables, bands(fingerprint), strict=True):
            table.setdefault(block, {}).setdefault(fingerprint, url)
        self._size += 1
        return None

    def __len__(self) -> int:
        return self._size
