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

A :class:`NearIndex` is a set of (fingerprint, first URL) pairs: its answers do not
depend on the order they were added in (ties go to the lowest fingerprint), so it is
saved as the pairs (:meth:`NearIndex.to_state`, a section layout of the seen-store
file format of :mod:`webrobot.seen.stores`) and rebuilt from them.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from webrobot.text import hamming, shingles, words

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
_MASK = (1 << BITS) - 1


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
    for run in shingles(feature_words(text), size):
        yield " ".join(run)


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

    kind = "near"  # its kind in a seen-store file (webrobot.seen.stores)
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
        """A kept fingerprint within ``max_distance`` bits, and its URL: the closest, and
        of equally close ones the lowest (so the answer does not depend on the order
        the fingerprints were kept in)."""
        best: tuple[int, int, str] | None = None
        for table, block in zip(self._tables, bands(fingerprint), strict=True):
            for other, url in table.get(block, {}).items():
                d = hamming(fingerprint, other)
                if d <= self.max_distance and (best is None or (d, other) < best[:2]):
                    best = (d, other, url)
        return None if best is None else (best[1], best[2])

    def first(self, fingerprint: int, url: str) -> tuple[int, str] | None:
        """Keep ``fingerprint`` for ``url`` unless a near one from another URL is
        kept already; returns that one (fingerprint, URL), or None when kept.
        The same URL asking again is not its own near copy."""
        found = self.near(fingerprint)
        if found is not None:
            return None if found[1] == url else found
        self.add(fingerprint, url)
        return None

    def add(self, fingerprint: int, url: str) -> bool:
        """Keep ``fingerprint`` for ``url`` without looking for near ones (a resumed job's
        pairs); False when that fingerprint is kept already (its first URL stays)."""
        fingerprint &= _MASK
        blocks = bands(fingerprint)
        if fingerprint in self._tables[0].get(blocks[0], {}):
            return False
        for table, block in zip(self._tables, blocks, strict=True):
            table.setdefault(block, {})[fingerprint] = url
        self._size += 1
        return True

    def update(self, pairs: Iterable[tuple[int, str]]) -> None:
        for fingerprint, url in pairs:
            self.add(fingerprint, url)

    def items(self) -> Iterator[tuple[int, str]]:
        """Every kept (fingerprint, first URL) pair (each fingerprint is in every table:
        the first table lists them all)."""
        for bucket in self._tables[0].values():
            yield from bucket.items()

    def __len__(self) -> int:
        return self._size

    @property
    def nbytes(self) -> int:
        """About what the pairs take in a file (8 bytes of fingerprint and 8 of URL end each,
        plus the URLs); the tables in memory take several times more."""
        return sum(16 + len(url.encode("utf-8", "surrogatepass")) for _, url in self.items())

    # -- a seen-store file's sections (webrobot.seen.storefile.save_store, load_store) ------
    def to_state(self) -> tuple[dict[str, Any], list[bytes | bytearray]]:
        """The pairs as three sections: fingerprints (64-bit little-endian), each URL's
        end offset (the same), the URLs' UTF-8 bytes end to end."""
        fingerprints: list[int] = []
        ends: list[int] = []
        urls = bytearray()
        for fingerprint, url in self.items():
            fingerprints.append(fingerprint)
            urls += url.encode("utf-8", "surrogatepass")
            ends.append(len(urls))
        n = len(fingerprints)
        sections: list[bytes | bytearray] = [
            struct.pack(f"<{n}Q", *fingerprints),
            struct.pack(f"<{n}Q", *ends),
            urls,
        ]
        return {"kind": self.kind, "count": n}, sections

    @classmethod
    def from_state(cls, header: dict[str, Any], sections: list[memoryview]) -> NearIndex:
        """The index :meth:`to_state` described; ValueError when the sections do not fit."""
        if len(sections) != 3:
            raise ValueError(f"near index: expected 3 sections, got {len(sections)}")
        count = int(header["count"])
        if not len(sections[0]) == len(sections[1]) == 8 * count >= 0:
            raise ValueError("near index: the sections do not hold the header's count")
        fingerprints = struct.unpack(f"<{count}Q", sections[0])
        ends = struct.unpack(f"<{count}Q", sections[1])
        data = bytes(sections[2])
        if count and ends[-1] != len(data):
            raise ValueError("near index: the URL table does not match the fingerprints")
        index = cls()
        start = 0
        for fingerprint, end in zip(fingerprints, ends, strict=True):
            if end < start:
                raise ValueError("near index: the URL table is out of order")
            index.add(fingerprint, data[start:end].decode("utf-8", "surrogatepass"))
            start = end
        if len(index) != count:
            raise ValueError("near index: a fingerprint is listed twice")
        return index
