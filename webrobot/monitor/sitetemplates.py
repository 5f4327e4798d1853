"""The sites' templates during one crawl: learnt from its pages, kept with the state.

Scrapy-free: the rules are :mod:`webrobot.monitor.template`; this keeps what a
crawl learns and the store's templates it read, and holds the pages whose change
waits for the end of the crawl, when each site's new template is known (a new
footer on every page is then the site's change, told once, not each page's).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from webrobot.monitor import events
from webrobot.monitor.template import TemplateLearner, site_of, template_change

if TYPE_CHECKING:
    from webrobot.monitor.snapshot import Snapshot
    from webrobot.monitor.store import PageStore

logger = logging.getLogger(__name__)

#: Most changed pages held for the end of the crawl; past it a page is judged at once,
#: against the template kept at the last crawl.
HOLD = 5000
#: Times a site's template is kept again when a shared store's copy changed meanwhile.
ATTEMPTS = 5


@dataclass(frozen=True)
class Held:
    """A page whose change waits for the end of the crawl."""

    url: str
    snapshot: Snapshot
    matches: list[dict[str, Any]]


class SiteTemplates:
    """What one crawl knows of its sites' templates (``min_pages`` 0: nothing learnt)."""

    def __init__(self, min_pages: int, hold: int = HOLD) -> None:
        self.min_pages = min_pages
        self.limit = hold
        self.learner = TemplateLearner()
        self.known: dict[str, frozenset[str]] = {}
        self.held: list[Held] = []
        #: sites with pages re-baselined in this crawl: their template is re-learnt quietly
        self.rebaselined: set[str] = set()
        self._full = False

    def add(self, url: str, sentences: tuple[str, ...]) -> None:
        if self.min_pages:
            self.learner.add(url, sentences)

    def kept(self, store: PageStore, url: str) -> frozenset[str]:
        """The sentences of the page's site's template as kept at the last crawl."""
        site = site_of(url)
        forms = self.known.get(site)
        if forms is None:
            stored = store.template(site) if self.min_pages else None
            forms = self.known[site] = stored.template.forms if stored else frozenset()
        return forms

    def hold(
        self, url: str, snapshot: Snapshot, matches: list[dict[str, Any]], shared: bool = False
    ) -> bool | None:
        """Hold a changed page for the end of the crawl: True if held; False if learning is
        off or the store ``shared`` (each worker of a shared crawl closes at its own time,
        and its feed must hold the others' events); None if too many are held already."""
        if not self.min_pages or shared:
            return False
        if len(self.held) >= self.limit:
            if not self._full:
                logger.info("Monitor: %d changed pages wait for their sites' templates; "
                            "the next are judged at once", self.limit)  # fmt: skip
                self._full = True
            return None
        self.held.append(Held(url, snapshot, matches))
        return True

    def take(self) -> list[Held]:
        held, self.held = self.held, []
        return held

    def learn(
        self, store: PageStore, site: str, time: str
    ) -> tuple[frozenset[str], list[dict[str, Any]], bool] | None:
        """Keep the site's template learnt in this crawl. ``(sentences, events, first)``:
        the sentences of the old and the new template, which held pages are judged without;
        the ``template_changed`` event told, if any; whether it is the site's first. None
        when a shared store's template kept changing under it."""
        before = self.kept(store, site + "/")
        for _ in range(ATTEMPTS):
            stored = store.template(site)
            old = stored.template if stored is not None else None
            new = self.learner.learnt(site, self.min_pages, known=old)
            if new is None:
                return before, [], False
            # Under new rules or extractors the template is re-learnt as the pages are: quietly.
            change = None if site in self.rebaselined else template_change(old, new)
            found = [] if change is None else [
                events.template_changed(site, time, change["added"], change["removed"], new.pages)
            ]  # fmt: skip
            if store.keep_template(site, new, time, found, expected=stored):
                return before | new.forms, found, old is None
        return None
