"""The inputs the mining parts of one page share: each read once, for every part."""

from __future__ import annotations

from typing import Any

import pytest
from parsel import Selector

import webrobot.extract.inputs as inputs_module
from webrobot.extract.headtags import head_tags
from webrobot.extract.inputs import HEAD_TAGS, PageInputs
from webrobot.extract.metadata import metadata
from webrobot.extract.page import SourcePage
from webrobot.extract.parts import BY_NAME

pytest.importorskip("extruct")

SHOP = (
    '<html lang="en"><head><title>Lamp | Shop</title>'
    '<meta property="og:type" content="product"><meta property="og:title" content="Lamp">'
    '<meta property="product:price:amount" content="24.99">'
    '<meta property="product:price:currency" content="EUR">'
    '<link rel="canonical" href="/lamp"></head><body><h1>Lamp</h1><p>Oak and brass.</p>'
    "</body></html>"
)


def page() -> SourcePage:
    url = "https://shop.example.com/lamp?ref=1"
    return SourcePage(url=url, html=SHOP, root=Selector(text=SHOP, type="html").root)


def test_metadata_and_product_share_one_gathering_of_the_head_tags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []

    def counted(root: Any) -> Any:
        calls.append(root)
        return head_tags(root)

    monkeypatch.setattr(inputs_module, "head_tags", counted)
    inputs = PageInputs(page(), full_structured=True)
    found = {name: BY_NAME[name].run(inputs) for name in ("structured_data", "metadata", "product")}
    assert len(calls) == 1
    assert HEAD_TAGS in BY_NAME["metadata"].inputs and HEAD_TAGS in BY_NAME["product"].inputs
    # The same as each reading the tags itself.
    assert found["metadata"] == metadata(page(), found["structured_data"])
    assert found["metadata"]["canonical"] == "https://shop.example.com/lamp"
    assert (found["product"]["name"], found["product"]["price"]) == ("Lamp", "24.99")


def test_a_failure_to_gather_the_tags_is_raised_to_each_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(root: Any) -> Any:
        raise RuntimeError("broken tree")

    monkeypatch.setattr(inputs_module, "head_tags", broken)
    inputs = PageInputs(page(), full_structured=True)
    for name in ("metadata", "product"):
        with pytest.raises(RuntimeError, match="broken tree"):
            BY_NAME[name].run(inputs)
