"""URL templates and their limits (pure logic)."""

from __future__ import annotations

import pytest

from webrobot.urls.templates import (
    TEMPLATE_BUDGET,
    TEMPLATE_CHAIN,
    TemplateOverride,
    TemplateRules,
    TemplateTally,
    next_chain,
    url_template,
)


@pytest.mark.parametrize(
    ("url", "template"),
    [
        ("http://a.test/product/1234", "http://a.test/product/{n}"),
        ("http://a.test/cal/2026/11/24", "http://a.test/cal/{n}/{n}/{n}"),
        ("http://a.test/day/2026-11-24.html", "http://a.test/day/{date}.html"),
        ("http://a.test/cal?day=3&view=x", "http://a.test/cal?day={v}&view={v}"),
        ("http://a.test/cal?view=x&day=3&day=4", "http://a.test/cal?day={v}&view={v}"),
        ("http://a.test/p/0123456789abcdef0123", "http://a.test/p/{id}"),
        ("http://a.test/u/123e4567-e89b-12d3-a456-426614174000/x", "http://a.test/u/{id}/x"),
        ("http://a.test/about", "http://a.test/about"),
        ("http://A.test", "http://a.test/"),
        ("http://a.test/x#frag", "http://a.test/x"),
        ("http://a.test:8080/item-7-b", "http://a.test:8080/item-{n}-b"),
    ],
)
def test_url_template(url: str, template: str) -> None:
    assert url_template(url) == template


def test_words_stay_apart() -> None:
    assert url_template("http://a.test/blue-shirt") != url_template("http://a.test/red-shirt")
    assert url_template("http://a.test/deadbeef") == "http://a.test/deadbeef", (
        "a short hex word is a word"
    )


def test_chain_grows_only_along_one_template() -> None:
    assert next_chain("t", 4, "t") == 5
    assert next_chain("list", 4, "product") == 0
    assert next_chain(None, 0, "t") == 0


def test_chain_limit_cuts_after_max_chain() -> None:
    tally = TemplateTally()
    rules = TemplateRules(max_chain=3, max_pages=0)
    url = "http://a.test/cal/1"
    assert [tally.check(rules, url, chain) is None for chain in range(6)] == [True] * 4 + [
        False
    ] * 2
    refusal = tally.check(rules, url, 4)
    assert refusal is not None and refusal[0] == TEMPLATE_CHAIN
    assert tally.pages["http://a.test/cal/{n}"] == 4
    assert tally.longest_chain["http://a.test/cal/{n}"] == 3


def test_page_budget_per_template() -> None:
    tally = TemplateTally()
    rules = TemplateRules(max_chain=0, max_pages=5)
    allowed = [tally.check(rules, f"http://a.test/p/{i}", 0) is None for i in range(8)]
    assert allowed == [True] * 5 + [False] * 3
    assert tally.check(rules, "http://a.test/other/1", 0) is None, (
        "another template has its own budget"
    )
    refusal = tally.check(rules, "http://a.test/p/99", 0)
    assert refusal is not None and refusal[0] == TEMPLATE_BUDGET
    assert tally.refused["http://a.test/p/{n}"][TEMPLATE_BUDGET] == 4


def test_overrides_raise_and_lower_per_pattern() -> None:
    rules = TemplateRules(
        max_chain=10, max_pages=100,
        overrides=(TemplateOverride("^/cal/", max_chain=2), TemplateOverride(r"page=", max_pages=0, max_chain=500)),
    )  # fmt: skip
    assert rules.limits("http://a.test/cal/5") == (2, 100)
    assert rules.limits("http://a.test/list?page=5") == (500, 0)
    assert rules.limits("http://a.test/other") == (10, 100)


def test_report_lists_refused_templates_first() -> None:
    tally = TemplateTally()
    rules = TemplateRules(max_chain=1, max_pages=0)
    for i in range(5):
        tally.check(rules, f"http://a.test/p/{i}", 0)
    tally.check(rules, "http://a.test/cal/1", 0)
    tally.check(rules, "http://a.test/cal/2", 1)
    tally.check(rules, "http://a.test/cal/3", 2)
    report = tally.report()
    assert report[0] == {
        "template": "http://a.test/cal/{n}", "pages": 2, "longest_chain": 1, "refused": {TEMPLATE_CHAIN: 1},
    }  # fmt: skip
    assert report[1]["template"] == "http://a.test/p/{n}" and report[1]["pages"] == 5
    assert len(tally.report(limit=1)) == 1


def test_single_urls_are_counted_for_the_report_to_leave_out() -> None:
    tally = TemplateTally()
    rules = TemplateRules(max_chain=0, max_pages=2)
    for url in (
        "http://a/x",
        "http://a/y",
        "http://a/p?id=1",
        "http://a/p?id=2",
        "http://a/p?id=3",
    ):
        tally.check(rules, url, 0)
    # /x and /y: one page each; /p?id={v}: two pages, then one refused
    assert tally.single_urls() == 2
    assert len(tally.report()) == 3, "report.json keeps them all"
