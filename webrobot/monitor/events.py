"""The monitor's events: what it tells, one JSON object each.

Pure: no Scrapy, no I/O. Every event has ``event`` (``new``, ``changed``,
``removed``, ``moved``, ``match`` or ``template_changed``), ``url``, ``time`` (ISO 8601, UTC) and ``id``, a key
made from its content: the same event delivered twice carries the same key, so a
receiver can drop the second (the webhook sends it as ``Idempotency-Key``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

KINDS = ("new", "changed", "removed", "moved", "match", "template_changed")


def event(name: str, url: str, time: str, **details: Any) -> dict[str, Any]:
    """One event; ``details`` are its own keys (``changes``, ``status``, ``rule``...)."""
    if name not in KINDS:
        raise ValueError(f"unknown event {name!r}: expected one of {', '.join(KINDS)}")
    body = {"event": name, "url": url, "time": time, **details}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode("utf-8"))
    return {**body, "id": digest.hexdigest()[:32]}


def new(url: str, time: str, title: str | None = None) -> dict[str, Any]:
    return event("new", url, time, **({"title": title} if title else {}))


def changed(url: str, time: str, changes: list[dict[str, Any]]) -> dict[str, Any]:
    """``changes`` as :func:`webrobot.monitor.snapshot.changes` gives them; ``fields``
    names what changed."""
    return event("changed", url, time, fields=[c["field"] for c in changes], changes=changes)


def removed(url: str, time: str, status: int) -> dict[str, Any]:
    return event("removed", url, time, status=status)


def moved(url: str, time: str, to: str, status: int, permanent: bool) -> dict[str, Any]:
    """``url`` answered ``status`` (a redirect) and the page was found at ``to``."""
    return event("moved", url, time, to=to, status=status, permanent=permanent)


def match(
    url: str, time: str, rule: str, kind: str, score: float, evidence: dict[str, Any]
) -> dict[str, Any]:
    """``kind`` is ``term``, ``text`` or ``image``; ``evidence`` says what was found where."""
    return event("match", url, time, rule=rule, kind=kind, score=score, evidence=evidence)


def template_changed(
    site: str, time: str, added: list[str], removed: list[str], pages: int
) -> dict[str, Any]:
    """The template of ``site`` (``https://host``) changed: the sentences most of its
    ``pages`` now carry (``added``) or no longer carry (``removed``); told once for the
    site, its ``url`` the site's root."""
    return event("template_changed", site.rstrip("/") + "/", time, site=site, added=added,
                 removed=removed, pages=pages)  # fmt: skip
