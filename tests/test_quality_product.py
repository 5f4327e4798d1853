"""The product-fields gate: on the annotated shop pages of ``tests/fixtures/product``
each field's F1 stays at or above its pinned floor and above the anchor measured in
the same run, extruct + price-parser on structured data only
(``python -m benchmarks.quality.product`` prints the table)."""

from __future__ import annotations

import json

import pytest

from benchmarks.quality.product import FIELDS, FIXTURES, Result, cases, evaluate

#: Field -> F1 floor. These pages were written before the extractor was checked
#: against them and it was then fixed on them: the floors guard against regressions,
#: they are no estimate of the score on unseen shops.
FLOORS = {
    "name": 0.95,
    "price": 0.95,
    "currency": 0.95,
    "availability": 0.95,
    "sku": 0.95,
    "gtin": 0.95,
    "mpn": 0.95,
    "brand": 0.95,
}
PAGES_FLOOR = 0.96


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return evaluate()


def test_the_fixtures_are_many_and_varied() -> None:
    all_cases = cases()
    assert len(all_cases) >= 40
    assert sum(c.expected is None for c in all_cases) >= 5  # pages that are no product page
    for folder in FIXTURES.iterdir():
        answer = json.loads((folder / "expected.json").read_text("utf-8"))
        assert set(answer) == {"url", "product"}, folder
        assert answer["product"] is None or set(answer["product"]) == set(FIELDS), folder
    currencies = {c.expected["currency"] for c in all_cases if c.expected}
    availabilities = {c.expected["availability"] for c in all_cases if c.expected}
    assert len(currencies) >= 10 and len(availabilities) >= 6


@pytest.mark.parametrize("field", FIELDS)
def test_each_field_at_least_as_pinned_and_above_structured_data_alone(
    results: dict[str, Result], field: str
) -> None:
    ours, anchor = (
        results["webrobot"].fields[field],
        results["extruct + price-parser"].fields[field],
    )
    assert ours.f1 >= FLOORS[field], ours.wrong
    assert ours.f1 >= anchor.f1


def test_product_pages_told_from_other_pages(results: dict[str, Result]) -> None:
    ours = results["webrobot"]
    assert ours.pages_right / ours.pages >= PAGES_FLOOR
