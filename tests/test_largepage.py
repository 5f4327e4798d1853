"""Whether a page is large (webrobot.extract.largepage)."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract import largepage
from webrobot.extract.largepage import LARGE_PAGE_ELEMENTS, is_large


def tree(nodes: int) -> lxml.html.HtmlElement:
    """A tree of exactly ``nodes`` nodes: a div holding paragraphs and comments."""
    children = "".join("<p>x</p>" if i % 2 else "<!-- c -->" for i in range(nodes - 1))
    root = lxml.html.fragment_fromstring(f"<div>{children}</div>")
    assert sum(1 for _ in root.iter()) == nodes
    return root


def test_more_nodes_than_the_bound_is_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 10)
    assert not is_large(tree(1))
    assert not is_large(tree(10))
    assert is_large(tree(11))
    assert is_large(tree(500))


def test_the_bound_is_far_above_a_real_page() -> None:
    # The largest real page of the evaluation sets has 4,901 nodes.
    assert not is_large(tree(5_000))
    assert is_large(tree(LARGE_PAGE_ELEMENTS + 1))
