"""The report's health checks: per site, a robots.txt never resolved, an error rate over
its limit, too many URLs refused as traps.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from webrobot.report.givenup import on_dead_host
from webrobot.report.model import IGNORED
from webrobot.urls.scope import DENY_PATTERN, NOT_ALLOWED, OFFSITE
from webrobot.urls.traps import BINARY_EXTENSION, BUDGET

#: refusal reasons that are not trap defences (for the trap health check): the
#: crawl's scope and page budget, named by the modules that refuse with them, and
#: links to files; any reason starting with "robots" is not one either
NON_TRAP_REASONS = frozenset(
    {OFFSITE, DENY_PATTERN, NOT_ALLOWED, BUDGET, IGNORED, BINARY_EXTENSION}
)


@dataclass(frozen=True)
class HealthThresholds:
    max_error_rate: float = 0.25  # 0: no check
    max_trap_refusals: int = 100  # per site; 0: no check
    robots_required: bool = True  # flag sites whose robots.txt never resolved


def trap_refusals(refused: Mapping[str, int]) -> int:
    return sum(
        n for reason, n in refused.items()
        if reason not in NON_TRAP_REASONS and not reason.startswith("robots")
    )  # fmt: skip


def check_health(
    sites: Mapping[str, Mapping[str, Any]], limits: HealthThresholds
) -> list[dict[str, str]]:
    """Flags for a report's ``sites`` (a dict as :func:`webrobot.report.document.site_report` makes)."""
    flags: list[dict[str, str]] = []

    def flag(site: str, check: str, message: str) -> None:
        flags.append({"site": site, "check": check, "message": message})

    for site, row in sorted(sites.items()):
        robots = row["robots"]
        tried = robots["fetches"] or robots["outcome"] or row["deferrals"]
        if limits.robots_required and tried and not robots["resolved"]:
            errors = ", ".join(robots["errors"]) or (
                f"HTTP {robots['status']}" if robots["status"] else "no answer"
            )
            flag(site, "robots_unresolved",
                 f"robots.txt could never be resolved ({errors}; {_plural(robots['fetches'], 'fetch')})")  # fmt: skip
        rate = row["error_rate"]
        fetches = row.get("fetches", row["requested"])
        if limits.max_error_rate and fetches and rate > limits.max_error_rate:
            flag(site, "error_rate",
                 f"error rate {rate:.0%} of {_plural(fetches, 'request')} is over "
                 f"{limits.max_error_rate:.0%}")  # fmt: skip
        traps = trap_refusals(row["refused"])
        if limits.max_trap_refusals and traps > limits.max_trap_refusals:
            flag(site, "trap_refusals",
                 f"{traps} URLs refused as traps, over {limits.max_trap_refusals}")  # fmt: skip
    return flags


def fold_dead_hosts(
    flags: list[dict[str, str]], dead_hosts: Iterable[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """``flags`` with the robots.txt flags of sites whose host was given up as dead
    (report.json's ``dead_hosts``) folded into one flag that counts them: a page
    with a hundred dead embed hosts gets one line, the report's "Hosts given up"
    lists each."""
    dead = list(dead_hosts)
    if not dead:
        return flags
    labels = {str(row["host"]) for row in dead}
    kept = [
        flag for flag in flags
        if not (flag["check"] == "robots_unresolved" and on_dead_host(flag["site"], labels))
    ]  # fmt: skip
    kinds: dict[str, int] = {}
    for row in dead:
        kinds[str(row["reason"])] = kinds.get(str(row["reason"]), 0) + 1
    said = "; ".join(f"{reason}: {n}" for reason, n in kinds.items())
    remembered = sum(1 for row in dead if row.get("remembered"))
    earlier = f", {remembered} of them remembered from an earlier crawl" if remembered else ""
    message = (
        f"{_plural(len(dead), 'host')} given up as dead ({said}{earlier}); each is listed "
        "under Hosts given up"
    )
    return [*kept, {"site": "dead hosts", "check": "dead_hosts", "message": message}]


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith("ch") else f"{n} {word}s"
