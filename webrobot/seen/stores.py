"""Compact "have I seen this before?" stores for digests: visited URLs and page contents.

Pure logic; no Scrapy. Keys are *uniformly random* bytes
(digests: an MD5 of a body, :func:`uniform_key` of a request fingerprint), at
least 16 bytes long; the stores rely on that instead of hashing again.

* :class:`ExactStore`: an exact set of 64-bit digests (the first 8 bytes of each
  key), an open-addressing hash table with linear probing in one ``array('Q')``
  (8 bytes per slot, load kept between 0.5 and 0.75: 10.7 to 16 bytes per key).
  A Python ``set`` of ``bytes`` would cost 80 to 120 bytes per key (a 53-byte
  object plus the set's slots). Two different keys that share their first
  64 bits count as one: with n keys the chance that this happens at all is
  about n**2 / 2**65 (3e-8 at a million keys, 3 % at a billion). Optionally
  holds one 64-bit value per key (a second array of the same size).
* :class:`BloomStore`: a presence-bit array (Bloom filter) sized for a capacity
  and a false-positive rate (about 1.2 bytes per key at 1 %). A false
  positive answers "seen" for a key never added. Past its capacity it adds a
  layer twice as large with half the error rate, so the overall rate stays
  below twice the configured one instead of degrading without bound. One key
  in 64 (chosen by its bytes) is also kept exactly, which detects, counts and
  corrects the false positives that hit those keys: ``false_positives`` times 64
  estimates the total.
* :class:`FirstSeenIndex`: a store plus, with an exact store, the first URL
  each key was seen at (URLs packed in one ``bytearray``), for messages such as
  "same content as <first URL>".

Each store gives its state as a header and byte sections (``to_state``) and is
built back from them (``from_state``), raising :class:`StoreFileError` for state
that does not fit; :mod:`webrobot.seen.storefile` writes and reads the files.
"""

from __future__ import annotations

import hashlib
import math
import sys
from array import array
from dataclasses import dataclass
from typing import Any, TypeAlias

KEY_BYTES = 16
STORE_KINDS = ("exact", "bloom")
#: Keys whose last byte is below this are audited exactly by BloomStore (4/256 = 1 in 64).
AUDIT_BELOW = 4
AUDIT_RATIO = 256 // AUDIT_BELOW

Section: TypeAlias = "bytes | bytearray | memoryview | array[int]"


class StoreFileError(ValueError):
    """A store file that cannot be used (missing, truncated, corrupted, foreign)."""


def uniform_key(data: bytes) -> bytes:
    """A 16-byte uniformly distributed key for any bytes (e.g. a request fingerprint).

    Request fingerprinters are pluggable and need not return a hash, so the
    URL store never trusts their bytes to be uniform.
    """
    return hashlib.blake2b(data, digest_size=KEY_BYTES).digest()


def _check_key(key: bytes) -> None:
    if len(key) < KEY_BYTES:
        raise ValueError(f"store keys are digests of at least {KEY_BYTES} bytes, got {len(key)}")


def _le(values: array[int]) -> Section:
    """The array's bytes in little-endian order (the file format's order)."""
    if sys.byteorder == "little":
        return values
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped


def _zeros(n: int) -> array[int]:
    """n zeroed 64-bit slots, built without a temporary n*8-byte buffer (lower peak memory)."""
    return array("Q", [0]) * n


def _array_from(typecode: str, data: Section) -> array[int]:
    values = array(typecode)
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


# -- exact -------------------------------------------------------------------


