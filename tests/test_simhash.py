"""SimHash and the banded near-duplicate index (webrobot.seen.simhash)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webrobot.seen.simhash import (
    BANDS,
    LINE_WORDS,
    MAX_DISTANCE,
    MIN_WORDS,
    NearIndex,
    bands,
    feature_words,
    features,
    judged,
    simhash,
    to_hex,
)
from webrobot.seen.storefile import load_store, save_store
from webrobot.seen.stores import StoreFileError
from webrobot.text import hamming as distance

VOCABULARY = [f"w{n}" for n in range(2000)]


def article(seed: int, paragraphs: int = 6, words: int = 40) -> str:
    rng = random.Random(seed)
    return "\n".join(
        " ".join(rng.choice(VOCABULARY) for _ in range(words)) for _ in range(paragraphs)
    )


def test_a_copy_with_another_date_line_and_numbers_is_the_same_fingerprint() -> None:
    body = article(1)
    first = f"Published 27 November 2026, 09:14\n{body}"
    copy = f"Updated 28 November 2026 at 17:02 GMT\n{body}"
    assert simhash(first) == simhash(copy)
    assert simhash(body.replace("w1 ", "W1 ")) == simhash(body), "case does not count"


def test_different_texts_are_far_apart_and_an_edit_is_close() -> None:
    a, b = article(1), article(2)
    assert distance(simhash(a), simhash(b)) > 16
    lines = a.splitlines()
    lines[2] = lines[2].replace(lines[2].split()[20], "changed", 1)
    assert distance(simhash(a), simhash("\n".join(lines))) <= MAX_DISTANCE + 3


def test_short_lines_are_left_out_only_when_the_long_ones_are_enough() -> None:
    long_line = " ".join(["word"] * LINE_WORDS)
    assert feature_words(f"a short line\n{long_line}") == ["a", "short", "line"] + ["word"] * 12
    many = "\n".join([long_line] * 5)
    assert feature_words(f"a short line\n{many}") == ["word"] * 60
    assert feature_words("In 2026 there were 12,400 of them") == [
        "in", "0", "there", "were", "0", "0", "of", "them",
    ]  # fmt: skip


def test_judged_needs_enough_words() -> None:
    assert not judged(" ".join(["word"] * (MIN_WORDS - 1)))
    assert judged(" ".join(["word"] * MIN_WORDS))
    assert simhash("") == 0


def test_the_index_finds_a_near_fingerprint_through_a_band_and_keeps_the_first_url() -> None:
    index = NearIndex(3)
    base = 0x0123_4567_89AB_CDEF
    assert index.first(base, "http://a/1") is None
    # Three bits flipped, one in each of three bands: the fourth band still matches.
    near = base ^ (1 << 0) ^ (1 << 20) ^ (1 << 40)
    assert index.first(near, "http://a/2") == (base, "http://a/1")
    assert index.first(base, "http://a/1") is None, "a page is not its own near copy"
    far = base ^ (1 << 0) ^ (1 << 20) ^ (1 << 40) ^ (1 << 60)  # four bits: every band differs
    assert index.first(far, "http://a/3") is None
    assert len(index) == 2
    with pytest.raises(ValueError, match="0 to 3"):
        NearIndex(4)


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 63), max_size=MAX_DISTANCE, unique=True))
def test_every_fingerprint_within_three_bits_shares_a_band(
    fingerprint: int, flips: list[int]
) -> None:
    other = fingerprint
    for bit in flips:
        other ^= 1 << bit
    assert distance(fingerprint, other) == len(flips)
    assert any(x == y for x, y in zip(bands(fingerprint), bands(other), strict=True))
    index = NearIndex(MAX_DISTANCE)
    index.first(fingerprint, "first")
    assert index.near(other) == (fingerprint, "first")
    assert len(bands(fingerprint)) == BANDS and int(to_hex(fingerprint), 16) == fingerprint


def reference_simhash(text: str) -> int:
    """SimHash as the paper writes it: +1 or -1 per feature and bit, the sign per bit."""
    counts = [0] * 64
    for feature in features(text):
        value = int.from_bytes(
            hashlib.blake2b(feature.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big"
        )
        for bit in range(64):
            counts[bit] += 1 if value >> bit & 1 else -1
    return sum(1 << bit for bit, count in enumerate(counts) if count > 0)


@settings(max_examples=60)
@given(st.text(max_size=400))
def test_any_text_gives_the_papers_64_bit_fingerprint(text: str) -> None:
    value = simhash(text)
    assert 0 <= value < 2**64
    assert value == reference_simhash(text)


def test_the_counters_do_not_overflow_on_a_very_long_text() -> None:
    text = " ".join(f"w{n % 5000}" for n in range(70_000))  # more features than a counter holds
    assert simhash(text) == reference_simhash(text)


@settings(max_examples=40)
@given(
    st.integers(0, 10_000), st.integers(0, 5), st.text(alphabet="abc xyz0123456789", max_size=60)
)
def test_a_copy_with_a_short_line_added_stays_within_three_bits(
    seed: int, where: int, line: str
) -> None:
    lines = article(seed).splitlines()
    short = " ".join(line.split()[: LINE_WORDS - 1])
    copy = "\n".join(lines[:where] + [short] + lines[where:])
    assert distance(simhash("\n".join(lines)), simhash(copy)) <= MAX_DISTANCE


#: Fingerprints clustered around a few centres (so that lookups find near ones, ties
#: included), and URLs with any characters a URL string may carry.
CENTRES = st.sampled_from([0, 2**64 - 1, 0x0123_4567_89AB_CDEF, 0xFFFF_0000_FFFF_0000])
NEAR_FINGERPRINTS = st.one_of(
    st.integers(0, 2**64 - 1),
    st.builds(
        lambda centre, flips: centre ^ sum(1 << bit for bit in set(flips)),
        CENTRES,
        st.lists(st.integers(0, 63), max_size=6),
    ),
)


@settings(max_examples=150)
@given(
    st.integers(0, MAX_DISTANCE),
    st.lists(st.tuples(NEAR_FINGERPRINTS, st.text(max_size=30)), max_size=40),
    st.lists(NEAR_FINGERPRINTS, max_size=30),
)
def test_any_index_saved_and_loaded_answers_near_identically(
    tmp_path_factory: pytest.TempPathFactory,
    max_distance: int,
    pages: list[tuple[int, str]],
    queries: list[int],
) -> None:
    index = NearIndex(max_distance)
    for fingerprint, url in pages:
        index.first(fingerprint, url)
    path = tmp_path_factory.mktemp("near") / "webrobot-near.store"
    save_store(index, path, clean=True)
    loaded = load_store(path)
    assert isinstance(loaded, NearIndex)
    loaded.max_distance = max_distance  # the distance is the crawl's setting, not the file's
    assert len(loaded) == len(index) and sorted(loaded.items()) == sorted(index.items())
    for fingerprint in queries + [fp for fp, _ in pages]:
        assert loaded.near(fingerprint) == index.near(fingerprint)
    # Rebuilt in another order (as from the frontier database): the same answers too.
    shuffled = NearIndex(max_distance)
    shuffled.update(sorted(index.items(), reverse=True))
    for fingerprint in queries:
        assert shuffled.near(fingerprint) == index.near(fingerprint)


def test_equally_near_fingerprints_answer_the_lowest_whatever_the_order() -> None:
    base = 0b1000
    low, high = base ^ 0b1, base ^ 0b10  # both 1 bit from base, low < high
    for order in ([(high, "h"), (low, "l")], [(low, "l"), (high, "h")]):
        index = NearIndex(3)
        index.update(order)
        assert index.near(base) == (low, "l")
    index = NearIndex()
    assert index.add(5, "a") and not index.add(5, "b")
    assert index.near(5) == (5, "a"), "the first URL stays"


def test_a_damaged_near_index_file_is_a_clear_error(tmp_path: Path) -> None:
    index = NearIndex(3)
    for n in range(20):
        index.first(n << 20, f"http://a.test/{n}")
    path = tmp_path / "webrobot-near.store"
    save_store(index, path)
    data = bytearray(path.read_bytes())
    path.write_bytes(data[:-3])
    with pytest.raises(StoreFileError, match="truncated"):
        load_store(path)
    data[-1] ^= 0xFF
    path.write_bytes(data)
    with pytest.raises(StoreFileError, match="checksum"):
        load_store(path)
    header, sections = index.to_state()
    header["count"] = 21
    with pytest.raises(ValueError, match="count"):
        NearIndex.from_state(header, [memoryview(s) for s in sections])
