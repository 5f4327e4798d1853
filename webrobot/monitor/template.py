"""A site's template: the sentences most of its pages repeat (footers, menus, pleas).

Pure: no Scrapy, no I/O. A block of text that most pages of a site carry (a
footer's copyright line, a sidebar, a donation plea, "related posts") is the
site's template, not a page's content: the monitor leaves it out when it judges
a page, and tells a change of the template once for the site
(:func:`template_change`), not once per page.

:class:`TemplateLearner` is fed each page's sentences as the crawl judges it
(the first :data:`SAMPLE` pages of each site); :meth:`TemplateLearner.learnt`
answers the sentences seen on at least ``share`` of a site's pages, once at least
``min_pages`` pages were seen. Sentences are compared in their normalised form
(:func:`~webrobot.monitor.snapshot.normalise`): a footer's timestamp or counter does
not split it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from webrobot.monitor.snapshot import normalise

#: Pages of one site a crawl learns its template from (the first ones judged).
SAMPLE = 500
#: Share of a site's pages a sentence must be on to be template.
SHARE = 0.5
#: Most template sentences kept for one site (the most frequent first).
MAX_SENTENCES = 500


def site_of(url: str) -> str:
    """The site a page belongs to: its scheme and host (``https://example.org``)."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}" + (
        f":{parts.port}" if parts.port else ""
    )


@dataclass(frozen=True)
class Template:
    """A site's template: normalised sentence -> the sentence as a page wrote it."""

    sentences: Mapping[str, str] = field(default_factory=dict)
    #: Pages it was learnt from.
    pages: int = 0

    @property
    def forms(self) -> frozenset[str]:
        return frozenset(self.sentences)

    def to_text(self) -> str:
        return json.dumps({"s": dict(self.sentences), "p": self.pages}, ensure_ascii=False,
                          separators=(",", ":"), sort_keys=True)  # fmt: skip

    @classmethod
    def from_text(cls, text: str) -> Template:
        """A template as :meth:`to_text` wrote it; an empty one when it cannot be read."""
        try:
            data = json.loads(text)
            sentences = {str(k): str(v) for k, v in dict(data.get("s") or {}).items()}
            return cls(sentences, int(data.get("p") or 0))
        except (ValueError, TypeError, AttributeError):
            return cls()


class TemplateLearner:
    """Counts, per site, on how many pages each sentence appears (see the module doc)."""

    def __init__(self, sample: int = SAMPLE) -> None:
        self.sample = sample
        self._pages: Counter[str] = Counter()
        self._seen: dict[str, Counter[str]] = {}
        self._example: dict[str, dict[str, str]] = {}

    def add(self, url: str, sentences: Iterable[str]) -> None:
        """One page's sentences (a sentence twice on a page counts once)."""
        site = site_of(url)
        if self._pages[site] >= self.sample:
            return
        self._pages[site] += 1
        seen = self._seen.setdefault(site, Counter())
        example = self._example.setdefault(site, {})
        forms: dict[str, str] = {}
        for sentence in sentences:
            forms.setdefault(normalise(sentence), sentence)
        for form, sentence in forms.items():
            seen[form] += 1
            example.setdefault(form, sentence)

    def sites(self) -> list[str]:
        return sorted(self._pages)

    def pages(self, site: str) -> int:
        return self._pages[site]

    def learnt(
        self, site: str, min_pages: int, share: float = SHARE, known: Template | None = None
    ) -> Template | None:
        """The site's template, or None when fewer than ``min_pages`` pages were seen.
        A sentence of the ``known`` template (the one stored) stays in it while it is on
        half of ``share`` of the pages, so a sentence near the line does not flap."""
        pages = self._pages[site]
        if min_pages <= 0 or pages < min_pages:
            return None
        needed, staying = max(2, share * pages), max(2, share * pages / 2)
        kept = known.forms if known is not None else frozenset()
        seen, example = self._seen.get(site, Counter()), self._example.get(site, {})
        common = [
            form for form, count in seen.most_common()
            if count >= needed or (form in kept and count >= staying)
        ]  # fmt: skip
        return Template({f: example[f] for f in sorted(common[:MAX_SENTENCES])}, pages)


def template_change(old: Template | None, new: Template | None) -> dict[str, Any] | None:
    """``{"added", "removed"}`` sentences between a site's stored template and the one
    learnt now, or None when there is nothing to tell (no template before or now, or
    the same sentences)."""
    if old is None or new is None or not old.sentences or old.forms == new.forms:
        return None
    added = [new.sentences[f] for f in sorted(new.forms - old.forms)]
    removed = [old.sentences[f] for f in sorted(old.forms - new.forms)]
    return {"added": added, "removed": removed}
