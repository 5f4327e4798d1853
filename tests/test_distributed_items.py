"""The stored form of a shared crawl's items, and what the export keeps."""

from __future__ import annotations

import pytest

from webrobot.distributed.items import (
    PICKLE_ERRORS,
    FirstPerKey,
    decode_item,
    encode_item,
    entry_items,
    item_key,
)
from webrobot.items import PageItem


def test_item_keys_name_the_page_and_the_ordinal() -> None:
    assert item_key("http://a/", 1) == "http://a/"
    assert item_key("http://a/", 2) == "http://a/#2"


def test_items_round_trip_with_their_class() -> None:
    item = PageItem("http://a/", 200, 0, None, "2026-01-01T00:00:00Z", "text/html", "t", "0" * 32)
    assert decode_item(encode_item(item)) == item
    assert decode_item(encode_item({"url": "http://a/"})) == {"url": "http://a/"}


def test_an_item_of_a_local_class_is_stored_as_its_fields() -> None:
    class Local(dict):  # pickle cannot find a class defined in a function
        pass

    assert decode_item(encode_item(Local(url="http://a/"))) == {"url": "http://a/"}


def test_an_item_that_cannot_be_pickled_at_all_raises_a_known_error() -> None:
    with pytest.raises(PICKLE_ERRORS):
        encode_item({"callback": lambda: None})


def test_the_export_keeps_the_first_entry_per_key() -> None:
    first = FirstPerKey()
    assert [first.first(k) for k in ["a", "b", "a", "a#2", "b"]] == [True, True, False, True, False]
    assert first.repeated == 2


def test_a_stream_entry_holds_the_items_of_one_acknowledgement_in_order() -> None:
    fields = {b"k": b"http://a/1", b"i": b"one", b"k1": b"http://a/1#2", b"i1": b"two",
              b"k2": b"http://a/2", b"k3": b"http://a/3", b"i3": b"three"}  # fmt: skip
    assert list(entry_items(fields)) == [
        ("http://a/1", b"one"),
        ("http://a/1#2", b"two"),
        ("http://a/2", None),
        ("http://a/3", b"three"),
    ], "an entry cut short names the key without its item"
    assert list(entry_items({})) == []


def test_items_wait_for_their_pages_acknowledgement() -> None:
    from webrobot.distributed.items import ItemsAwaitingAck

    waiting = ItemsAwaitingAck()
    assert not waiting
    waiting.add("lease-a", "http://a/", {"n": 1})
    waiting.add("lease-a", "http://a/", {"n": 2})
    waiting.add("lease-b", "http://b/", {"n": 3})
    waiting.add("", "http://c/", {"n": 4})  # under no lease
    with pytest.raises(PICKLE_ERRORS):
        waiting.add("lease-d", "http://d/", {"n": lambda: None})
    stored = waiting.of(["lease-a"])
    assert [key for key, _ in stored] == ["http://c/", "http://a/", "http://a/#2"]
    assert [decode_item(data)["n"] for _, data in stored] == [4, 1, 2]
    waiting.stored(["lease-a"])
    assert [key for key, _ in waiting.of(["lease-a", "lease-b", "lease-d"])] == ["http://b/"]
    waiting.add("", "http://c/", {"n": 5})
    waiting.forget_leased()  # every lease given back: their pages are fetched again
    assert [key for key, _ in waiting.of(["lease-b"])] == ["http://c/"]
