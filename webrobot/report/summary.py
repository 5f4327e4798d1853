"""A few human-readable lines from a crawl's final stats. Pure logic."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webrobot.report.kinds import kinds_line

#: stat key -> reason shown to a person; every key under webrobot/url/refused/ is added
REFUSAL_KEYS = {
    "robotstxt/forbidden": "robots.txt disallows",
    "webrobot/robots/deferred_gave_up": "robots.txt never answered",
    "webrobot/meta/noindex": "noindex (no item)",
    "webrobot/meta/nofollow": "nofollow (links not followed)",
    "webrobot/meta/rel_nofollow": "rel=nofollow links",
    "webrobot/dupes/content": "duplicate content",
    "webrobot/dupes/links_suppressed": "links of duplicates",
}
REFUSED_PREFIX = "webrobot/url/refused/"
#: responses by kind (webrobot.report.kinds), as the report's collector counts them
RESPONSES_PREFIX = "webrobot/responses/"


def refusals(stats: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in stats.items():
        if not isinstance(value, int):
            continue
        if key.startswith(REFUSED_PREFIX):
            out[key[len(REFUSED_PREFIX) :].replace("_", " ")] = value
        elif REFUSAL_KEYS.get(key):
            out[REFUSAL_KEYS[key]] = value  # type: ignore[index]
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def summary_lines(
    stats: Mapping[str, Any], items: int | None = None, report: Mapping[str, Any] | None = None
) -> list[str]:
    """The summary of a crawl; ``report``: its ``report.json``, whose totals give the
    failed requests as the report counts them (so both say the same number)."""
    pages = stats.get("downloader/response_count", 0)
    robots = stats.get("robotstxt/response_count", stats.get("webrobot/robots/fetched", 0))
    by_kind = {
        key[len(RESPONSES_PREFIX) :]: value
        for key, value in stats.items()
        if key.startswith(RESPONSES_PREFIX) and isinstance(value, int)
    }
    kinds = f"robots.txt: {robots}"
    if by_kind:  # handed on by the engine, each kind apart
        pages, kinds = sum(by_kind.values()), kinds_line(by_kind)
    lines = [
        f"finish reason : {stats.get('finish_reason', '?')}",
        f"responses     : {pages} ({kinds})",
        f"items         : {items if items is not None else stats.get('item_scraped_count', 0)}",
        f"items dropped : {stats.get('item_dropped_count', 0)}",
    ]
    totals = (report or {}).get("totals")
    if totals:
        errors = totals.get("errors") or {}
        kinds = ", ".join(f"{kind} {n}" for kind, n in errors.items())
        lines.append(
            f"failed        : {totals.get('failed', 0)} requests ({totals.get('error_rate', 0):.0%}: "
            f"no answer, or HTTP >= 400{'; ' + kinds if kinds else ''}), as in the report"
        )
    lines.append(f"ERROR lines   : {stats.get('log_count/ERROR', 0)} in the log")
    door = front_door(stats)
    if door:
        lines.append(f"front door    : {door}")
    refused = refusals(stats)
    if refused:
        lines.append("refused / held back by reason:")
        width = max(len(r) for r in refused)
        lines.extend(f"  {reason:<{width}} : {count}" for reason, count in refused.items())
    else:
        lines.append("refused       : nothing")
    return lines


def front_door(stats: Mapping[str, Any]) -> str:
    """``2 hosts joined the scope by redirect, 1 learnt https-only, 5 URLs upgraded,
    TLS problems: wrong_name 1``; empty when none of it happened."""
    parts = []
    seeds = stats.get("webrobot/scope/redirect_seed", 0)
    if seeds:
        parts.append(f"{seeds} host{'s' if seeds != 1 else ''} joined the scope by redirect")
    learned = sum(v for k, v in stats.items() if k.startswith("webrobot/url/upgrade_learned/"))
    if learned:
        parts.append(f"{learned} learnt https-only")
    upgraded = stats.get("webrobot/url/upgraded", 0)
    if upgraded:
        parts.append(f"{upgraded} URLs upgraded to https")
    tls = sorted(
        (k.rsplit("/", 1)[1], v) for k, v in stats.items() if k.startswith("webrobot/tls/")
    )
    if tls:
        parts.append("TLS problems: " + ", ".join(f"{kind} {n}" for kind, n in tls))
    return ", ".join(parts)
