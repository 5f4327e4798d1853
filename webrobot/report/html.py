"""``report.html``: the crawl report as one self-contained page.

Everything is inline (CSS, a few lines of JavaScript to sort the table, the
charts as SVG drawn by pygal), so the page opens from a file, a Scrapyd items
listing or an e-mail attachment without fetching anything.

pygal is optional (``pip install 'webrobot[charts]'``, drawn by
:mod:`webrobot.report.charts`): without it the page has its tables and a note in
place of the charts.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from webrobot.optional import MissingExtra
from webrobot.report.charts import bar_chart, pages_over_time
from webrobot.report.frontier import frontier_html
from webrobot.report.htmlchanges import changes_section
from webrobot.report.htmlstyle import CSS, SORT_JS
from webrobot.report.kinds import PAGE, ROBOTS, kind_count, kinds_line

#: table rows shown for crawled sites (the rest are summed in one row)
TABLE_SITES = 200


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"  # pragma: no cover


def human_seconds(s: float) -> str:
    if s < 90:
        return f"{s:.1f} s"
    if s < 5400:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def _breakdown(counts: Mapping[str, int], limit: int = 4) -> str:
    items = list(counts.items())
    parts = [f"{escape(str(k))} {v}" for k, v in items[:limit]]
    if len(items) > limit:
        parts.append(f"+{sum(v for _, v in items[limit:])} more")
    return " · ".join(parts)


def _cell(value: Any, shown: str | None = None, sub: str = "", cls: str = "") -> str:
    text = escape(str(value)) if shown is None else shown
    sub_html = f'<span class="sub">{sub}</span>' if sub else ""
    cls_attr = f' class="{cls}"' if cls else ""
    return f'<td{cls_attr} data-v="{escape(str(value), quote=True)}">{text}{sub_html}</td>'


def _robots_cell(robots: Mapping[str, Any]) -> str:
    if not robots["fetches"] and not robots["outcome"] and robots["status"] is None:
        return _cell("", "–", cls="text")
    status = robots["status"]
    head = str(status) if status is not None else "no answer"
    if robots["outcome"]:
        head += f" {robots['outcome'].replace('_', ' ')}"
    if not robots["resolved"]:
        head = f'<span class="bad-text">{escape(head)} · unresolved</span>'
    else:
        head = escape(head)
    bits = [escape(robots["rules"])] if robots.get("rules") else []
    if robots.get("errors"):
        bits.append("errors: " + _breakdown(robots["errors"]))
    if robots.get("expires"):
        bits.append(f"expires {escape(robots['expires'])}")
    return _cell(status if status is not None else -1, head, " · ".join(bits), cls="text")


COLUMNS = (
    ("Site", "scheme://host:port", "text"),
    ("robots.txt", "status, outcome and rules of the site's robots.txt", "text"),
    (
        "Requested",
        "page requests sent (retries and redirect hops included; other fetches and robots.txt not)",
        "",
    ),
    ("Downloaded", "page responses received with a body (not 304)", ""),
    ("Unchanged", "304 Not Modified on a re-crawl", ""),
    ("Other fetches", "images, documents, other requisites and sitemaps requested", "text"),
    ("Items", "items scraped", ""),
    ("Dupes", "pages dropped as duplicate content", ""),
    ("noindex", "pages with a noindex directive", ""),
    ("nofollow", "pages whose links were not followed", ""),
    ("Refused", "URLs not requested, by reason", "text"),
    (
        "Errors",
        "failed requests by type (network errors, HTTP >= 400), every kind but robots.txt",
        "text",
    ),
    ("Error rate", "failed / requests of every kind but robots.txt", ""),
    ("Bytes", "body bytes received", ""),
    ("Delay", "download delay applied (s)", ""),
    ("Deferred", "time the site was held back", ""),
)


def site_row(site: str, row: Mapping[str, Any], flagged: bool) -> str:
    refused = sum(row["refused"].values())
    errors = sum(row["errors"].values())
    rate = row["error_rate"]
    delay = row["delay"]
    cells = [
        _cell(site, f"<b>{escape(site)}</b>", cls="text"),
        _robots_cell(row["robots"]),
        _cell(row["requested"]),
        _cell(row["downloaded"]),
        _cell(row["unchanged"]),
        _other_fetches_cell(row.get("requests") or {}),
        _cell(row["items"]),
        _cell(row["duplicates"]),
        _cell(row["noindex"]),
        _cell(row["nofollow"]),
        _cell(refused, str(refused), _breakdown(row["refused"]), cls="text"),
        _cell(errors, str(errors), _breakdown(row["errors"]), cls="text"),
        _cell(rate, f"{rate:.0%}", cls="bad-text" if flagged and rate else ""),
        _cell(row["bytes"], human_bytes(row["bytes"])),
        _cell(delay if delay is not None else -1, "–" if delay is None else f"{delay:g}"),
        _cell(
            row["deferred_seconds"],
            human_seconds(row["deferred_seconds"]) if row["deferrals"] else "–",
            f"{row['deferrals']}×" if row["deferrals"] else "",
        ),
    ]
    row_class = ' class="warn"' if flagged else ""
    return f"<tr{row_class}>{''.join(cells)}</tr>"


def _other_fetches(requests: Mapping[str, int]) -> dict[str, int]:
    """Requests of the kinds that are neither pages nor robots.txt."""
    return {k: n for k, n in requests.items() if k not in (PAGE, ROBOTS) and n}


def _other_fetches_cell(requests: Mapping[str, int]) -> str:
    other = _other_fetches(requests)
    total = sum(other.values())
    return _cell(total, str(total), escape(kinds_line(other)), cls="text")


def failed_section(failed: list[Mapping[str, str]], total: int) -> str:
    """The pages the crawl gave up on (after its retries), with why."""
    if not failed:
        return ""
    rows = "".join(
        f"<tr><td>{escape(f['url'])}</td><td>{escape(f['reason'])}</td></tr>" for f in failed
    )
    more = (
        f'<p class="note">{total - len(failed)} more not listed.</p>' if total > len(failed) else ""
    )
    return (
        f'<section class="card"><h2>Failed pages <small>({total})</small></h2>'
        f'<table id="failed"><thead><tr><th>URL</th><th>Reason</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>{more}</section>\n"
    )


def held_section(held: list[Mapping[str, Any]], reason: str) -> str:
    """Sites whose robots.txt kept failing and still held requests when the report was
    written: the error, the attempts, the requests that were not crawled."""
    if not held:
        return ""
    rows = "".join(
        f"<tr><td>{escape(str(h['site']))}</td><td>{escape(str(h['reason'] or '–'))}</td>"
        f"<td>{escape(str(h['detail'] or ''))}</td><td>{int(h['attempts'])}</td>"
        f"<td>{human_seconds(float(h['held_seconds']))}</td><td>{int(h['requests'])}</td></tr>"
        for h in held
    )
    why = (
        " The crawl closed because nothing else was left (WEBROBOT_ROBOTS_HELD_ONLY_MAX)."
        if reason == "held_sites_only"
        else ""
    )
    return (
        f'<section class="card"><h2>Sites not reached <small>({len(held)})</small></h2>'
        f'<p class="note">robots.txt of these sites kept failing; their requests were held, '
        f"not crawled.{why}</p>"
        '<table id="held"><thead><tr><th>Site</th><th>Last error</th><th>Detail</th>'
        "<th>Attempts</th><th>Held for</th><th>Requests held</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>\n"
    )


def dead_section(dead: list[Mapping[str, Any]]) -> str:
    """Hosts given up on as dead, each once: a name that does not resolve, a refused
    port; given up by this crawl, or remembered from an earlier one."""
    if not dead:
        return ""

    def tries(d: Mapping[str, Any]) -> str:
        if d.get("remembered"):
            return "earlier crawl"
        return f"{int(d['tries'])} over {human_seconds(float(d['seconds']))}"

    rows = "".join(
        f"<tr><td>{escape(str(d['host']))}</td><td>{escape(str(d['reason']))}</td>"
        f"<td>{escape(tries(d))}</td><td>{sum((d.get('refused') or {}).values())}</td>"
        f"<td>{int(d.get('skipped') or 0)}</td><td>{escape(str(d['detail'] or ''))}</td></tr>"
        for d in dead
    )
    return (
        f'<section class="card"><h2>Hosts given up <small>({len(dead)})</small></h2>'
        '<p class="note">These hosts are dead: their requests were not crawled, and images '
        "or requisites on them were not asked. Those of which nothing but robots.txt was "
        "asked are not counted among the sites.</p>"
        '<table id="dead-hosts"><thead><tr><th>Host</th><th>Why</th><th>Tries</th>'
        "<th>URLs refused</th><th>Requisites not asked</th><th>Detail</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>\n"
    )


def hosts_section(hosts: list[Mapping[str, Any]], refused_only: int = 0) -> str:
    """Per host requested: schemes and origins seen, moved to https, URLs upgraded, TLS
    problems; shown when a host has more than one origin or anything was learnt about
    it. ``refused_only``: hosts whose links were all refused, counted apart."""
    shown = [
        h for h in hosts
        if len(h["origins"]) > 1 or h["https_only"] or h["upgraded"] or h["tls_problems"]
    ]  # fmt: skip
    if not shown:
        return ""
    rows = "".join(
        f"<tr><td>{escape(h['host'])}</td><td>{escape(', '.join(h['schemes']))}</td>"
        f"<td>{escape(' '.join(h['origins']))}</td><td>{escape(h['https_only'] or '')}</td>"
        f"<td>{int(h['upgraded'])}</td><td>{escape(', '.join(h['tls_problems']))}</td></tr>"
        for h in shown
    )
    return (
        '<section class="card"><h2>Hosts</h2><table id="hosts"><thead><tr><th>Host</th>'
        "<th>Schemes</th><th>Origins</th><th>Moved to https (learnt by)</th>"
        "<th>URLs upgraded</th><th>TLS problems</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{_refused_hosts_note(refused_only)}</section>\n"
    )


def _refused_hosts_note(refused_only: int) -> str:
    if not refused_only:
        return ""
    hosts = "host" if refused_only == 1 else "hosts"
    return (
        f'<p class="note">Links to {refused_only} other {hosts} were refused, never requested.</p>'
    )


def disk_note(disk: dict[str, Any]) -> str:
    """`` · paused 2 times for disk space (41 s)``, or nothing."""
    pauses = int(disk.get("pauses") or 0)
    if not pauses:
        return ""
    seconds = human_seconds(float(disk.get("paused_seconds") or 0))
    return f" · paused {pauses} time{'s' if pauses > 1 else ''} for disk space ({seconds})"


def archive_section(archive: Mapping[str, Any] | None) -> str:
    """Per site: archived pages that replay whole, and those missing a requisite, and why."""
    sites = (archive or {}).get("sites") or {}
    if not sites:
        return ""
    rows = []
    for site, row in sorted(sites.items()):
        reasons = _breakdown(row.get("missing_by_reason") or {}) or "–"
        rows.append(
            f"<tr><td>{escape(site)}</td><td>{row['pages_whole']}</td>"
            f"<td>{row['pages_missing_requisites']}</td><td>{reasons}</td></tr>"
        )
    examples = [e for row in sites.values() for e in row.get("examples") or ()][:20]
    listed = "".join(
        f"<tr><td>{escape(e['page'])}</td><td>{escape(e['requisite'])}</td>"
        f"<td>{escape(e['reason'])}</td></tr>"
        for e in examples
    )
    listed_html = (
        '<table id="requisites-missing"><thead><tr><th>Page</th><th>Requisite missing</th>'
        f"<th>Why</th></tr></thead><tbody>{listed}</tbody></table>"
        if listed
        else ""
    )
    return (
        '<section class="card"><h2>Archive: pages whole</h2>'
        '<table id="archive"><thead><tr><th>Site</th><th>Pages whole</th>'
        "<th>Pages missing requisites</th><th>Why</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>{listed_html}</section>\n"
    )


#: site states of the live status page's "now" line, as the progress line names them
_LIVE_STATES = (("active", "active"), ("waiting_robots", "waiting robots.txt"),
                ("deferred", "deferred"), ("exhausted", "exhausted"))  # fmt: skip


def _now_line(now: Mapping[str, Any] | None) -> str:
    """A running crawl's work in hand: frontier, downloader, sites by state."""
    if not now:
        return ""
    states = now.get("sites") or {}
    sites = ", ".join(f"{int(states.get(key, 0))} {label}" for key, label in _LIVE_STATES)
    return (
        f'<p class="meta" id="now">now: <b>{int(now["frontier"])}</b> in the frontier, '
        f"<b>{int(now['in_flight'])}</b> in flight · sites: {escape(sites)}</p>\n"
    )