class ExactStore:
    """An exact set of 64-bit digests (optionally with a 64-bit value each)."""

    kind = "exact"
    MIN_SLOTS = 1024
    MAX_LOAD = 0.75
    GROWTH = 1.5

    def __init__(self, *, values: bool = False, slots: int = MIN_SLOTS) -> None:
        slots = max(int(slots), self.MIN_SLOTS)
        self._keys = _zeros(slots)
        self._values: array[int] | None = _zeros(slots) if values else None
        self._count = 0
        self._limit = int(slots * self.MAX_LOAD)

    @staticmethod
    def digest(key: bytes) -> int:
        """The 64-bit digest kept for ``key``; 0 marks an empty slot, so 0 becomes 1."""
        _check_key(key)
        return int.from_bytes(key[:8], "little") or 1

    def _slot(self, digest: int) -> int:
        """The slot holding ``digest``, or the empty slot where it would go."""
        keys = self._keys
        size = len(keys)
        i = (digest * size) >> 64  # uniform digests: the top bits pick the home slot
        while True:
            found = keys[i]
            if found == digest or not found:
                return i
            i += 1
            if i == size:
                i = 0

    def add(self, key: bytes) -> bool:
        """Add ``key``; True if it was new."""
        if len(key) < KEY_BYTES:
            _check_key(key)
        digest = int.from_bytes(key[:8], "little") or 1
        keys = self._keys
        size = len(keys)
        i = (digest * size) >> 64  # _slot(), inlined: this is the hot path
        while True:
            found = keys[i]
            if found == digest:
                return False
            if not found:
                break
            i += 1
            if i == size:
                i = 0
        self._insert(i, digest, 0)
        return True

    def setdefault(self, key: bytes, value: int) -> int | None:
        """Add ``key`` with ``value`` and return None, or return the value it already has."""
        if self._values is None:
            raise TypeError("this ExactStore keeps no values")
        digest = self.digest(key)
        i = self._slot(digest)
        if self._keys[i]:
            return int(self._values[i])
        self._insert(i, digest, value)
        return None

    def get(self, key: bytes) -> int | None:
        if self._values is None:
            raise TypeError("this ExactStore keeps no values")
        i = self._slot(self.digest(key))
        return self._values[i] if self._keys[i] else None

    def _insert(self, i: int, digest: int, value: int) -> None:
        self._keys[i] = digest
        if self._values is not None:
            self._values[i] = value
        self._count += 1
        if self._count > self._limit:
            self._grow()

    def _grow(self) -> None:
        old_keys, old_values = self._keys, self._values
        slots = int(len(old_keys) * self.GROWTH)
        self._keys = keys = _zeros(slots)
        self._values = values = _zeros(slots) if old_values is not None else None
        self._limit = int(slots * self.MAX_LOAD)
        for j, digest in enumerate(old_keys):
            if not digest:
                continue
            i = (digest * slots) >> 64
            while keys[i]:
                i += 1
                if i == slots:
                    i = 0
            keys[i] = digest
            if values is not None:
                values[i] = old_values[j]  # type: ignore[index]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, bytes | bytearray):
            return False
        return bool(self._keys[self._slot(self.digest(bytes(key)))])

    def __len__(self) -> int:
        return self._count

    @property
    def slots(self) -> int:
        return len(self._keys)

    @property
    def nbytes(self) -> int:
        """Bytes held by the table (the arrays' buffers)."""
        per_slot = 16 if self._values is not None else 8
        return len(self._keys) * per_slot

    def to_state(self) -> tuple[dict[str, Any], list[Section]]:
        header = {"kind": self.kind, "count": self._count, "slots": len(self._keys),
                  "values": self._values is not None}  # fmt: skip
        sections: list[Section] = [_le(self._keys)]
        if self._values is not None:
            sections.append(_le(self._values))
        return header, sections

    @classmethod
    def from_state(cls, header: dict[str, Any], sections: list[memoryview]) -> ExactStore:
        with_values = bool(header.get("values"))
        expected = 2 if with_values else 1
        if len(sections) != expected:
            raise StoreFileError(f"exact store: expected {expected} sections, got {len(sections)}")
        keys = _array_from("Q", sections[0])
        slots, count = int(header["slots"]), int(header["count"])
        if len(keys) != slots or slots < cls.MIN_SLOTS or count > slots * cls.MAX_LOAD:
            raise StoreFileError(f"exact store: {len(keys)} slots for {count} keys does not fit")
        if len(keys) - keys.count(0) != count:
            raise StoreFileError("exact store: the number of keys does not match the header")
        store = cls.__new__(cls)
        store._keys = keys
        store._values = _array_from("Q", sections[1]) if with_values else None
        if store._values is not None and len(store._values) != slots:
            raise StoreFileError("exact store: values and keys differ in size")
        store._count = count
        store._limit = int(slots * cls.MAX_LOAD)
        return store


# -- Bloom -------------------------------------------------------------------


def bloom_size(capacity: int, error_rate: float) -> tuple[int, int]:
    """(bits, hash functions) for ``capacity`` keys at ``error_rate`` false positives."""
    if capacity < 1:
        raise ValueError(f"Bloom capacity must be at least 1, got {capacity}")
    if not 0 < error_rate < 1:
        raise ValueError(f"Bloom error rate must be between 0 and 1 (exclusive), got {error_rate}")
    bits = math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2)
    hashes = max(1, round(bits / capacity * math.log(2)))
    return max(bits, 64), hashes


