"""The product-fields gate on real shop pages, split by shop
(``python -m benchmarks.quality.productdev`` prints the whole table).

The pages are the development half of a public product benchmark, read in place from
``<repo root>/../shared/benchdata/product-dev`` (or ``$WEBROBOT_BENCHDATA``). Where it is
absent the test skips, except in CI (``CI`` set), which has it: there a missing folder
fails. Each half (the shops the readers were developed on, and the shops nobody looked
at while developing) has its own floors, and on both the extractor stays at or above
extruct + price-parser on structured data only, run in the same process.
"""

from __future__ import annotations

import os

import pytest

from benchmarks.quality.productdev import SPLITS, DevPage, Scored, evaluate, pages

#: split -> field -> F1 floor, a little under what was measured (tuned: price 0.885,
#: sku 0.920, availability 0.962, gtin 0.889, brand 0.600; unseen: 0.923, 0.808, 0.926,
#: 0.857, 0.744).
FLOORS = {
    "tuned": {"price": 0.87, "sku": 0.90, "availability": 0.94, "gtin": 0.85, "brand": 0.58},
    "unseen": {"price": 0.90, "sku": 0.78, "availability": 0.90, "gtin": 0.83, "brand": 0.72},
}
#: The fields the benchmark itself scores: there the anchor must be beaten on both halves.
BENCHMARK_FIELDS = ("price", "sku", "availability")


@pytest.fixture(scope="module")
def dev_pages() -> list[DevPage]:
    try:
        return pages()
    except FileNotFoundError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"the benchmark data must be there in CI: {exc}")
        pytest.skip(f"benchmark data absent: {exc}")


@pytest.fixture(scope="module")
def results(dev_pages: list[DevPage]) -> dict[str, dict[str, Scored]]:
    pytest.importorskip("extruct")
    return evaluate(dev_pages, rdfa_when_needed=True)  # the same F1; the CPU is the benchmark's


def test_the_split_is_by_shop_and_even(dev_pages: list[DevPage]) -> None:
    assert len(dev_pages) == 55
    shops = {split: {p.shop for p in dev_pages if p.split == split} for split in SPLITS}
    assert not shops["tuned"] & shops["unseen"]
    assert all(len(s) >= 10 for s in shops.values())
    sizes = [sum(p.split == split for p in dev_pages) for split in SPLITS]
    assert min(sizes) >= 20


@pytest.mark.parametrize("split", SPLITS)
def test_each_field_at_least_as_pinned_and_above_structured_data_alone(
    results: dict[str, dict[str, Scored]], split: str
) -> None:
    ours, anchor = results["webrobot"][split], results["extruct + price-parser"][split]
    for field, floor in FLOORS[split].items():
        assert ours.fields[field].f1 >= floor, (field, ours.fields[field].wrong)
    for field in BENCHMARK_FIELDS:
        assert ours.fields[field].f1 >= anchor.fields[field].f1, field
