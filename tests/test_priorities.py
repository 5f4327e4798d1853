"""Priorities from site-config ranks and sitemap <priority> (pure logic)."""

from __future__ import annotations

from webrobot.frontier.priorities import RANK_STEP, PriorityRule, PriorityRules


def test_first_matching_rule_ranks() -> None:
    rules = PriorityRules(
        (PriorityRule("^/product/", 10), PriorityRule("^/archive/", -5), PriorityRule("^/", 1))
    )
    assert rules.rank("http://a.test/product/3") == 10
    assert rules.rank("http://a.test/archive/2020") == -5
    assert rules.rank("http://a.test/about") == 1
    assert PriorityRules().rank("http://a.test/x") == 0


def test_rule_sees_the_query() -> None:
    rules = PriorityRules((PriorityRule(r"\?page=", -1),))
    assert rules.rank("http://a.test/list?page=2") == -1
    assert rules.rank("http://a.test/list") == 0


def test_rank_outweighs_depth_and_sitemap() -> None:
    rules = PriorityRules((PriorityRule("^/p/", 1),), sitemap_weight=5)
    assert rules.priority("http://a.test/p/1") == (1, RANK_STEP)
    low = (
        rules.priority("http://a.test/p/1", sitemap_priority=0.0)[1] - 900
    )  # sitemap 0.0, 900 levels deep
    high = rules.priority("http://a.test/other", sitemap_priority=1.0)[1]  # sitemap 1.0, depth 0
    assert low > high


def test_sitemap_priority_moves_up_to_weight_levels() -> None:
    rules = PriorityRules(sitemap_weight=5)
    assert [rules.sitemap_adjustment(p) for p in (0.0, 0.3, 0.5, 0.8, 1.0, None)] == [
        -5,
        -2,
        0,
        3,
        5,
        0,
    ]
    assert PriorityRules(sitemap_weight=0).sitemap_adjustment(1.0) == 0
