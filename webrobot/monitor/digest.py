"""The digest of a crawl's events, as a notice for e-mail and chat (Apprise).

Pure: no Scrapy, no I/O. One notice per crawl that told anything: a title that
counts the events by kind, then one line per event (at most :data:`LINES`), the
rest counted. The events themselves stay in ``events.jsonl``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from webrobot.monitor.events import KINDS

#: events listed one per line in a digest; the rest are counted
LINES = 50
#: characters of one value shown in a line
VALUE_CHARS = 80


def _short(value: Any) -> str:
    text = " ".join(str(value).split()) if value is not None else "(none)"
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def line(event: Mapping[str, Any]) -> str:
    """One event as one line of text."""
    kind, url = event.get("event"), event.get("url", "")
    if kind == "changed":
        parts = []
        for change in event.get("changes") or ():
            if change.get("field") == "main_text":
                parts.append(f"text +{len(change.get('added') or ())} "
                             f"-{len(change.get('removed') or ())} sentences")  # fmt: skip
            else:
                parts.append(f"{change.get('field')}: {_short(change.get('old'))} → "
                             f"{_short(change.get('new'))}")  # fmt: skip
        return f"changed {url} ({'; '.join(parts)})"
    if kind == "new":
        return f"new {url}" + (f" ({_short(event['title'])})" if event.get("title") else "")
    if kind == "removed":
        return f"removed {url} ({event.get('status')})"
    if kind == "moved":
        how = "for good" if event.get("permanent") else "for now"
        return f"moved {url} → {event.get('to')} ({event.get('status')}, {how})"
    if kind == "match":
        return f"match {url}: rule {event.get('rule')} ({event.get('kind')}, score {event.get('score')})"
    if kind == "template_changed":
        return (f"template changed {event.get('site') or url} (+{len(event.get('added') or ())} "
                f"-{len(event.get('removed') or ())} sentences on most pages)")  # fmt: skip
    return f"{kind} {url}"


def digest(
    events: Sequence[Mapping[str, Any]], crawl: str, notes: Sequence[str] = ()
) -> tuple[str, str] | None:
    """``(title, body)`` of the notice of ``events``, or None when there are none (and no
    ``notes``: the summary's entries, such as ``rules changed: 710 pages re-baselined``,
    told first)."""
    if not events and not notes:
        return None
    counts = Counter(str(e.get("event")) for e in events)
    told = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k])
    title = f"webrobot {crawl}: {told or notes[0]}"
    lines = list(notes) + [line(e) for e in events[:LINES]]
    if len(events) > LINES:
        lines.append(f"… and {len(events) - LINES} more events in events.jsonl")
    return title, "\n".join(lines)
