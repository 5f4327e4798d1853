"""A set of binary digests in Redis at about 10 bytes each: the visited-URL set
(request fingerprints) and the content fingerprints of a shared crawl.

Any key (a request fingerprint, an MD5 of a body) is first hashed to 12
uniform bytes with BLAKE2b: fingerprinters are pluggable and need not return
uniform bytes (one returning the URL would put most URLs of a site in one
bucket, with the same member). Redis stores a small set whose members are all
integers as an *intset*: a sorted array of 8-byte integers, no per-member
pointers. So a digest is split
into a bucket (its top ``bucket_bits`` bits, which name the key) and a member
(its next 64 bits as a signed integer): ``2**bucket_bits`` keys, each a compact
intset while it holds at most ``set-max-intset-entries`` members (512 by
default). Two digests collide only if ``bucket_bits + 64`` bits agree: with
14 bucket bits and 10 million URLs the chance that any URL is wrongly taken
for visited is about 1e-10.

Choose ``bucket_bits`` for the crawl's size: about ``log2(URLs / 256)``, so
buckets hold ~256 members. Too few buckets and full buckets turn into
hashtables (~60 bytes per member); too many and the per-key overhead (~100
bytes per bucket) dominates. Measured bytes per URL: ``benchmarks/redis_memory.py``
and the README.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis

MAX_BUCKET_BITS = 24
MEMBER_OFFSET = 4  # member bits come after the 32 bits the bucket is cut from
DIGEST_BYTES = MEMBER_OFFSET + 8


def check_bucket_bits(bits: int) -> int:
    if not 0 <= bits <= MAX_BUCKET_BITS:
        raise ValueError(f"digest bucket bits must be between 0 and {MAX_BUCKET_BITS}, got {bits}")
    return bits


def uniform_digest(key: bytes) -> bytes:
    """12 uniformly distributed bytes for any key."""
    return hashlib.blake2b(key, digest_size=DIGEST_BYTES).digest()


def digest_slot(key: bytes, bucket_bits: int) -> tuple[int, int]:
    """``(bucket, member)`` of a key's digest: its top ``bucket_bits`` bits, and
    its bits 32-95 as a signed 64-bit integer."""
    digest = uniform_digest(key)
    head = int.from_bytes(digest[:MEMBER_OFFSET], "big")
    bucket = head >> (32 - bucket_bits) if bucket_bits else 0
    member = int.from_bytes(digest[MEMBER_OFFSET:DIGEST_BYTES], "big", signed=True)
    return bucket, member


class RedisDigestSet:
    """Digests under ``<prefix>:<bucket in hex>``; ``add`` is one ``SADD``."""

    def __init__(self, server: redis.Redis, prefix: str, bucket_bits: int) -> None:
        self.server = server
        self.prefix = prefix
        self.bucket_bits = check_bucket_bits(bucket_bits)

    def slot(self, digest: bytes) -> tuple[str, int]:
        """The Redis key and the integer member that stand for ``digest``."""
        bucket, member = digest_slot(digest, self.bucket_bits)
        return f"{self.prefix}:{bucket:x}", member

    def add(self, digest: bytes) -> bool:
        """Add ``digest``; True if it was not there before."""
        key, member = self.slot(digest)
        return bool(self.server.sadd(key, member))

    def __contains__(self, digest: bytes) -> bool:
        key, member = self.slot(digest)
        return bool(self.server.sismember(key, str(member)))  # as sadd sends it

    def keys(self) -> list[bytes]:
        pattern = "".join("\\" + c if c in "*?[]\\" else c for c in self.prefix) + ":*"
        return list(self.server.scan_iter(match=pattern, count=1000))

    def __len__(self) -> int:
        """Members in all buckets (scans the keys: for status, not per request)."""
        keys = self.keys()
        if not keys:
            return 0
        pipe = self.server.pipeline(transaction=False)
        for key in keys:
            pipe.scard(key)
        return sum(pipe.execute())

    def clear(self) -> int:
        """Delete every bucket; returns the number of keys deleted."""
        keys = self.keys()
        deleted = 0
        for start in range(0, len(keys), 1000):
            deleted += self.server.delete(*keys[start : start + 1000])
        return deleted
