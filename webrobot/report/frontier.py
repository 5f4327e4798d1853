"""The crawl report's frontier sections: URL templates, priorities and
freshness. Pure: takes the report document's parts, returns HTML."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any


def _table(title: str, head: Sequence[str], rows: Sequence[Sequence[Any]], note: str = "") -> str:
    if not rows:
        return ""
    th = "".join(f"<th class=\"text\">{escape(h)}</th>" if i == 0 else f"<th>{escape(h)}</th>" for i, h in enumerate(head))
    body = "".join(
        "<tr>" + "".join(
            f"<td class=\"text\">{escape(str(c))}</td>" if i == 0 else f"<td>{escape(str(c))}</td>"
            for i, c in enumerate(row)
        ) + "</tr>"
        for row in rows
    )  # fmt: skip
    note_html = f'<p class="note">{escape(note)}</p>' if note else ""
    return f'<section class="card"><h2>{escape(title)}</h2><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>{note_html}</section>'


def templates_html(templates: Sequence[Mapping[str, Any]]) -> str:
    rows = [
        (
            t["template"], t["pages"], t["longest_chain"],
            ", ".join(f"{reason.replace('_', ' ')} {n}" for reason, n in sorted(t["refused"].items())) or "–",
        )
        for t in templates
    ]  # fmt: skip
    return _table(
        "URL templates", ("Template", "Pages", "Longest chain", "Refused"), rows,
        "URLs that differ only in numbers, dates, ids or query values share a template; "
        "refused templates first, then the busiest.",
    )  # fmt: skip


def frontier_html(report: Mapping[str, Any]) -> str:
    """Every frontier section the report has data for."""
    return templates_html(report.get("templates") or ())
