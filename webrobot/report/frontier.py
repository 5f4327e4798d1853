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


def templates_that_matter(
    templates: Sequence[Mapping[str, Any]], single_urls: int | None = None
) -> tuple[list[Mapping[str, Any]], int]:
    """(templates with more than one page or a refusal, how many single URLs were
    left out): a template of one URL fetched once tells nothing at a glance.
    ``single_urls`` counts them in the whole crawl; else those in ``templates``."""
    shown = [t for t in templates if int(t["pages"]) > 1 or t["refused"]]
    if single_urls is None:
        single_urls = len(templates) - len(shown)
    return shown, single_urls


def templates_html(templates: Sequence[Mapping[str, Any]], single_urls: int | None = None) -> str:
    shown, left_out = templates_that_matter(templates, single_urls)
    if not shown and not left_out:
        return ""
    rows = [
        (
            t["template"], t["pages"], t["longest_chain"],
            ", ".join(f"{reason.replace('_', ' ')} {n}" for reason, n in sorted(t["refused"].items())) or "–",
        )
        for t in shown
    ]  # fmt: skip
    note = (
        "URLs that differ only in numbers, dates, ids or query values share a template; "
        "refused templates first, then the busiest."
    )
    if left_out:
        note += (
            f" {left_out} single URL{'s' if left_out != 1 else ''} (one page each, nothing refused) "
            "are left out of this table."
        )
    if not rows:
        return (
            '<section class="card"><h2>URL templates</h2>'
            f'<p class="note">No template had more than one page or a refusal. {escape(note)}</p></section>'
        )
    return _table("URL templates", ("Template", "Pages", "Longest chain", "Refused"), rows, note)


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
        templates_html(report.get("templates") or (), report.get("templates_single_urls"))
        + priorities_html(report.get("priorities") or ())
        + freshness_html(report.get("freshness") or {})
    )
