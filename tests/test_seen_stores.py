from __future__ import annotations

import os
from pathlib import Path

import pytest

from webrobot.seen.storefile import load_store, read_header, save_store
from webrobot.seen.stores import (
    AUDIT_BELOW,
    BloomStore,
    ExactStore,
    FirstSeenIndex,
    Seen,
    StoreFileError,
    bloom_size,
    make_store,
    uniform_key,
)

MILLION = 1_000_000


def random_keys(n: int) -> list[bytes]:
    blob = os.urandom(16 * n)
    return [blob[i : i + 16] for i in range(0, 16 * n, 16)]


@pytest.fixture(scope="module")
def million() -> tuple[list[bytes], list[bytes]]:
    """1,000,000 keys to add and 1,000,000 other keys to ask about."""
    return random_keys(MILLION), random_keys(MILLION)


# -- exact ---------------------------------------------------------------------


def test_exact_membership_and_growth() -> None:
    store = ExactStore()
    keys = random_keys(5000)
    assert all(store.add(k) for k in keys)  # grows several times past 1024 slots
    assert len(store) == 5000 and store.slots > 5000
    assert not any(store.add(k) for k in keys), "a second add is not new"
    assert all(k in store for k in keys)
    assert not any(k in store for k in random_keys(5000))
    assert b"\x00" * 16 not in store and "text" not in store


def test_exact_keeps_64_bits_of_each_key() -> None:
    store = ExactStore()
    key = os.urandom(16)
    assert store.add(key)
    assert key[:8] + os.urandom(8) in store, "only the first 8 bytes count (documented)"
    zero = b"\x00" * 16
    assert store.add(zero) and zero in store and len(store) == 2


def test_exact_rejects_short_keys() -> None:
    with pytest.raises(ValueError, match="at least 16 bytes"):
        ExactStore().add(b"short")


def test_exact_values() -> None:
    store = ExactStore(values=True)
    keys = random_keys(3000)
    for i, key in enumerate(keys):
        assert store.setdefault(key, i) is None
    assert [store.get(k) for k in keys] == list(range(3000))
    assert store.setdefault(keys[7], 99) == 7
    assert store.get(os.urandom(16)) is None
    with pytest.raises(TypeError):
        ExactStore().get(keys[0])


def test_exact_million_keys_fit_in_24_bytes_each(million: tuple[list[bytes], list[bytes]]) -> None:
    added, others = million
    store = ExactStore()
    for key in added:
        store.add(key)
    assert len(store) == MILLION
    assert all(k in store for k in added), "no false negatives"
    assert sum(1 for k in others if k in store) <= 1, "64-bit digests: collisions are ~1e-8"
    assert store.nbytes / MILLION <= 24


# -- Bloom ---------------------------------------------------------------------


def test_bloom_size() -> None:
    bits, hashes = bloom_size(MILLION, 0.01)
    assert 9.5 < bits / MILLION < 9.7 and hashes == 7
    with pytest.raises(ValueError, match="error rate"):
        bloom_size(10, 1.5)
    with pytest.raises(ValueError, match="capacity"):
        bloom_size(0, 0.01)


@pytest.mark.parametrize("error_rate", [0.01])
def test_bloom_false_positive_rate_on_a_million_keys(
    million: tuple[list[bytes], list[bytes]], error_rate: float
) -> None:
    added, others = million
    store = BloomStore(MILLION, error_rate)
    for key in added:
        store.add(key)
    assert all(k in store for k in added[:200_000]), "a Bloom filter has no false negatives"
    rate = sum(1 for k in others if k in store) / len(others)
    assert error_rate / 2 <= rate <= error_rate * 2, rate
    assert store.nbytes / MILLION <= 2, "bytes per key at 1 %"
    assert len(store.layers) == 1


def test_bloom_grows_by_layers_past_capacity() -> None:
    store = BloomStore(2000, 0.01)
    keys = random_keys(10_000)
    for key in keys:
        store.add(key)
    assert len(store.layers) == 3 and store.over_capacity  # 2000 + 4000 + 8000
    assert [layer.error_rate for layer in store.layers] == [0.01, 0.005, 0.0025]
    assert all(k in store for k in keys)
    rate = sum(1 for k in random_keys(20_000) if k in store) / 20_000
    assert rate <= 0.02, "the layers keep the overall rate under twice the configured one"


def test_bloom_detects_and_corrects_false_positives_on_audited_keys() -> None:
    store = BloomStore(200, 0.2)
    for key in random_keys(5000):  # far past capacity: many false positives
        store.add(key)
    audited = [k for k in random_keys(20_000) if k[15] < AUDIT_BELOW][:200]
    raw = sum(1 for k in audited if store._in_layers(*store._hashes(k)))
    assert raw > 0, "the filter itself answers 'seen' for some new audited keys"
    before = store.false_positives
    assert all(store.add(k) for k in audited), "audited keys are judged exactly"
    assert store.false_positives - before == raw
    assert not any(store.add(k) for k in audited)


