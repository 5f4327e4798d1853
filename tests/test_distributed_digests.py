from __future__ import annotations

import hashlib

import pytest

from tests.redisserver import RedisServer
from webrobot.distributed.digests import (
    RedisDigestSet,
    check_bucket_bits,
    digest_slot,
    uniform_digest,
)


def test_slot_cuts_the_uniform_digest_into_bucket_and_signed_member() -> None:
    key = b"http://example.com/"
    digest = uniform_digest(key)
    assert digest == hashlib.blake2b(key, digest_size=12).digest()
    bucket, member = digest_slot(key, 14)
    assert bucket == int.from_bytes(digest[:4], "big") >> 18
    assert 0 <= bucket < 2**14
    assert member == int.from_bytes(digest[4:12], "big", signed=True)
    assert -(2**63) <= member < 2**63
    assert digest_slot(key, 0)[0] == 0
    assert digest_slot(key, 24)[1] == member, "the member does not depend on the bucket bits"


def test_keys_that_share_a_long_prefix_still_spread() -> None:
    """A fingerprinter that returns the URL itself must not put a site in one slot."""
    slots = {digest_slot(f"http://example.com/page/{i}".encode(), 8) for i in range(1000)}
    assert len(slots) == 1000
    assert len({bucket for bucket, _ in slots}) > 200


@pytest.mark.parametrize("bits", [-1, 25])
def test_bucket_bits_are_checked(bits: int) -> None:
    with pytest.raises(ValueError, match="between 0 and 24"):
        check_bucket_bits(bits)


def test_redis_digest_set(redis_server: RedisServer) -> None:
    client = redis_server.client()
    seen = RedisDigestSet(client, "t:visited", 4)
    other = RedisDigestSet(client, "t:content", 4)
    keys = [hashlib.sha1(str(i).encode()).digest() for i in range(200)]
    assert all(seen.add(k) for k in keys)
    assert not any(seen.add(k) for k in keys)
    assert all(k in seen for k in keys)
    assert b"never added" not in seen
    assert len(seen) == 200 and len(other) == 0
    assert other.add(keys[0]), "another prefix is another set"
    buckets = seen.keys()
    assert 1 < len(buckets) <= 16
    assert {client.object("encoding", b) for b in buckets} == {b"intset"}, "the compact encoding"
    assert seen.clear() == len(buckets)
    assert len(seen) == 0 and keys[0] in other
