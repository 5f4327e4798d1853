"""The crawl report's frontier sections: URL templates, priorities and
freshness. Pure: takes the report document's parts, returns HTML."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any


def _table(title: str, head: Sequence[str], rows: Sequence[Sequence[Any]], note: str = "") -> str:
    if not rows:
        return ""
    th = "".join(
        f'<th class="text">{escape(h)}</th>' if i == 0 else f"<th>{escape(h)}</th>"
        for i, h in enumerate(head)
    )
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


def priorities_report(stats: Mapping[str, Any], rules: Sequence[Any]) -> list[dict[str, Any]]:
    """Requests made per rank (stats ``webrobot/priority/rank/<rank>``), highest rank
    first, with the site config's patterns of that rank."""
    prefix = "webrobot/priority/rank/"
    ranks: dict[int, int] = {}
    for key, value in stats.items():
        if key.startswith(prefix):
            try:
                ranks[int(key[len(prefix) :])] = int(value)
            except ValueError:
                continue
    return [
        {
            "rank": rank,
            "requests": ranks[rank],
            "patterns": [rule.pattern for rule in rules if rule.rank == rank]
            or (["(no rule)"] if rank == 0 else []),
        }
        for rank in sorted(ranks, reverse=True)
    ]


def priorities_html(priorities: Sequence[Mapping[str, Any]]) -> str:
    if len(priorities) < 2 and all(p["rank"] == 0 for p in priorities):
        return ""  # no ranking rule took effect: nothing to show
    rows = [(p["rank"], p["requests"], ", ".join(p["patterns"]) or "–") for p in priorities]
    return _table(
        "Priorities", ("Rank", "Requests", "Patterns"), rows,
        "Higher ranks are fetched first, breadth-first within a rank; politeness per site applies to all.",
    )  # fmt: skip


FRESHNESS_OUTCOMES = ("new", "changed", "unchanged", "not_due")


def freshness_report(stats: Mapping[str, Any]) -> dict[str, Any]:
    """Pages by re-crawl outcome and stored pages checked by reason (empty when off)."""
    prefix = "webrobot/freshness/"
    if not any(key.startswith(prefix) for key in stats):
        return {}
    out: dict[str, Any] = {
        outcome: int(stats.get(prefix + outcome, 0)) for outcome in FRESHNESS_OUTCOMES
    }
    out["due"] = {
        key[len(prefix + "due/") :]: int(value)
        for key, value in stats.items()
        if key.startswith(prefix + "due/")
    }
    return out


def freshness_html(freshness: Mapping[str, Any]) -> str:
    if not freshness:
        return ""
    labels = {
        "new": "new (first check)",
        "changed": "changed",
        "unchanged": "unchanged",
        "not_due": "not yet due",
    }
    rows = [(labels[o], freshness[o]) for o in FRESHNESS_OUTCOMES]
    rows += [
        (f"checked because: {reason}", n) for reason, n in sorted(freshness.get("due", {}).items())
    ]
    return _table(
        "Freshness", ("Pages", "Count"), rows,
        "Not-yet-due pages were handed over from the cache without a request to the site.",
    )  # fmt: skip


def frontier_html(report: Mapping[str, Any]) -> str:
    """Every frontier section the report has data for."""
    return (
        templates_html(report.get("templates") or ())
        + priorities_html(report.get("priorities") or ())
        + freshness_html(report.get("freshness") or {})
    )
