"""A per-site page budget (``max_pages`` / ``WEBROBOT_MAX_PAGES_PER_SITE``). Pure logic.

A page is spent when its request is let through to the network, not when its
response arrives: with several requests to a site in flight, counting
responses would let more than the budget go out.
"""

from __future__ import annotations


class PageBudget:
    """``limit`` pages per site key; ``0`` means no limit."""

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"a page budget is a whole number >= 0, got {limit}")
        self.limit = limit
        self.spent: dict[str, int] = {}

    def spend(self, site: str) -> bool:
        """Take one page of ``site``'s budget: ``False`` (nothing taken) once it is spent."""
        used = self.spent.get(site, 0)
        if self.limit and used >= self.limit:
            return False
        self.spent[site] = used + 1
        return True

    def refund(self, site: str) -> None:
        """Give back a page of ``site`` taken for a request that was not fetched after all
        (let go when the crawl stopped: the resumed job fetches it and spends it then)."""
        used = self.spent.get(site, 0)
        if used > 0:
            self.spent[site] = used - 1

    def left(self, site: str) -> int | None:
        """Pages ``site`` may still have downloaded (``None``: no limit)."""
        return max(0, self.limit - self.spent.get(site, 0)) if self.limit else None
