"""The crawl report's ``changes`` section: what the monitor told in this crawl.

Pure: no Scrapy, no I/O. :class:`ChangesTally` is fed every event the monitor
records and answers the section of ``report.json`` that ``report.html`` shows:
the events counted by kind, and for the changed pages what changed, old beside
new (the typed fields; the sentences of the main text removed and added). Capped
so a big crawl's report stays small: at most :data:`PAGES` pages, each with at
most :data:`SENTENCES` sentences a side of at most :data:`SENTENCE_CHARS`
characters; what is left out is counted. Other parts of the monitor add entries to
the crawl's summary with :meth:`ChangesTally.note` (``rules changed: 710 pages
re-baselined``); the whole line (:mod:`webrobot.monitor.summary`) is ``line``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from webrobot.monitor.events import KINDS
from webrobot.monitor.template import Template

#: changed pages shown whole in the report (the rest are counted)
PAGES = 100
#: sentences shown per side (removed, added) of one page
SENTENCES = 20
#: characters shown of one sentence or field value
SENTENCE_CHARS = 300
#: sites whose learnt template is shown, and sentences shown of one
TEMPLATE_SITES = 20
TEMPLATE_SENTENCES = 20


def _cut(text: Any) -> str | None:
    if text is None:
        return None
    text = str(text)
    return text if len(text) <= SENTENCE_CHARS else text[: SENTENCE_CHARS - 1] + "…"


def page_diff(event: Mapping[str, Any]) -> dict[str, Any]:
    """A ``changed`` event as the report shows it: ``fields`` (``{"field", "old",
    "new"}``), ``removed`` and ``added`` sentences, and how many were left out."""
    fields, removed, added = [], [], []
    for change in event.get("changes") or ():
        if change.get("field") == "main_text":
            removed += list(change.get("removed") or ())
            added += list(change.get("added") or ())
        else:
            fields.append({"field": str(change.get("field")), "old": _cut(change.get("old")),
                           "new": _cut(change.get("new"))})  # fmt: skip
    return {
        "url": str(event.get("url", "")),
        "time": str(event.get("time", "")),
        "fields": fields,
        "removed": [_cut(s) for s in removed[:SENTENCES]],
        "added": [_cut(s) for s in added[:SENTENCES]],
        "sentences_left_out": max(0, len(removed) - SENTENCES) + max(0, len(added) - SENTENCES),
    }


class ChangesTally:
    """The events of one crawl, as the report's ``changes`` section."""

    def __init__(self, folder: str = "") -> None:
        self.folder = folder
        self.counts: Counter[str] = Counter()
        self.pages: list[dict[str, Any]] = []
        #: pages whose snapshot was taken again under changed rules or extractors
        self.rebaselined = 0
        #: lines a person reads first ("rules changed: 710 pages re-baselined")
        self.summary: list[str] = []
        self.templates: dict[str, dict[str, Any]] = {}
        #: the whole summary line, once the crawl is over (:mod:`webrobot.monitor.summary`)
        self.line = ""

    def note(self, line: str) -> None:
        """One line of the crawl's summary."""
        self.summary.append(line)

    def learnt(self, templates: Mapping[str, Template]) -> None:
        """The sites' templates as the monitor keeps them after this crawl."""
        self.templates = {
            site: {
                "pages": template.pages,
                "sentences": [
                    _cut(s) for s in list(template.sentences.values())[:TEMPLATE_SENTENCES]
                ],
                "sentences_left_out": max(0, len(template.sentences) - TEMPLATE_SENTENCES),
            }
            for site, template in list(templates.items())[:TEMPLATE_SITES]
        }

    def add(self, event: Mapping[str, Any]) -> None:
        kind = str(event.get("event", ""))
        self.counts[kind] += 1
        if kind == "changed" and len(self.pages) < PAGES:
            self.pages.append(page_diff(event))

    def section(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "counts": {kind: self.counts.get(kind, 0) for kind in KINDS},
            "pages": list(self.pages),
            "pages_left_out": max(0, self.counts.get("changed", 0) - len(self.pages)),
            "rebaselined": self.rebaselined,
            "summary": list(self.summary),
            "templates": dict(self.templates),
            "line": self.line,
        }
