"""The monitor's events as an Atom feed (RFC 4287), newest first, for feed readers.

Pure: no Scrapy, no I/O. The glue writes it as ``<folder>/events.atom`` when a crawl
closes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

#: Entries in the feed: the newest events.
ENTRIES = 200


def entry_title(event: Mapping[str, Any]) -> str:
    """One line: what happened where (``changed: URL (price, main_text)``)."""
    kind, url = str(event.get("event", "")), str(event.get("url", ""))
    if kind == "changed":
        return f"changed: {url} ({', '.join(str(f) for f in event.get('fields') or [])})"
    if kind == "removed":
        return f"removed: {url} ({event.get('status')})"
    if kind == "moved":
        return f"moved: {url} → {event.get('to')} ({event.get('status')})"
    if kind == "match":
        return f"match: {url} (rule {event.get('rule')}, {event.get('kind')})"
    if kind == "template_changed":
        return f"template changed: {event.get('site') or url}"
    return f"{kind}: {url}"


def atom(events: Iterable[Mapping[str, Any]], *, title: str, feed_id: str, updated: str) -> str:
    """The feed's XML text; each entry's content is the event's JSON."""
    out = [
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<title>{escape(title)}</title><id>{escape(feed_id)}</id><updated>{escape(updated)}</updated>",
        "<author><name>webrobot</name></author>",
    ]
    for event in events:
        out.append(
            "<entry>"
            f"<title>{escape(entry_title(event))}</title>"
            f"<id>urn:webrobot:event:{escape(str(event.get('id', '')))}</id>"
            f"<updated>{escape(str(event.get('time', updated)))}</updated>"
            f"<link href={quoteattr(str(event.get('url', '')))}/>"
            f'<content type="text">{escape(json.dumps(event, ensure_ascii=False))}</content>'
            "</entry>"
        )
    out.append("</feed>\n")
    return "\n".join(out)
