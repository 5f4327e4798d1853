"""The mining parts' output comparison: a changed result is listed, RDFa's order is not."""

from __future__ import annotations

from benchmarks.quality.miningoutput import RUNS, differences

RUN = "+".join(RUNS[0])


def saved(rdfa: list, price: str) -> dict:
    return {
        "news/1": {
            RUN: {
                "structured_data": {"json-ld": [], "rdfa": rdfa},
                "product": {"price": price},
                "metadata": {"title": "T"},
            }
        }
    }


def test_the_same_results_in_another_rdfa_order_are_the_same() -> None:
    one = [{"@id": "a", "p": [{"@value": "1"}, {"@value": "2"}]}, {"@id": "b"}]
    other = [{"@id": "b"}, {"@id": "a", "p": [{"@value": "2"}, {"@value": "1"}]}]
    assert differences(saved(one, "9.99"), saved(other, "9.99")) == []


def test_a_changed_result_and_a_lost_page_are_listed() -> None:
    before = saved([], "9.99")
    assert differences(before, saved([], "10.00")) == [
        f"news/1 [{RUN}] product:\n  before {{'price': '9.99'}}\n  after  {{'price': '10.00'}}"
    ]
    assert differences(before, saved([{"@id": "x"}], "9.99"))[0].startswith(
        f"news/1 [{RUN}] structured_data:"
    )
    assert differences(before, {}) == ["news/1: missing now"]