# -- first seen ----------------------------------------------------------------


def test_first_seen_index_names_the_first_url() -> None:
    index = FirstSeenIndex(ExactStore(values=True))
    a, b = os.urandom(16), os.urandom(16)
    assert index.check(a, "http://x/a") is None
    assert index.check(b, "http://x/b\u00e9") is None
    assert index.check(a, "http://x/a-copy") == Seen("http://x/a")
    assert index.check(b, "http://x/b2") == Seen("http://x/b\u00e9")
    assert len(index) == 2 and a in index


def test_first_seen_index_with_bloom_keeps_no_urls() -> None:
    index = FirstSeenIndex(BloomStore(100, 0.01))
    key = os.urandom(16)
    assert index.check(key, "http://x/a") is None
    assert index.check(key, "http://x/b") == Seen(None)


def test_first_seen_index_needs_values() -> None:
    with pytest.raises(ValueError, match="values=True"):
        FirstSeenIndex(ExactStore())


# -- files ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["exact", "bloom"])
def test_store_round_trip(tmp_path: Path, kind: str) -> None:
    store = make_store(kind, capacity=1000, error_rate=0.01)
    keys = random_keys(3000)  # bloom: past capacity, so several layers
    for key in keys[:2500]:
        store.add(key)
    path = tmp_path / "store"
    save_store(store, path, clean=True)
    loaded = load_store(path)
    assert type(loaded) is type(store) and len(loaded) == len(store)
    assert all(k in loaded for k in keys[:2500])
    assert [k in loaded for k in keys[2500:]] == [k in store for k in keys[2500:]]
    assert loaded.nbytes == store.nbytes
    assert read_header(path)["clean"] is True
    assert all(loaded.add(k) == store.add(k) for k in keys[2500:]), "the loaded store goes on alike"
    if isinstance(store, BloomStore):
        assert isinstance(loaded, BloomStore)
        assert len(loaded.layers) == len(store.layers) > 1
        assert loaded.false_positives == store.false_positives


@pytest.mark.parametrize("kind", ["exact", "bloom"])
def test_first_seen_round_trip(tmp_path: Path, kind: str) -> None:
    index = FirstSeenIndex(make_store(kind, 100, 0.01, values=True))
    keys = random_keys(2000)
    for i, key in enumerate(keys):
        index.check(key, f"http://x/{i}")
    save_store(index, tmp_path / "content")
    loaded = load_store(tmp_path / "content")
    assert isinstance(loaded, FirstSeenIndex)
    expected = f"http://x/{1234}" if kind == "exact" else None
    assert loaded.check(keys[1234], "http://x/again") == Seen(expected)
    assert loaded.check(os.urandom(16), "http://x/new") is None


def test_saving_replaces_atomically(tmp_path: Path) -> None:
    store = ExactStore()
    store.add(os.urandom(16))
    path = tmp_path / "s"
    save_store(store, path)
    store.add(os.urandom(16))
    save_store(store, path)
    assert len(load_store(path)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"], "no temporary file left"


def test_unusable_files_raise_clear_errors(tmp_path: Path) -> None:
    store = ExactStore()
    for key in random_keys(100):
        store.add(key)
    path = tmp_path / "s"
    save_store(store, path)
    data = path.read_bytes()

    with pytest.raises(StoreFileError, match="cannot be read"):
        load_store(tmp_path / "missing")
    (tmp_path / "junk").write_bytes(b"\x00\x01 not a store")
    with pytest.raises(StoreFileError, match="not a webrobot store file"):
        load_store(tmp_path / "junk")
    path.write_bytes(data[:-100])
    with pytest.raises(StoreFileError, match="truncated"):
        load_store(path)
    corrupted = bytearray(data)
    corrupted[-5] ^= 0xFF
    path.write_bytes(bytes(corrupted))
    with pytest.raises(StoreFileError, match="checksum"):
        load_store(path)
    path.write_bytes(data.replace(b'"version": 1', b'"version": 9', 1))
    with pytest.raises(StoreFileError, match="version"):
        load_store(path)


def test_make_store_names() -> None:
    assert isinstance(make_store("exact"), ExactStore)
    assert isinstance(make_store("bloom", 10, 0.1), BloomStore)
    with pytest.raises(ValueError, match="exact, bloom"):
        make_store("set")


def test_uniform_key() -> None:
    assert len(uniform_key(b"x")) == 16
    assert uniform_key(b"x") == uniform_key(b"x") != uniform_key(b"y")
