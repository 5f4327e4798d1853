"""The monitor's comparison rules: what is a change, what is noise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webrobot.monitor.snapshot import (
    Ignore,
    Snapshot,
    changes,
    normalise,
    sentences,
    snapshot_of,
    typed_fields,
)

ARTICLE = (
    "The museum reopens on Monday after two years of work.\n"
    "Its new wing holds the collection of maps. Entry stays free for children.\n"
    "Tickets are sold at the door and online."
)


def page(text: str = ARTICLE, **product: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"main_text": text, "metadata": {"title": "Museum news"}}
    if product:
        item["product"] = product
    return item


NOISE = [
    ("a timestamp", "Updated 2026-11-27 13:55:09.", "Updated 2026-11-28 08:01:44."),
    ("a date in words", "Last updated 27 November 2026.", "Last updated 3 December 2026."),
    ("a clock", "Page built at 13:55 UTC.", "Page built at 09:12 UTC."),
    ("a date with its day", "Friday, 27 November 2026", "Saturday, 28 November 2026"),
    ("a counter", "1,234 views", "1,301 views"),
    ("a read counter", "Read 5,001 times.", "Read 5,302 times."),
    ("a relative time", "Posted 5 minutes ago", "Posted 12 minutes ago"),
    ("a relative day", "Posted yesterday", "Posted 2 days ago"),
    ("a counter in brackets", "Comments (12)", "Comments (15)"),
    ("a token", "Session a8f7e6d5c4b3a2f1e0d9c8b7", "Session 0f1e2d3c4b5a69788796a5b4"),
    ("an epoch", "cache 1764251709", "cache 1764338109"),
    ("spacing and case", "Tickets are sold at the door", "tickets  are SOLD at the   door"),
    ("typographic quotes", "It\u2019s \u201cfree\u201d", 'It\'s "free"'),
]


@pytest.mark.parametrize(("what", "before", "after"), NOISE, ids=[n[0] for n in NOISE])
def test_noise_is_not_change(what: str, before: str, after: str) -> None:
    old = snapshot_of(page(ARTICLE + "\n" + before))
    new = snapshot_of(page(ARTICLE + "\n" + after))
    assert changes(old, new) == [], what


CHANGES = [
    (
        "a sentence added",
        ARTICLE + "\nThe cafe closes in winter.",
        [],
        ["The cafe closes in winter."],
    ),
    (
        "a sentence removed",
        ARTICLE.replace(" Entry stays free for children.", ""),
        ["Entry stays free for children."],
        [],
    ),
    (
        "a word changed",
        ARTICLE.replace("free for children", "free for students"),
        ["Entry stays free for children."],
        ["Entry stays free for students."],
    ),
    (
        "a day that is no date",
        ARTICLE.replace("on Monday", "on Tuesday"),
        ["The museum reopens on Monday after two years of work."],
        ["The museum reopens on Tuesday after two years of work."],
    ),
    (
        "a number that is no counter",
        ARTICLE.replace("two years", "three years"),
        ["The museum reopens on Monday after two years of work."],
        ["The museum reopens on Monday after three years of work."],
    ),
]


@pytest.mark.parametrize(("what", "text", "removed", "added"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_changed_sentence_is_named(
    what: str, text: str, removed: list[str], added: list[str]
) -> None:
    found = changes(snapshot_of(page()), snapshot_of(page(text)))
    assert found == [{"field": "main_text", "added": added, "removed": removed}], what


FIELDS = [
    ("price", {"price": "1299.00"}, {"price": "1249.00"}, [("price", "1299.00", "1249.00")]),
    ("price written otherwise", {"price": "1299.00"}, {"price": "1299"}, []),
    ("price with a thousands comma", {"price": "1,299.00"}, {"price": "1299.0"}, []),
    ("availability", {"availability": "https://schema.org/InStock"}, {"availability": "OutOfStock"},
     [("availability", "https://schema.org/InStock", "OutOfStock")]),
    ("availability written otherwise", {"availability": "https://schema.org/InStock"},
     {"availability": "in stock"}, []),
    ("a field appears", {}, {"sku": "A-1"}, [("sku", None, "A-1")]),
    ("a field goes", {"brand": "Acme"}, {}, [("brand", "Acme", None)]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "before", "after", "expected"), FIELDS, ids=[f[0] for f in FIELDS]
)
def test_typed_fields(
    what: str, before: dict[str, str], after: dict[str, str], expected: list[tuple[str, Any, Any]]
) -> None:
    old, new = snapshot_of(page(**before)), snapshot_of(page(**after))
    assert changes(old, new) == [{"field": f, "old": o, "new": n} for f, o, n in expected], what


def test_title_and_site_fields_are_compared() -> None:
    old = snapshot_of({"metadata": {"title": "A"}, "fields": {"colour": "red", "size": "L"}})
    new = snapshot_of({"metadata": {"title": "B"}, "fields": {"colour": "blue", "size": "L"}})
    assert changes(old, new) == [
        {"field": "fields.colour", "old": "red", "new": "blue"},
        {"field": "title", "old": "A", "new": "B"},
    ]


def test_modified_and_image_are_not_compared() -> None:
    old = snapshot_of({"metadata": {"modified": "2026-01-01", "image": "https://x/a.jpg?v=1"}})
    new = snapshot_of({"metadata": {"modified": "2026-02-01", "image": "https://x/a.jpg?v=2"}})
    assert changes(old, new) == []


def test_reordered_and_rotated_blocks_are_not_change() -> None:
    lines = ARTICLE.splitlines() + ["Ad: buy shoes.", "Ad: buy hats."]
    old = snapshot_of(page("\n".join(lines)))
    new = snapshot_of(page("\n".join(reversed(lines))))
    assert changes(old, new) == []


def test_a_repeated_sentence_counts_each_time() -> None:
    old = snapshot_of(page("Sold out. Sold out."))
    new = snapshot_of(page("Sold out."))
    assert changes(old, new) == [{"field": "main_text", "added": [], "removed": ["Sold out."]}]


def test_ignore_patterns_and_fields() -> None:
    ignore = Ignore.of([r"^today's weather"], ["sku"])
    old = snapshot_of(
        {**page("Hello there.\nToday's weather: rain."), "product": {"sku": "1"}}, ignore
    )
    new = snapshot_of(
        {**page("Hello there.\nToday's weather: sun."), "product": {"sku": "2"}}, ignore
    )
    assert changes(old, new, ignore) == []
    assert changes(snapshot_of(page("Hello there.\nToday's weather: rain.")),
                   snapshot_of(page("Hello there.\nToday's weather: sun.")))  # fmt: skip


def test_ignored_text_of_selectors_is_left_out() -> None:
    snap = snapshot_of(
        page("Hello there.\nOffer of the day: socks."), ignored_text=["Offer of the day: socks."]
    )
    assert snap.text == ("Hello there.",)


def test_sentences_split_lines_and_sentences() -> None:
    assert sentences("One. Two! Three?\n\n  Four  five.\n---\n") == [
        "One.",
        "Two!",
        "Three?",
        "Four five.",
    ]
    assert sentences("Dr. smith came. U.S. policy") == ["Dr. smith came.", "U.S. policy"]
    # Closing quotes and brackets stay with their sentence, wherever it ends.
    assert sentences('He said "now." The end. \u201cQuote.\u201d (Aside.) Last') == [
        'He said "now."',
        "The end.",
        "\u201cQuote.\u201d",
        "(Aside.)",
        "Last",
    ]
    assert sentences('He said "now." More.')[0] == sentences('He said "now."')[0]


def test_normalise() -> None:
    assert normalise("  Updated  2026-11-27T13:55:09Z ") == "updated <time>"
    assert normalise("Costs $1,299 today") == "costs $1,299 today"


def test_snapshot_is_compact_and_round_trips() -> None:
    item = {
        "main_text": ARTICLE,
        "metadata": {"title": "T" * 500, "description": "D" * 500, "authors": ["A", "B"]},
        "product": {"name": "N", "price": "1299.00", "currency": "EUR", "availability": "InStock",
                    "sku": "S", "gtin": "1234567890123", "mpn": "M", "brand": "B"},
        "fields": {f"f{i}": "x" * 300 for i in range(100)},
    }  # fmt: skip
    snap = snapshot_of(item)
    stored = json.dumps(snap.to_json(), separators=(",", ":"))
    text_bytes = len(json.dumps(list(snap.text)))
    assert len(stored) - text_bytes < 2048 * 4  # bounded whatever the item carries
    assert len(json.dumps(snapshot_of({**item, "fields": {}}).to_json())) - text_bytes < 2048
    assert Snapshot.from_json(json.loads(stored)) == snap


def test_broken_values_do_not_crash() -> None:
    snap = snapshot_of({"main_text": 42, "metadata": "x", "product": ["y"], "fields": None})
    assert snap == Snapshot()
    assert Snapshot.from_json({"t": "nope", "f": []}) == Snapshot()
    assert typed_fields({"metadata": {"authors": [None, "", "Ann"]}}) == {"authors": "Ann"}


_sentence = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=60
)
_items = st.fixed_dictionaries(
    {"main_text": st.lists(_sentence, max_size=12).map("\n".join)},
    optional={
        "product": st.fixed_dictionaries(
            {}, optional={"price": st.text(max_size=10), "sku": st.text(max_size=10)}
        ),
        "fields": st.dictionaries(st.text(max_size=8), st.text(max_size=20), max_size=4),
    },
)


@settings(max_examples=200, deadline=None)
@given(_items)
def test_a_snapshot_compared_with_itself_is_no_change(item: dict[str, Any]) -> None:
    snap = snapshot_of(item)
    assert changes(snap, snap) == []
    assert changes(snap, Snapshot.from_json(json.loads(json.dumps(snap.to_json())))) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(_sentence, max_size=12), st.randoms(use_true_random=False))
def test_reordering_lines_is_no_change(lines: list[str], rng: Any) -> None:
    shuffled = list(lines)
    rng.shuffle(shuffled)
    assert (
        changes(
            snapshot_of({"main_text": "\n".join(lines)}),
            snapshot_of({"main_text": "\n".join(shuffled)}),
        )
        == []
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(_sentence, max_size=8), st.lists(_sentence, max_size=8))
def test_changes_are_symmetric(a: list[str], b: list[str]) -> None:
    old, new = snapshot_of({"main_text": "\n".join(a)}), snapshot_of({"main_text": "\n".join(b)})
    forward, backward = changes(old, new), changes(new, old)
    assert bool(forward) == bool(backward)
    if forward:
        assert sorted(forward[0]["added"]) == sorted(backward[0]["removed"])
