"""The monitor's part of ``report.html``: what changed since the last crawl, events by
kind, each changed page's diff (old beside new) and the sites' learnt templates, drawn
from the ``changes`` section of ``report.json`` (:mod:`webrobot.monitor.reportpart`).
Everything that comes from the pages is escaped: a hostile page's text stays text.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

#: event kinds in the changes section, in the order shown
_EVENT_KINDS = (("new", "new pages"), ("changed", "changed"), ("removed", "removed"), ("moved", "moved"),
                ("match", "watch matches"), ("template_changed", "site templates changed"))  # fmt: skip


def _side(value: Any) -> str:
    return '<i class="note">(none)</i>' if value is None else escape(str(value))


def _page_diff(page: Mapping[str, Any]) -> str:
    """One changed page: its typed fields, then its sentences removed and added, old | new."""
    rows = [
        f'<tr><th class="field">{escape(str(f["field"]))}</th>'
        f'<td class="old">{_side(f.get("old"))}</td><td class="new">{_side(f.get("new"))}</td></tr>'
        for f in page.get("fields") or ()
    ]
    removed, added = list(page.get("removed") or ()), list(page.get("added") or ())
    for i in range(max(len(removed), len(added))):
        old = escape(str(removed[i])) if i < len(removed) else ""
        new = escape(str(added[i])) if i < len(added) else ""
        label = "main text" if i == 0 else ""
        rows.append(f'<tr><th class="field">{label}</th><td class="old">{old}</td>'
                    f'<td class="new">{new}</td></tr>')  # fmt: skip
    more = int(page.get("sentences_left_out") or 0)
    note = f'<p class="note">{more} more sentences in the events.</p>' if more else ""
    return (
        f'<h3 class="page">{escape(str(page.get("url", "")))}</h3>'
        '<table class="diff"><thead><tr><th class="field">What</th><th>Old</th><th>New</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>{note}"
    )


def changes_section(changes: Mapping[str, Any] | None) -> str:
    """What the monitor told in this crawl: events by kind, then each changed page's
    diff, old beside new. Everything from the pages is escaped."""
    if not changes:
        return ""
    counts = changes.get("counts") or {}
    line = " · ".join(f"<b>{int(counts.get(k) or 0)}</b> {label}" for k, label in _EVENT_KINDS)
    pages = "".join(_page_diff(p) for p in changes.get("pages") or ())
    left = int(changes.get("pages_left_out") or 0)
    more = (f'<p class="note">{left} more changed pages are in '
            f'{escape(str(changes.get("folder") or "the monitor folder"))}/events.jsonl.</p>'
            if left else "")  # fmt: skip
    summary = "".join(f"<li>{escape(str(entry))}</li>" for entry in changes.get("summary") or ())
    summary = f'<ul class="meta" id="change-summary">{summary}</ul>' if summary else ""
    return (
        f'<section class="card" id="changes"><h2>Changes since the last crawl</h2>'
        f'<p class="meta" id="change-counts">{line}</p>{summary}{pages}{more}'
        f"{_templates(changes.get('templates') or {})}</section>\n"
    )


def _templates(templates: Mapping[str, Any]) -> str:
    """Each site's learnt template: the sentences most of its pages repeat, left out of
    change judgement."""
    if not templates:
        return ""
    out = []
    for site, template in templates.items():
        lines = "".join(f"<li>{escape(str(s))}</li>" for s in template.get("sentences") or ())
        more = int(template.get("sentences_left_out") or 0)
        note = f'<p class="note">{more} more sentences.</p>' if more else ""
        out.append(f'<h3 class="page">{escape(str(site))} <span class="note">(learnt from '
                   f'{int(template.get("pages") or 0)} pages)</span></h3><ul>{lines}</ul>{note}')  # fmt: skip
    return (
        '<div id="templates"><h3>Site templates (left out of change judgement)</h3>'
        f"{''.join(out)}</div>"
    )
