"""URL templates: endless dynamic URL spaces (calendars, endless pagination)
told apart from large real sites. Pure logic: no Scrapy, no I/O.

:func:`url_template` collapses URLs that differ only in numbers, dates, long
hexadecimal ids or query values into one template::

    https://a.example/cal/2026/11/24?view=day  ->  https://a.example/cal/{n}/{n}/{n}?view={v}
    https://a.example/product/1234             ->  https://a.example/product/{n}

Two limits per template (:class:`TemplateRules`):

* **chain**: how many pages of one template in a row, each reached from the
  page before it, a crawl may follow. A calendar's day links to the next day,
  an endless list's page to the next page: each new page is one link further
  along the same template. A catalog is different: its 2,000 product pages are
  each one step away from a listing page of another template, so each
  product's chain is 0 however many there are.
* **pages**: how many pages of one template are requested in all, a bound on
  templates that fan out without chains (a month view linking to all its days).

A site config can raise or lower both for the URLs matching a pattern
(:class:`TemplateOverride`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

TEMPLATE_CHAIN = "template_chain"
TEMPLATE_BUDGET = "template_budget"

_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{4}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX_ID = re.compile(
    r"(?<![0-9A-Za-z])(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{16,}(?![0-9A-Za-z])"
)
_NUMBER = re.compile(r"\d+")


def _collapse(text: str) -> str:
    if not any(c.isdigit() for c in text):
        return text
    text = _UUID.sub("{id}", text)
    text = _HEX_ID.sub("{id}", text)
    text = _DATE.sub("{date}", text)
    return _NUMBER.sub("{n}", text)


def url_template(url: str) -> str:
    """The template of ``url``: numbers, dates and ids in the path become
    ``{n}``, ``{date}`` and ``{id}``; query values become ``{v}`` and the
    parameter names are sorted and deduplicated; the fragment is dropped."""
    parts = urlsplit(url)
    template = f"{parts.scheme.lower()}://{parts.netloc.lower()}{_collapse(parts.path) or '/'}"
    if parts.query:
        names = sorted(
            {_collapse(name) for name, _ in parse_qsl(parts.query, keep_blank_values=True)}
        )
        if names:
            template += "?" + "&".join(f"{name}={{v}}" for name in names)
    return template


def next_chain(parent_template: str | None, parent_chain: int, child_template: str) -> int:
    """The chain length of a link: one more than its page's if both share a
    template, else 0 (the link starts a new chain)."""
    return parent_chain + 1 if parent_template == child_template else 0


@dataclass(frozen=True)
class TemplateOverride:
    """Limits for URLs whose path (with query) matches ``pattern`` (``re.search``);
    ``None`` keeps the default, ``0`` means no limit."""

    pattern: str
    max_chain: int | None = None
    max_pages: int | None = None

    def matches(self, path_and_query: str) -> bool:
        return re.search(self.pattern, path_and_query) is not None


@dataclass(frozen=True)
class TemplateRules:
    """``0`` switches a limit off."""

    max_chain: int = 100
    max_pages: int = 10_000
    overrides: tuple[TemplateOverride, ...] = ()

    def limits(self, url: str) -> tuple[int, int]:
        """``(max_chain, max_pages)`` for ``url``: the first matching override's, else the defaults."""
        if self.overrides:
            parts = urlsplit(url)
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            for override in self.overrides:
                if override.matches(target):
                    return (
                        self.max_chain if override.max_chain is None else override.max_chain,
                        self.max_pages if override.max_pages is None else override.max_pages,
                    )
        return self.max_chain, self.max_pages


@dataclass
class TemplateTally:
    """Pages requested and URLs refused per template, for the limits and the report."""

    pages: Counter[str] = field(default_factory=Counter)
    refused: dict[str, Counter[str]] = field(default_factory=dict)
    longest_chain: dict[str, int] = field(default_factory=dict)

    def check(self, rules: TemplateRules, url: str, chain: int) -> tuple[str, str, str] | None:
        """``(reason, template, detail)`` when ``url`` (at ``chain``) must not be
        requested; else spend one page of its template and return ``None``."""
        template = url_template(url)
        max_chain, max_pages = rules.limits(url)
        if max_chain and chain > max_chain:
            return self._refuse(
                template, TEMPLATE_CHAIN, f"chain of {chain} pages of {template} > {max_chain}"
            )
        used = self.pages[template]
        if max_pages and used >= max_pages:
            return self._refuse(
                template, TEMPLATE_BUDGET, f"{template} has had its {max_pages} pages"
            )
        self.pages[template] = used + 1
        if chain > self.longest_chain.get(template, -1):
            self.longest_chain[template] = chain
        return None

    def _refuse(self, template: str, reason: str, detail: str) -> tuple[str, str, str]:
        self.refused.setdefault(template, Counter())[reason] += 1
        return reason, template, detail

    def single_urls(self) -> int:
        """Templates that are one URL fetched once, nothing refused (the report leaves them out)."""
        return sum(1 for t, n in self.pages.items() if n <= 1 and t not in self.refused)

    def report(self, limit: int = 50) -> list[dict[str, object]]:
        """The templates that had refusals, then the busiest, at most ``limit`` of them."""
        refused = sorted(self.refused, key=lambda t: (-sum(self.refused[t].values()), t))
        busiest = [t for t, _ in sorted(self.pages.items(), key=lambda kv: (-kv[1], kv[0]))]
        chosen: list[str] = []
        for template in [*refused, *busiest]:
            if template not in chosen:
                chosen.append(template)
            if len(chosen) >= limit:
                break
        return [
            {
                "template": t,
                "pages": self.pages.get(t, 0),
                "longest_chain": self.longest_chain.get(t, 0),
                "refused": dict(self.refused.get(t, {})),
            }
            for t in chosen
        ]
