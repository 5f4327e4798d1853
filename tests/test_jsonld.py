"""One reading of a page's JSON-LD (webrobot.extract.jsonld.read_jsonld): the lenient
items and the strict documents, each block decoded once, the same as each reading alone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract import jsonld
from webrobot.extract.jsonld import jsonld_items, page_jsonld, parse_jsonld, read_jsonld


def root(*scripts: tuple[str, str]) -> Any:
    body = "".join(f'<script type="{kind}">{text}</script>' for kind, text in scripts)
    return Selector(text=f"<html><head>{body}</head><body></body></html>", type="html").root


@pytest.mark.parametrize(
    ("kind", "text", "items", "documents"),
    [
        ("application/ld+json", '{"@type": "A"}', [{"@type": "A"}], [{"@type": "A"}]),
        (" Application/LD+JSON\n", '{"@type": "A"}', [{"@type": "A"}], [{"@type": "A"}]),
        ("application/ld+json", '[{"a": 1}, null, {}]', [{"a": 1}], [[{"a": 1}, None, {}]]),
        ("application/ld+json", "null", [], [None]),
        # Repaired blocks are items only: the documents are the blocks as written.
        ("application/ld+json", '{"a": 1,}', [{"a": 1}], []),
        ("application/ld+json", '{"a": 1}{"b": 2}', [{"a": 1}, {"b": 2}], []),
        ("application/ld+json", '{"a": "x\ty"}', [{"a": "x\ty"}], []),
        ("application/ld+json", "{not json", [], []),
        # Other JSON-LD types are items only.
        ("application/json+ld", '{"a": 1}', [{"a": 1}], []),
        ("application/ld+json; charset=utf-8", '{"a": 1}', [{"a": 1}], []),
        ("application/json", '{"a": 1}', [], []),
    ],
)  # fmt: skip
def test_each_reading_of_a_block(kind: str, text: str, items: list, documents: list) -> None:
    read = read_jsonld(root((kind, text)))
    assert read.items == items and read.documents == documents
    assert page_jsonld(root((kind, text))) == items


def test_no_tree_no_json_ld() -> None:
    assert read_jsonld(None).items == [] and read_jsonld(None).documents == []
    assert read_jsonld(root(("application/ld+json", ""))).items == []


def test_a_block_too_large_for_items_is_decoded_only_for_the_documents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsonld, "MAX_BLOCK", 40)
    big = json.dumps({"@type": "A", "pad": "x" * 50})
    read = read_jsonld(root(("application/ld+json", big)))
    assert read.items == [] and read.documents == [json.loads(big)]
    assert read_jsonld(root(("application/ld+json", big)), documents=False).documents == []


def test_every_block_is_decoded_once_when_it_is_strict_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts: list[str] = []
    raw_decode = json.JSONDecoder.raw_decode

    def counting(self: json.JSONDecoder, text: str, idx: int = 0) -> tuple[Any, int]:
        texts.append(text)
        return raw_decode(self, text, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counting)
    page = root(("application/ld+json", '{"@type": "A"}'), ("application/ld+json", "[1, 2]"))
    read_jsonld(page)
    assert texts == ['{"@type": "A"}', "[1, 2]"]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_json.map(json.dumps), st.text(max_size=30)), max_size=3))
def test_one_reading_is_both_readings_alone(blocks: list[str]) -> None:
    """Items as the lenient reader gives them; documents as strict JSON reads the blocks."""
    tree = root(*(("application/ld+json", b) for b in blocks))
    texts = [node.text for node in tree.iter("script")]
    read = read_jsonld(tree)
    expected_items = [i for t in texts if t is not None for i in jsonld_items(parse_jsonld(t))]
    expected_documents = []
    for text in texts:
        try:
            expected_documents.append(json.loads(text))
        except (TypeError, ValueError, RecursionError):
            continue
    assert read.items == expected_items
    assert read.documents == expected_documents