def _sites_tile(totals: dict[str, Any]) -> tuple[int, str]:
    """Sites whose pages were requested; those that only had robots.txt asked are said apart."""
    with_pages = totals.get("sites_with_pages", totals["sites_crawled"])
    robots_only = totals["sites_crawled"] - with_pages
    return with_pages, "sites crawled" + (
        f" (+{robots_only} robots.txt only)" if robots_only > 0 else ""
    )


def render_html(report: Mapping[str, Any], refresh: int = 0) -> str:
    """The report as one self-contained page; ``refresh`` > 0: the live status page
    of a running crawl, which reloads itself every ``refresh`` seconds."""
    sites: Mapping[str, Mapping[str, Any]] = report["sites"]
    totals = report["totals"]
    health = report["health"]
    flagged_sites = {flag["site"] for flag in health["flags"]}
    crawled = [s for s, row in sites.items() if row["crawled"]]
    crawled.sort(key=lambda s: (-sites[s]["requested"], s))
    only_refused = [s for s, row in sites.items() if not row["crawled"]]

    if health["ok"]:
        health_html = '<section class="health ok"><b>✔ Healthy</b>: no site crossed a health threshold.</section>'
    else:
        items = "".join(
            f"<li><b>{escape(f['site'])}</b>: {escape(f['message'])}</li>" for f in health["flags"]
        )
        count = len(health["flags"])
        health_html = (
            f'<section class="health bad"><b>⚠ {count} health warning{"s" if count != 1 else ""}</b>'
            f"<ul>{items}</ul></section>"
        )

    refused_total = sum(totals["refused"].values())
    errors_total = sum(totals["errors"].values())
    tiles = [
        _sites_tile(totals),
        (totals["requested"], "pages requested"),
        (totals["downloaded"], "downloaded"),
        (totals["unchanged"], "unchanged (304)"),
        *(
            (n, kind_count(kind, n).split(" ", 1)[1] + " requested")
            for kind, n in _other_fetches(totals.get("requests") or {}).items()
        ),
        (totals["items"], "items"),
        (totals["duplicates"], "duplicates"),
        (refused_total, "URLs refused"),
        (errors_total, f"errors ({totals['error_rate']:.0%})"),
        (human_bytes(totals["bytes"]), "received"),
        (totals["robots_fetches"], "robots.txt fetches"),
    ]
    tiles_html = "".join(
        f'<div class="tile"><b>{escape(str(v))}</b><span>{escape(t)}</span></div>' for v, t in tiles
    )

    head = "".join(
        f'<th class="{cls}" title="{escape(tip, quote=True)}">{escape(name)}</th>'
        for name, tip, cls in COLUMNS
    )
    rows = "".join(site_row(s, sites[s], s in flagged_sites) for s in crawled[:TABLE_SITES])
    notes = []
    if len(crawled) > TABLE_SITES:
        notes.append(f"{len(crawled) - TABLE_SITES} more crawled sites are in report.json.")
    if only_refused:
        refused_only: dict[str, int] = {}
        for s in only_refused:
            for reason, n in sites[s]["refused"].items():
                refused_only[reason] = refused_only.get(reason, 0) + n
        names = ", ".join(escape(s) for s in only_refused[:5]) + (
            " …" if len(only_refused) > 5 else ""
        )
        notes.append(
            f"{len(only_refused)} other site{'s' if len(only_refused) != 1 else ''} only had URLs refused "
            f"({_breakdown(refused_only)}): {names}"
        )
    notes_html = "".join(f'<p class="note">{n}</p>' for n in notes)

    try:
        charts = "".join(
            f"<figure>{svg}</figure>"
            for svg in (
                pages_over_time(report.get("timeline") or {}),
                bar_chart("Refusals by reason", totals["refused"], horizontal=True),
                bar_chart("Responses by status code", totals["status"], status=True),
            )
        )
    except MissingExtra as exc:
        charts = f'<p class="note">No charts: {escape(str(exc))}</p>'
    failed_html = failed_section(report.get("failed") or [], int(report.get("failed_total") or 0))

    title = f"webrobot crawl report: {report.get('spider', '')}"
    elapsed = human_seconds(float(report.get("elapsed_seconds") or 0))
    version = f" · webrobot {escape(str(report.get('webrobot_version')))}"
    if refresh > 0:
        title = f"webrobot crawl status: {report.get('spider', '')}"
        meta = (
            f"started {escape(str(report.get('started_at')))} · <b>running</b> for {elapsed}"
            f" · as of {escape(str(report.get('as_of')))}, reloads every {refresh} s{version}"
        )
    else:
        meta = (
            f"started {escape(str(report.get('started_at')))} · finished {escape(str(report.get('finished_at')))}"
            f" · {elapsed}"
            f" · finish reason <b>{escape(str(report.get('finish_reason')))}</b>"
            f"{disk_note(report.get('disk') or {})}{version}"
        )
    refresh_tag = f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh > 0 else ""
    now_html = _now_line(report.get("now")) if refresh > 0 else ""
    now_html += "".join(
        f'<p class="meta budget">{escape(str(budget.get("message", "")))}</p>\n'
        for budget in report.get("budgets") or []
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{refresh_tag}<title>{escape(title)}</title><style>{CSS}</style></head>
<body><main>
<h1>{"Crawl status" if refresh > 0 else "Crawl report"} <small>{escape(str(report.get("spider", "")))}</small></h1>
<p class="meta">{meta}</p>
{changes_section(report.get("changes"))}{now_html}{health_html}
<section class="tiles">{tiles_html}</section>
<section class="card"><h2>Sites</h2>
<table id="sites"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{notes_html}
</section>
{dead_section(report.get("dead_hosts") or [])}{held_section(report.get("held") or [], str(report.get("finish_reason")))}{hosts_section(report.get("hosts") or [], int(report.get("hosts_refused_only") or 0))}{frontier_html(report)}
{archive_section(report.get("archive"))}
{failed_html}<section class="charts">{charts}</section>
</main><script>{SORT_JS}</script></body></html>
"""
