"""When a host is dead: the rule that gives up on it in seconds, not minutes.

Two network answers are answers, not passing trouble:

* the resolver says the name does not exist (NXDOMAIN, ``EAI_NONAME``: "Name or
  service not known"; a name under ``.invalid``, or one outside the
  ``WEBROBOT_RESOLVE`` table with ``WEBROBOT_RESOLVE_ONLY``): the host is tried
  :attr:`DeadHostPolicy.name_tries` times (two), ``WEBROBOT_DEAD_NAME_RETRY``
  seconds apart, then given up (:data:`NO_SUCH_NAME`);
* the connection is refused (``ECONNREFUSED``: nothing listens on that port): the
  host is retried with the usual backoff for ``WEBROBOT_DEAD_REFUSED_MAX`` seconds
  (a server being restarted), then given up (:data:`REFUSED`).

A failure to *reach* the resolver (``EAI_AGAIN``, a timeout) says nothing about
the name and is none of these: the caller's longer policy applies to it. A run of
failures of one kind counts; a failure of another kind starts the count again.

Callers: the robots.txt middleware (a site whose robots.txt fails this way is
given up, and its requests with it), the page-failure recorder (a page that
failed for good this way names its host dead) and the fetchers of requisites (an
image or a stylesheet whose download failed this way). Anything that waits on a
host (page requisites, images) asks :class:`webrobot.urls.deadhosts.DeadHosts`
whether the host is known dead, in this crawl (:class:`DeadBook`) or an earlier
one (:class:`webrobot.urls.deadmemory.DeadHostMemory`).

Pure logic: no Scrapy, no I/O; the clock is passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

#: The resolver answered that the name does not exist.
NO_SUCH_NAME = "no_such_name"
#: The host's address refused the connection.
REFUSED = "refused"
#: Each kind, as the crawl's last lines and the report say it.
REASONS = {
    NO_SUCH_NAME: "the name does not resolve",
    REFUSED: "the connection was refused",
}


@dataclass(frozen=True)
class DeadHostPolicy:
    """How soon a dead host is given up (the settings, in seconds)."""

    #: ``WEBROBOT_DEAD_NAME_RETRY``: the wait between the two tries of a name that
    #: does not exist.
    name_retry: float = 3.0
    #: ``WEBROBOT_DEAD_REFUSED_MAX``: how long refused connections are retried.
    refused_max: float = 6.0
    #: Tries of a name that does not exist before it is given up.
    name_tries: int = 2

    def next_try(
        self, kind: str, tries: int, elapsed: float, usual: float, *, known: bool = False
    ) -> float | None:
        """Seconds until the next try of a host whose last ``tries`` tries (over
        ``elapsed`` seconds since the first) all failed with ``kind``; None: give
        it up now. ``usual`` is the wait the caller's own backoff would give; a
        kind that is not a dead host's keeps it. ``known``: the name was given up
        already in this crawl (asked on another port or scheme): given up at once."""
        if kind == NO_SUCH_NAME:
            return None if known or tries >= self.name_tries else self.name_retry
        if kind == REFUSED:
            if elapsed >= self.refused_max:
                return None
            return max(0.0, min(usual, self.refused_max - elapsed))
        return usual


@dataclass
class Streak:
    """The run of failures of one kind a host has had (reset by another kind)."""

    kind: str | None = None
    tries: int = 0
    since: float = 0.0

    def failed(self, kind: str | None, now: float) -> tuple[int, float]:
        """One more failure of ``kind`` (None: not a dead host's kind) at ``now``;
        returns (tries of this kind in a row, seconds since the first of them)."""
        if kind != self.kind or kind is None:
            self.kind, self.tries, self.since = kind, 0, now
        self.tries += 1
        return self.tries, now - self.since


def url_host(url: str) -> tuple[str, int | None]:
    """``http://H.:8080/x`` -> ``('h', 8080)``: the name in lower case without a
    trailing dot, and the scheme's port when none is given (None: no port known,
    or a port out of range)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "", None
    if port is None:
        port = {"http": 80, "https": 443}.get(parts.scheme.lower())
    return (parts.hostname or "").rstrip("."), port


def host_label(kind: str, host: str, port: int | None) -> str:
    """What is dead: a name (whatever the port) or, for a refused connection, the
    host and port (``127.0.0.1:9``)."""
    if kind == REFUSED and port is not None:
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return host


@dataclass(frozen=True)
class DeadHost:
    """A host given up on."""

    host: str  # host_label()
    kind: str
    tries: int
    seconds: float  # from its first failure of this kind to the giving up
    detail: str = ""

    @property
    def reason(self) -> str:
        return REASONS.get(self.kind, self.kind)

    def line(self) -> str:
        """``no-such-host.invalid: the name does not resolve``."""
        return f"{self.host}: {self.reason}"

    def row(self) -> dict[str, object]:
        """As report.json's ``dead_hosts`` lists it."""
        return {
            "host": self.host,
            "kind": self.kind,
            "reason": self.reason,
            "tries": self.tries,
            "seconds": round(self.seconds, 3),
            "detail": self.detail[:300],
        }


@dataclass
class DeadBook:
    """The hosts given up on in this crawl, each once."""

    hosts: dict[str, DeadHost] = field(default_factory=dict)

    def give_up(self, dead: DeadHost) -> bool:
        """Record ``dead``; False when its host was given up already (say it once)."""
        if dead.host in self.hosts:
            return False
        self.hosts[dead.host] = dead
        return True

    def get(self, host: str) -> DeadHost | None:
        """The host's record (``host_label``'s spelling), None while it is not dead."""
        return self.hosts.get(host)

    def kinds(self) -> list[str]:
        return [dead.kind for dead in self.hosts.values()]

    def lines(self) -> list[str]:
        """One line per host, in the order they were given up."""
        return [dead.line() for dead in self.hosts.values()]
