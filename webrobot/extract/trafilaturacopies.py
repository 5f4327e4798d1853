"""The copies of a page's tree that trafilatura's extraction sequence makes and some
readings never read: left out of the main text's readings.

Before its main extractor runs, trafilatura's sequence (``trafilatura.core._prepare_tree``)
cleans a copy of the tree it is given, since the raw tree is read again later by the
baseline rescue, the recall retry and the fallback extractors, and keeps a copy of the
cleaned tree as it was before its tags are converted, which the fallback extractors and
the comments' forum rescue read. In a reading that is fast (no fallback extractors) and
without comments, nothing reads that backup; when the reading also favours precision, the
baseline rescue and the recall retry do not run either, and nothing reads the raw tree
once it is cleaned. The main text gives each reading a tree of its own, which the reading
may change (:func:`webrobot.extract.trafilaturacompat.read`), so during such a reading
:class:`PrepareStandIn` cleans that tree itself and keeps no backup: the same cleaned,
converted tree as trafilatura's, without the copies (two of the tree on every precise
reading of an article, about 3% of the main text's CPU on the article benchmark). Any
other reading, and any caller of trafilatura outside the main text's readings, runs
trafilatura's own preparation.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from copy import copy
from typing import Any


class PrepareStandIn:
    """Stands in for ``trafilatura.core._prepare_tree(tree, options, url)``, which returns
    the cleaned, converted copy of ``tree`` and a backup of the cleaned one: while
    ``active()`` says a main-text reading runs and the reading is fast and without
    comments, the same without the backup (``None``) and, if it favours precision,
    ``tree`` itself cleaned; otherwise trafilatura's own."""

    def __init__(self, prepare: Callable[..., Any], active: Callable[[], bool]) -> None:
        self.prepare = prepare
        self.active = active

    def __call__(self, tree: Any, options: Any, url: str | None) -> tuple[Any, Any]:
        if not self.active() or options.comments or not options.fast:
            return self.prepare(tree, options, url)
        core = importlib.import_module("trafilatura.core")  # its names, as it calls them
        raw = tree if options.focus == "precision" else copy(tree)
        cleaned = core.tree_cleaning(raw, options)
        return core.convert_tags(cleaned, options, url), None


def stand_in(name: str, kind: type, make: Callable[[Callable[..., Any]], Any]) -> bool:
    """Puts ``make(current)`` in the place of ``trafilatura.core.<name>`` unless a
    ``kind`` is there already; whether one is in place (not when trafilatura has moved
    or renamed it)."""
    core = importlib.import_module("trafilatura.core")
    current = getattr(core, name, None)
    if isinstance(current, kind):
        return True
    if not callable(current):
        return False
    setattr(core, name, make(current))
    return True


def install(active: Callable[[], bool]) -> bool:
    """Puts a :class:`PrepareStandIn` in the place of trafilatura's preparation (unless
    one is there); whether one is in place. ``active`` tells a main-text reading."""
    return stand_in(
        "_prepare_tree", PrepareStandIn, lambda current: PrepareStandIn(current, active)
    )