class BloomFilter:
    """One presence-bit array; positions by double hashing of the key's two 64-bit halves."""

    def __init__(self, capacity: int, error_rate: float) -> None:
        self.capacity = capacity
        self.error_rate = error_rate
        self.bits, self.hashes = bloom_size(capacity, error_rate)
        self.array = bytearray((self.bits + 7) // 8)
        self.count = 0  # keys added to this layer

    def contains(self, h1: int, h2: int) -> bool:
        bits, array_ = self.bits, self.array
        pos, step = h1 % bits, h2 % bits  # small ints from here on: fast arithmetic
        for _ in range(self.hashes):
            if not array_[pos >> 3] & (1 << (pos & 7)):
                return False
            pos += step
            if pos >= bits:
                pos -= bits
        return True

    def insert(self, h1: int, h2: int) -> None:
        bits, array_ = self.bits, self.array
        pos, step = h1 % bits, h2 % bits
        for _ in range(self.hashes):
            array_[pos >> 3] |= 1 << (pos & 7)
            pos += step
            if pos >= bits:
                pos -= bits
        self.count += 1


class BloomStore:
    """A Bloom filter that grows by layers past its capacity and audits 1 key in 64."""

    kind = "bloom"

    def __init__(self, capacity: int, error_rate: float) -> None:
        bloom_size(capacity, error_rate)  # validates
        self.capacity = capacity
        self.error_rate = error_rate
        self.layers = [BloomFilter(capacity, error_rate)]
        self.audit = ExactStore()
        self.false_positives = 0  # detected (and corrected) on audited keys

    @staticmethod
    def _hashes(key: bytes) -> tuple[int, int]:
        _check_key(key)
        return int.from_bytes(key[:8], "little"), int.from_bytes(key[8:16], "little") | 1

    def _in_layers(self, h1: int, h2: int) -> bool:
        for layer in self.layers:
            if layer.contains(h1, h2):
                return True
        return False

    def add(self, key: bytes) -> bool:
        """Add ``key``; True if it was (as far as the filter can tell) new."""
        h1, h2 = self._hashes(key)
        seen = self._in_layers(h1, h2)
        # An audited key is recorded exactly; the filter saying "seen" for one the
        # exact record did not have is a false positive, corrected here.
        if key[KEY_BYTES - 1] < AUDIT_BELOW and self.audit.add(key) and seen:
            self.false_positives += 1
            seen = False
        if seen:
            return False
        top = self.layers[-1]
        if top.count >= top.capacity:
            top = BloomFilter(top.capacity * 2, top.error_rate / 2)
            self.layers.append(top)
        top.insert(h1, h2)
        return True

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, bytes | bytearray):
            return False
        key = bytes(key)
        if key[KEY_BYTES - 1] < AUDIT_BELOW:
            return key in self.audit
        return self._in_layers(*self._hashes(key))

    def __len__(self) -> int:
        """Keys added (those the filter took for duplicates are not counted)."""
        return sum(layer.count for layer in self.layers)

    @property
    def over_capacity(self) -> bool:
        return len(self.layers) > 1

    @property
    def nbytes(self) -> int:
        return sum(len(layer.array) for layer in self.layers) + self.audit.nbytes

    def to_state(self) -> tuple[dict[str, Any], list[Section]]:
        audit_header, audit_sections = self.audit.to_state()
        header = {
            "kind": self.kind, "capacity": self.capacity, "error_rate": self.error_rate,
            "false_positives": self.false_positives, "audit": audit_header,
            "layers": [{"capacity": layer.capacity, "error_rate": layer.error_rate,
                        "count": layer.count} for layer in self.layers],
        }  # fmt: skip
        return header, [layer.array for layer in self.layers] + audit_sections

    @classmethod
    def from_state(cls, header: dict[str, Any], sections: list[memoryview]) -> BloomStore:
        store = cls(int(header["capacity"]), float(header["error_rate"]))
        layers = header["layers"]
        if not layers or len(sections) < len(layers):
            raise StoreFileError("Bloom store: missing layers")
        store.layers = []
        for spec, data in zip(layers, sections, strict=False):
            layer = BloomFilter(int(spec["capacity"]), float(spec["error_rate"]))
            if len(data) != len(layer.array):
                raise StoreFileError("Bloom store: a layer's size does not match its capacity")
            layer.array[:] = data
            layer.count = int(spec["count"])
            store.layers.append(layer)
        store.audit = ExactStore.from_state(header["audit"], sections[len(layers) :])
        store.false_positives = int(header.get("false_positives", 0))
        return store


