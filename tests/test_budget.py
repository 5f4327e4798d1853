from __future__ import annotations

import pytest

from webrobot.urls.budget import PageBudget


def test_budget_per_site() -> None:
    budget = PageBudget(3)
    assert [budget.spend("http://a:80") for _ in range(5)] == [True, True, True, False, False]
    assert budget.spend("http://b:80"), "each site has its own budget"
    assert budget.left("http://a:80") == 0 and budget.left("http://b:80") == 2
    assert budget.spent == {"http://a:80": 3, "http://b:80": 1}, "refusals take nothing"


def test_zero_is_no_limit() -> None:
    budget = PageBudget(0)
    assert all(budget.spend("http://a:80") for _ in range(1000))
    assert budget.left("http://a:80") is None


def test_negative_limit_is_an_error() -> None:
    with pytest.raises(ValueError, match=">= 0"):
        PageBudget(-1)


def test_a_page_given_back_can_be_spent_again() -> None:
    from webrobot.urls.budget import PageBudget

    budget = PageBudget(2)
    assert budget.spend("a") and budget.spend("a") and not budget.spend("a")
    budget.refund("a")  # a request let go when the crawl stopped
    assert budget.left("a") == 1 and budget.spend("a") and not budget.spend("a")
    budget.refund("b")  # nothing spent: nothing to give back
    assert budget.spent.get("b", 0) == 0
