"""The progress line a crawl logs every minute (rates, frontier, sites by state, refusals)
and the line naming the sites held while nothing else is left.

Pure: no Scrapy, no I/O; :mod:`webrobot.report.progress` logs them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from webrobot.report.kinds import PAGE, kind_count, kinds_line
from webrobot.report.model import SITE_STATES

_STATE_LABELS = {
    "active": "active",
    "waiting_robots": "waiting robots.txt",
    "deferred": "deferred",
    "exhausted": "exhausted",
}


@dataclass(frozen=True)
class ProgressPoint:
    at: float  # crawl seconds
    pages: int  # page responses
    items: int
    refused: Counter[str]
    #: responses of the other kinds (webrobot.report.kinds): images, documents, robots.txt...
    others: Counter[str] = field(default_factory=Counter)


def progress_line(
    prev: ProgressPoint, cur: ProgressPoint, frontier: int, downloader: int,
    states: Mapping[str, int], waits: Mapping[str, int] | None = None,
    label: str = "Progress",
) -> str:  # fmt: skip
    """``Progress: 240 pages (60/min), 200 items (50/min), also 80 images, 3 robots.txt |
    frontier 31 + 4 in downloader | sites: 2 active, 1 waiting robots.txt, 1 deferred
    (status 503: 1), 3 exhausted | refused: offsite 4``: responses, each kind apart;
    ``waits`` gives the deferred sites' reasons; ``label`` starts the line."""
    minutes = max(cur.at - prev.at, 1e-9) / 60.0
    page_rate = (cur.pages - prev.pages) / minutes
    item_rate = (cur.items - prev.items) / minutes
    sites = ", ".join(_site_state(states, s, waits) for s in SITE_STATES)
    since = cur.refused - prev.refused
    refused = ", ".join(
        f"{r} {n}" for r, n in sorted(since.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    others = kinds_line(cur.others, skip=(PAGE,))
    return (
        f"{label}: {kind_count(PAGE, cur.pages)} ({page_rate:.0f}/min), {cur.items} items ({item_rate:.0f}/min)"
        f"{', also ' + others if others else ''}"
        f" | frontier {frontier} + {downloader} in downloader | sites: {sites}"
        f" | refused: {refused or 'none'}"
    )


#: Held sites named on the progress line.
HELD_LISTED = 3


def held_line(
    held: list[tuple[str, str, float | None]], closes_in: float | None, wait: Callable[[float], str]
) -> str:
    """``held: http://a:80 (DownloadConnectionRefusedError) gives up in 58 min | nothing
    else left: the crawl closes in 2 min``; empty when nothing is held. ``wait`` says a
    number of seconds as people read it."""
    if not held:
        return ""
    named = []
    for site, reason, left in held[:HELD_LISTED]:
        if left is None:
            when = "kept until it answers"
        else:  # whole seconds: "gives up in 90 s", not "given up in 90.4 s"
            when = f"gives up in {wait(float(round(left)))}" if left >= 0.5 else "gives up now"
        named.append(f"{site} ({reason or 'no answer yet'}) {when}")
    more = f", {len(held) - HELD_LISTED} more" if len(held) > HELD_LISTED else ""
    line = f"held: {', '.join(named)}{more}"
    if closes_in is not None:
        line += f" | nothing else left: the crawl closes in {wait(closes_in)}"
    return line


def _site_state(states: Mapping[str, int], state: str, waits: Mapping[str, int] | None) -> str:
    text = f"{states.get(state, 0)} {_STATE_LABELS[state]}"
    if state == "deferred" and waits:
        why = ", ".join(
            f"{r}: {n}" for r, n in sorted(waits.items(), key=lambda kv: (-kv[1], kv[0]))
        )
        text += f" ({why})"
    return text