# -- first URL per key ---------------------------------------------------------


class UrlTable:
    """URLs packed end to end in one bytearray, addressed by insertion index."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._ends = array("Q")

    def append(self, url: str) -> int:
        self._data += url.encode("utf-8", "surrogatepass")
        self._ends.append(len(self._data))
        return len(self._ends) - 1

    def __getitem__(self, index: int) -> str:
        start = self._ends[index - 1] if index else 0
        return self._data[start : self._ends[index]].decode("utf-8", "surrogatepass")

    def __len__(self) -> int:
        return len(self._ends)

    @property
    def nbytes(self) -> int:
        return len(self._data) + 8 * len(self._ends)


@dataclass(frozen=True, slots=True)
class Seen:
    """A key seen before; ``first_url`` is None when the store keeps no URLs (Bloom)."""

    first_url: str | None


class FirstSeenIndex:
    """Which keys were seen, and (exact store) the first URL each was seen at."""

    kind = "first-seen"

    def __init__(self, store: ExactStore | BloomStore) -> None:
        if isinstance(store, ExactStore) and store._values is None:
            raise ValueError("FirstSeenIndex needs an ExactStore with values=True")
        self.store = store
        self.urls: UrlTable | None = UrlTable() if isinstance(store, ExactStore) else None

    def check(self, key: bytes, url: str) -> Seen | None:
        """None if ``key`` is new (it is recorded with ``url``), else where it was first seen."""
        if self.urls is None:
            return None if self.store.add(key) else Seen(None)
        assert isinstance(self.store, ExactStore)
        index = self.store.setdefault(key, len(self.urls))
        if index is None:
            self.urls.append(url)
            return None
        return Seen(self.urls[index])

    def __contains__(self, key: object) -> bool:
        return key in self.store

    def __len__(self) -> int:
        return len(self.store)

    @property
    def nbytes(self) -> int:
        return self.store.nbytes + (self.urls.nbytes if self.urls is not None else 0)

    def to_state(self) -> tuple[dict[str, Any], list[Section]]:
        store_header, sections = self.store.to_state()
        header: dict[str, Any] = {"kind": self.kind, "store": store_header,
                                  "store_sections": len(sections)}  # fmt: skip
        if self.urls is not None:
            sections = [*sections, self.urls._data, _le(self.urls._ends)]
        return header, sections

    @classmethod
    def from_state(cls, header: dict[str, Any], sections: list[memoryview]) -> FirstSeenIndex:
        n = int(header["store_sections"])
        store = _inner_store(header["store"], sections[:n])
        index = cls.__new__(cls)
        index.store = store
        index.urls = None
        if isinstance(store, ExactStore):
            if store._values is None or len(sections) != n + 2:
                raise StoreFileError("first-seen index: the URL table is missing")
            urls = UrlTable()
            urls._data = bytearray(sections[n])
            urls._ends = _array_from("Q", sections[n + 1])
            if len(urls) != len(store) or (len(urls) and urls._ends[-1] != len(urls._data)):
                raise StoreFileError("first-seen index: the URL table does not match the keys")
            index.urls = urls
        return index


# -- building ---------------------------------------------------------


def make_store(kind: str, capacity: int = 1_000_000, error_rate: float = 0.01,
               *, values: bool = False) -> ExactStore | BloomStore:  # fmt: skip
    """``"exact"`` or ``"bloom"`` (sized by ``capacity`` and ``error_rate``)."""
    if kind == "exact":
        return ExactStore(values=values)
    if kind == "bloom":
        return BloomStore(capacity, error_rate)
    raise ValueError(f"expected one of {', '.join(STORE_KINDS)}, got {kind!r}")


def _inner_store(header: dict[str, Any], sections: list[memoryview]) -> ExactStore | BloomStore:
    """The exact or Bloom store inside a first-seen index, from its state."""
    kind = header.get("kind")
    cls: Any = {ExactStore.kind: ExactStore, BloomStore.kind: BloomStore}.get(str(kind))
    if cls is None:
        raise StoreFileError("first-seen index: unknown inner store")
    try:
        return cls.from_state(header, sections)  # type: ignore[no-any-return]
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, StoreFileError):
            raise
        raise StoreFileError(f"{kind} store: bad header ({exc})") from None
