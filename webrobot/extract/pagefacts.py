"""What the main text's mendings of a page's reading copy need to know of the page
itself, read once from the crawl's tree before the copy is pruned (the pruning drops
the ``<head>``'s links and the scripts these are read from).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webrobot.extract.seealso import own_host
from webrobot.extract.textdivs import built_before_html5


@dataclass(frozen=True)
class PageFacts:
    #: The host of the page's own site, without ``www.`` (:func:`~webrobot.extract.seealso.own_host`).
    own_host: str | None = None
    #: Whether the page is built as before HTML5
    #: (:func:`~webrobot.extract.textdivs.built_before_html5`).
    legacy: bool = False


def page_facts(tree: Any, url: str | None) -> PageFacts:
    """The :class:`PageFacts` of the page whose tree is ``tree``, fetched from ``url``."""
    return PageFacts(own_host(tree, url), built_before_html5(tree))
