"""Which rules a snapshot was judged under, and what a change of them means.

Pure: no Scrapy, no I/O. Every snapshot keeps the fingerprint of the noise rules
it was taken under (:func:`rules_fingerprint`: ignore selectors, patterns and
fields) and the extractors' version
(:func:`webrobot.extract.version.reader_version`). When the rules of a crawl
differ from a page's stored ones, what differs between the two snapshots may be
the rules' doing, not the page's: :func:`how_to_judge` says how the page is judged.

* ``SAME``: the usual comparison.
* ``RULES``: the noise rules changed, the extractors did not. The snapshot keeps
  the sentences its rules left out, so both are judged under the new rules: only
  what the page itself says differently counts
  (:func:`webrobot.monitor.snapshot.changes` with ``rules_changed``).
* ``READER``: the extractors read pages differently now. The old snapshot cannot be
  re-read, so the page is re-baselined quietly: the new snapshot replaces the old
  one and no ``changed`` event is told for it in that crawl.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

SAME = "same"
RULES = "rules"
READER = "reader"


def rules_fingerprint(
    selectors: Iterable[str], patterns: Iterable[str], fields: Iterable[str]
) -> str:
    """16 hex digits naming a set of noise rules; the order they are given in does not count."""
    body = json.dumps(
        {"selectors": sorted(set(selectors)), "patterns": sorted(set(patterns)),
         "fields": sorted(set(fields))},
        sort_keys=True,
    )  # fmt: skip
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def how_to_judge(stored_rules: str, stored_reader: str, rules: str, reader: str) -> str:
    """``SAME``, ``RULES`` or ``READER`` (see the module doc). A snapshot kept before
    snapshots recorded their rules (empty strings) is judged as under other rules."""
    if stored_reader and stored_reader != reader:
        return READER
    if not stored_rules or not stored_reader or stored_rules != rules:
        return RULES
    return SAME


def rebaselined_entry(rules: int, reader: int) -> str | None:
    """The summary's entry for the pages re-baselined under new ``rules`` and new
    extractors (``reader``): ``rules changed: 710 pages re-baselined``; None for none."""
    count = rules + reader
    if not count:
        return None
    return f"{'extractors' if reader else 'rules'} changed: {count} pages re-baselined"
