"""What the page budgets did (webrobot.report.budget): reached or not, by how much and why."""

from __future__ import annotations

from collections import Counter

from webrobot.report.budget import LimitReached, pagecount_budget, site_budget


def test_no_budget_no_section() -> None:
    assert pagecount_budget(0, Counter(page=3), "finished", None) is None
    assert site_budget(0, {"a": (Counter(page=3), 0)}) is None


def test_a_pagecount_passed_says_by_how_much_of_which_kinds_and_why() -> None:
    handed = Counter(page=50, image=20, robots=13)
    budget = pagecount_budget(
        80, handed, "closespider_pagecount", LimitReached(at=4.2, in_flight=2),
        Counter(page=1, image=2),
    )  # fmt: skip
    assert budget is not None
    assert budget["reached"] and budget["over"] == 3 and budget["responses"] == 83
    assert budget["over_by_kind"] == {"page": 1, "image": 2}
    assert budget["in_flight_when_reached"] == 2 and budget["reached_after"] == 4.2
    assert budget["message"] == (
        "page budget 80 (CLOSESPIDER_PAGECOUNT) reached; 83 responses: 50 pages, 20 images,"
        " 13 robots.txt; 3 over it (1 page, 2 images): 2 requests were in flight when it was"
        " reached finished and the pages already in hand then fetched their images;"
        " the budget counts responses of every kind, not only pages"
    )


def test_why_a_pagecount_was_passed() -> None:
    handed = Counter(page=11)
    one = pagecount_budget(
        10, handed, "closespider_pagecount", LimitReached(1.0, 1), handed - Counter(page=10)
    )
    assert (
        one is not None
        and "1 over it (1 page): 1 request was in flight when it was reached finished"
        in one["message"]
    )
    assert "in hand" not in one["message"]
    images = Counter(page=10, image=1)
    late = pagecount_budget(
        10, images, "closespider_pagecount", LimitReached(1.0, 0), Counter(image=1)
    )
    assert late is not None
    assert late["message"].endswith(
        "1 over it (1 image): the pages already in hand then fetched their images;"
        " the budget counts responses of every kind, not only pages"
    )


def test_a_pagecount_met_exactly_by_pages_alone_says_only_that() -> None:
    budget = pagecount_budget(10, Counter(page=10), "closespider_pagecount", None)
    assert budget is not None and budget["over"] == 0
    assert (
        budget["message"]
        == "page budget 10 (CLOSESPIDER_PAGECOUNT) reached; 10 responses: 10 pages"
    )
    unmet = pagecount_budget(100, Counter(page=4, robots=1), "finished", None)
    assert unmet is not None and not unmet["reached"]
    assert unmet["message"].startswith(
        "page budget 100 (CLOSESPIDER_PAGECOUNT) not reached; 5 responses"
    )


def test_site_budget_names_the_hosts_that_reached_it() -> None:
    hosts = {
        "a.test": (Counter(page=25, document=5, image=40, robots=1), 12),
        "b.test": (Counter(page=3, robots=1), 0),
    }
    budget = site_budget(30, hosts)
    assert budget is not None
    assert list(budget["hosts_reached"]) == ["a.test"]
    assert budget["hosts_reached"]["a.test"]["refused"] == 12
    assert budget["message"].startswith(
        "site page budget 30 (WEBROBOT_MAX_PAGES_PER_SITE) reached by 1 host "
        "(a.test: 25 pages, 40 images, 5 documents, 1 robots.txt; 12 refused)"
    )
    none = site_budget(30, {"b.test": (Counter(page=3), 0)})
    assert none is not None and none["message"].endswith("reached by no host")
