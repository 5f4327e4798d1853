"""How ``scrapy crawl`` ends: one exit status per kind of ending, in one table.

As wget and curl do, the status says why a crawl could not do its job, so a
script or a scheduler can tell a typo in a setting from a site that is gone.
:data:`STATUSES` is the table the docs print (``docs/reference/commands.md``);
a new kind of ending is one more :class:`ExitStatus` here, and the crawl command
sets ``exitcode = STATUS.code``.

:func:`nothing_fetched` decides the status of a crawl that ran but fetched no
page: every host's name does not resolve (6, curl's "could not resolve host"),
a host refused the connection (7, curl's "failed to connect"), or every site was
given up for another reason (8). A crawl that got an answer to at least one page (an
error page too), or had nothing to fetch, exits 0 whatever else failed: its report says what.

Pure logic: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Kinds of dead host (:mod:`webrobot.urls.deadpolicy`'s values, repeated here so
#: that this table stays free of any crawl part).
_NO_SUCH_NAME = "no_such_name"


@dataclass(frozen=True)
class ExitStatus:
    code: int
    name: str
    meaning: str


OK = ExitStatus(0, "ok", "the crawl ran: it fetched pages, or had nothing to fetch")
RESOURCE = ExitStatus(
    1, "resource",
    "stopped for want of a resource: a folder it writes is full (`disk_full`), or a shared "
    "crawl's Redis could not be used (`redis_unavailable`): the same command resumes; also "
    "Scrapy's own status for a crawl it could not start",
)  # fmt: skip
USAGE = ExitStatus(
    2, "usage",
    "did not start: an unknown spider, a bad setting, argument or site config, a file a "
    "setting names that cannot be read, a damaged `JOBDIR` frontier; nothing was opened or "
    "written but the stats file",
)  # fmt: skip
NO_SUCH_NAME = ExitStatus(
    6, "no_such_name",
    "nothing fetched: the name of every host tried does not resolve (finish reason "
    "`nothing_fetched`)",
)  # fmt: skip
REFUSED = ExitStatus(
    7, "refused",
    "nothing fetched: hosts refused the connection (and the others' names do not resolve)",
)  # fmt: skip
GAVE_UP = ExitStatus(
    8, "gave_up",
    "nothing fetched: no page got an answer, and sites were given up for another reason "
    "(their robots.txt kept failing: timeouts, server errors; their pages timed out), or the "
    "crawl closed with nothing left but held sites (`held_sites_only`)",
)  # fmt: skip

#: A crawl a signal stopped exits with 128 + the signal's number, as a shell reports a
#: program a signal ended.
SIGNALLED = 128
INTERRUPTED = ExitStatus(
    SIGNALLED + 2, "interrupted",
    "stopped by Ctrl-C (SIGINT), finish reason `shutdown` (or at once by a second Ctrl-C): "
    "with `JOBDIR` the same command resumes with exactly what was not finished",
)  # fmt: skip
TERMINATED = ExitStatus(
    SIGNALLED + 15, "terminated",
    "stopped by SIGTERM (Scrapyd's cancel with `signal=TERM`, a service manager), as for 130",
)  # fmt: skip

#: Every status ``scrapy crawl`` exits with, in order.
STATUSES: tuple[ExitStatus, ...] = (
    OK, RESOURCE, USAGE, NO_SUCH_NAME, REFUSED, GAVE_UP, INTERRUPTED, TERMINATED,
)  # fmt: skip


def stopped_by(signum: int) -> ExitStatus:
    """The status of a crawl the signal ``signum`` stopped (:data:`INTERRUPTED` for SIGINT,
    :data:`TERMINATED` for SIGTERM; 128 + the number for any other)."""
    for status in (INTERRUPTED, TERMINATED):
        if status.code == SIGNALLED + signum:
            return status
    return ExitStatus(SIGNALLED + signum, "signalled", "stopped by a signal")


def nothing_fetched(
    pages: int, dead_kinds: Sequence[str], failures: int, *, held_only: bool = False
) -> ExitStatus | None:
    """The status of a crawl that ran, or None when it did its job (``OK``).

    ``pages``: responses to anything but robots.txt; ``dead_kinds``: the kind of
    each host given up as dead; ``failures``: sites and pages given up on for
    other reasons; ``held_only``: the crawl closed with nothing left but requests
    held for sites that kept failing."""
    if pages > 0:
        return None
    if dead_kinds:
        return NO_SUCH_NAME if all(k == _NO_SUCH_NAME for k in dead_kinds) else REFUSED
    if failures > 0 or held_only:
        return GAVE_UP
    return None


def markdown_table() -> str:
    """The table of :data:`STATUSES` as the docs print it."""
    rows = [f"| {s.code} | `{s.name}` | {s.meaning} |" for s in STATUSES]
    return "\n".join(["| status | name | meaning |", "| --- | --- | --- |", *rows])
