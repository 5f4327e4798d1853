"""The line a person reads at the end of a monitored crawl.

Pure: no Scrapy, no I/O. :func:`summary_line` puts the crawl's events counted by
kind, then the entries other parts of the monitor add (``rules changed: 710 pages
re-baselined``, ``2 webhook events parked``), then where to read more, on one line:

    Monitor: 3 pages changed, 1 new, 1 removed, 2 watch matches; rules changed:
    710 pages re-baselined; see watch/shop/events.jsonl and report/report.html#changes
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: How each kind of event is counted in the line, in the order told.
WORDS = (
    ("changed", "page changed", "pages changed"),
    ("new", "new", "new"),
    ("removed", "removed", "removed"),
    ("moved", "moved", "moved"),
    ("match", "watch match", "watch matches"),
    ("template_changed", "site template changed", "site templates changed"),
)


def counted(counts: Mapping[str, int]) -> str:
    """``3 pages changed, 1 new`` (kinds with no event left out), or ``no changes``."""
    parts = []
    for kind, one, many in WORDS:
        number = int(counts.get(kind) or 0)
        if number:
            parts.append(f"{number} {one if number == 1 else many}")
    return ", ".join(parts) if parts else "no changes"


def summary_line(
    counts: Mapping[str, int], notes: Sequence[str] = (), where: Sequence[str] = (),
    unchanged: int = 0,
) -> str:  # fmt: skip
    """The crawl's summary: ``counts`` of events by kind, ``notes`` (entries other parts
    add), ``where`` (the files to read: the events, the report), ``unchanged`` pages."""
    line = f"Monitor: {counted(counts)}"
    if unchanged:
        line += f" ({unchanged} {'page' if unchanged == 1 else 'pages'} unchanged)"
    for note in notes:
        line += f"; {note}"
    if where:
        line += "; see " + " and ".join(where)
    return line
