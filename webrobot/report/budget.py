"""What the crawl's page budgets did, said in the report and the last lines of the log:
whether each was reached, what it counted, and why a crawl may have fetched more
than it. Pure: no Scrapy, no I/O.

Two budgets count differently:

* Scrapy's ``CLOSESPIDER_PAGECOUNT`` closes the crawl once that many responses were
  handed on, of every kind: pages, images, documents and robots.txt alike. The
  requests already in the downloader when it is reached still finish, so a crawl
  ends with more responses than the budget; :func:`pagecount_budget` says how many
  more, of which kinds, and how many were in flight.
* webrobot's ``WEBROBOT_MAX_PAGES_PER_SITE`` (or a site config's ``max_pages``)
  spends one page per request let through to a host (pages, documents, sitemaps and
  an archive's requisites, each retry and redirect hop; robots.txt and the images
  the mining describes spend nothing), and
  refuses the host's requests after that (reason ``budget``), so a host never has
  more fetches than it; :func:`site_budget` names the hosts that reached it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from webrobot.report.kinds import PAGE, kinds_line
from webrobot.urls.traps import BUDGET

CLOSESPIDER_REASON = "closespider_pagecount"
#: Hosts named in the site budget's message (all are in report.json).
HOSTS_NAMED = 3


@dataclass(frozen=True)
class LimitReached:
    """The moment the responses handed on reached ``CLOSESPIDER_PAGECOUNT``."""

    at: float  # crawl seconds
    in_flight: int  # requests in the downloader then (robots.txt included)


def pagecount_budget(
    limit: int,
    handed: Mapping[str, int],
    reason: str,
    reached: LimitReached | None,
    after: Mapping[str, int] | None = None,
) -> dict[str, Any] | None:
    """``CLOSESPIDER_PAGECOUNT`` as the crawl met it; None when it is 0 (off).

    ``handed``: responses handed on by kind; ``after``: those handed on after the
    limit was reached, by kind; ``reason``: the crawl's finish reason."""
    if limit <= 0:
        return None
    total = sum(handed.values())
    after = Counter({k: n for k, n in (after or {}).items() if n})
    hit = reason == CLOSESPIDER_REASON or total >= limit
    kinds = kinds_line(handed) or "none"
    text = f"page budget {limit} (CLOSESPIDER_PAGECOUNT) {'reached' if hit else 'not reached'}"
    text += f"; {total} response{'s' if total != 1 else ''}: {kinds}"
    notes = []
    over = total - limit
    if over > 0:
        why = []
        if reached is None or reached.in_flight:
            flying = "the requests" if reached is None else _requests(reached.in_flight)
            why.append(f"{flying} in flight when it was reached finished")
        if reached is not None and over > reached.in_flight:
            why.append("the pages already in hand then fetched their images")
        notes.append(f"{over} over it ({kinds_line(after) or over}): {' and '.join(why)}")
    if set(handed) - {PAGE}:
        notes.append("the budget counts responses of every kind, not only pages")
    if notes:
        text += "; " + "; ".join(notes)
    return {
        "setting": "CLOSESPIDER_PAGECOUNT",
        "limit": limit,
        "reached": hit,
        "responses": total,
        "by_kind": dict(handed),
        "over": max(0, over),
        "over_by_kind": dict(after),
        "in_flight_when_reached": None if reached is None else reached.in_flight,
        "reached_after": None if reached is None else round(reached.at, 3),
        "message": text,
    }


def _requests(n: int) -> str:
    return f"{n} request{'s' if n != 1 else ''} {'were' if n != 1 else 'was'}"


def site_budget(
    limit: int, hosts: Mapping[str, tuple[Mapping[str, int], int]]
) -> dict[str, Any] | None:
    """``WEBROBOT_MAX_PAGES_PER_SITE`` as the crawl met it; None when it is 0 (off).

    ``hosts``: per host, (requests sent by kind, requests refused for the budget)."""
    if limit <= 0:
        return None
    reached = {host: (sent, refused) for host, (sent, refused) in sorted(hosts.items()) if refused}
    rows: dict[str, dict[str, Any]] = {
        host: {"requests": dict(sent), "refused": refused}
        for host, (sent, refused) in reached.items()
    }
    text = f"site page budget {limit} (WEBROBOT_MAX_PAGES_PER_SITE) "
    if not rows:
        text += "reached by no host"
    else:
        named = [
            f"{host}: {kinds_line(sent)}; {refused} refused"
            for host, (sent, refused) in list(reached.items())[:HOSTS_NAMED]
        ]
        more = f", {len(rows) - HOSTS_NAMED} more" if len(rows) > HOSTS_NAMED else ""
        text += (
            f"reached by {len(rows)} host{'s' if len(rows) != 1 else ''} ({'; '.join(named)}{more})"
        )
        text += (
            "; it counts every request let through to a host (retries and redirect hops too)"
            " but robots.txt and the images the mining describes"
        )
    return {
        "setting": "WEBROBOT_MAX_PAGES_PER_SITE",
        "limit": limit,
        "hosts_reached": rows,
        "message": text,
    }


def budget_refusals(refused: Mapping[str, int]) -> int:
    """Requests a site's tally says were refused for its page budget."""
    return int(refused.get(BUDGET, 0))
