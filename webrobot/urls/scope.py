"""Which URLs belong to a crawl: the start sites (or allowed domains) and the
``allow`` / ``deny`` patterns of a site config. Pure logic.

:meth:`SiteScope.refusal` is given the canonical URL
(:mod:`webrobot.urls.canonical`): hosts in punycode, default port dropped, aliases
folded, so patterns are written against one spelling of each URL."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from webrobot.urls.canonical import canonical_url
from webrobot.urls.sitekey import site_key_from_parts

OFFSITE = "offsite"
DENY_PATTERN = "deny_pattern"
NOT_ALLOWED = "not_allowed"


class SiteScope:
    """Stay on the start URLs' sites (scheme, host and port) unless
    ``allowed_domains`` widens the scope to those domains and their subdomains
    (any scheme or port, as Scrapy's ``allowed_domains`` does)."""

    def __init__(
        self,
        start_urls: Iterable[str] = (),
        allowed_domains: Iterable[str] = (),
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
    ) -> None:
        # Canonical (punycode) hosts, as the URLs checked against them have.
        self.sites = frozenset(site_key_from_parts(urlsplit(canonical_url(u))) for u in start_urls)
        self.domains = tuple(_ascii_domain(d) for d in allowed_domains)
        self.allow = [re.compile(p) for p in allow]
        self.deny = [re.compile(p) for p in deny]

    def refusal(self, url: str) -> str | None:
        """The reason ``url`` is out of scope, or ``None`` when it is in scope."""
        parts = urlsplit(url)
        if self.domains:
            host = (parts.hostname or "").lower()
            if not any(host == d or host.endswith("." + d) for d in self.domains):
                return OFFSITE
        elif self.sites and site_key_from_parts(parts) not in self.sites:
            return OFFSITE
        if any(p.search(url) for p in self.deny):
            return DENY_PATTERN
        if self.allow and not any(p.search(url) for p in self.allow):
            return NOT_ALLOWED
        return None


#: Refusals an embed (a page requisite) is spared when close enough to an in-scope page.
EMBED_PASSES = frozenset({OFFSITE, NOT_ALLOWED})
TOO_MANY_HOPS = "requisite_hops"


def requisite_refusal(refusal: str | None, hops: int, max_hops: int) -> str | None:
    """The refusal of a page requisite ``hops`` embeds from an in-scope page: off
    the crawl's sites (or outside its ``allow`` patterns) it passes within
    ``max_hops`` (Heritrix's ``maxTransHops``); ``deny`` patterns still refuse it."""
    if refusal in EMBED_PASSES:
        return None if hops <= max_hops else TOO_MANY_HOPS
    return refusal


def _ascii_domain(domain: str) -> str:
    domain = domain.lower().lstrip(".")
    try:
        return domain.encode("idna").decode("ascii")
    except UnicodeError:
        return domain
