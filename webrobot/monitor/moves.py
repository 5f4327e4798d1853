"""Which watched pages moved: the redirects a response came through, as the monitor tells them.

Pure: no Scrapy, no I/O. Scrapy's redirect middleware follows a redirect and keeps
the way it came in the request's meta: ``redirect_urls`` (every URL before the last,
in order) and ``redirect_reasons`` (what each of them answered: the status, or
``"meta refresh"``). :func:`moves` turns that chain into one :class:`Move` per URL
that answered with an HTTP redirect to somewhere else; the monitor tells a ``moved``
event for each one it watches.

A 301 or 308 says the page lives at the new address for good: the monitor tells it
once and forgets the old address (its content is watched where it is now). A 302,
303 or 307 says "for now": the old address stays watched and is re-checked at every
crawl, and the move is told once per target (:func:`told_key`), again only when it
goes somewhere else or after the page came back. A meta refresh is a page, not an
answer of the server, and is no move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Redirect statuses that say the page moved for good.
PERMANENT = frozenset({301, 308})
#: Redirect statuses that say the page is elsewhere for now.
TEMPORARY = frozenset({302, 303, 307})
#: How a temporary move is kept among a page's told matches (see :func:`told_key`).
TOLD_PREFIX = "moved|"


@dataclass(frozen=True)
class Move:
    """``url`` answered ``status`` and the crawl found the page at ``to``."""

    url: str
    to: str
    status: int

    @property
    def permanent(self) -> bool:
        return self.status in PERMANENT


def _status(reason: object) -> int | None:
    if isinstance(reason, bool):
        return None
    if isinstance(reason, int):
        return reason
    if isinstance(reason, str) and reason.isdigit():
        return int(reason)
    return None


def moves(chain: Sequence[str], reasons: Sequence[object], final: str) -> list[Move]:
    """One move per URL of ``chain`` that answered an HTTP redirect; ``final`` is where the
    page was found. A URL that redirects to itself, in the end, has not moved."""
    out: list[Move] = []
    for url, reason in zip(chain, reasons, strict=False):
        status = _status(reason)
        if status not in PERMANENT | TEMPORARY or url == final:
            continue
        if any(m.url == url for m in out):
            continue  # a loop that came back through it: told once
        out.append(Move(url, final, status))
    return out


def told_key(move: Move) -> str:
    """What a temporary move is remembered as, so it is told once per target."""
    return f"{TOLD_PREFIX}{move.to}"
