"""Which URLs belong to a crawl: the start URLs' hosts (or allowed domains) and the
``allow`` / ``deny`` patterns of a site config. Pure logic.

One setting (``WEBROBOT_SCOPE``, a site config's ``scope`` key) says what a
start URL brings into scope:

``host`` (default)
    its host, any scheme: a start at ``http://example.com/`` crawls
    ``https://example.com/`` too, as a person means it (the host key of
    :mod:`webrobot.urls.sitekey`: another port stays another site). Heritrix
    treats https as http in its scope prefixes; Scrapy's offsite filter
    matches host names.
``origin``
    its exact scheme, host and port (strict).
``domain``
    its registered domain and every name under it (``www.``, ``static.``...),
    from the Public Suffix List.

A start URL's redirects before its first page add their target
(:meth:`SiteScope.add`): a start at ``http://example.com/`` that ends at
``https://www.example.com/`` crawls ``www.example.com`` (Heritrix's
``seedsRedirectNewSeeds``). ``allowed_domains`` replaces the start URLs' hosts
with those domains and their subdomains (any scheme or port, as Scrapy's).

:meth:`SiteScope.refusal` is given the canonical URL
(:mod:`webrobot.urls.canonical`): hosts in punycode, default port dropped, aliases
folded, so patterns are written against one spelling of each URL."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Protocol
from urllib.parse import SplitResult, urlsplit

from webrobot.urls.canonical import canonical_url
from webrobot.urls.sitekey import host_key_from_parts, site_key_from_parts, split_port

OFFSITE = "offsite"
DENY_PATTERN = "deny_pattern"
NOT_ALLOWED = "not_allowed"

HOST, ORIGIN, DOMAIN = "host", "origin", "domain"
SCOPES = (HOST, ORIGIN, DOMAIN)


class Downgrades(Protocol):
    def downgrade(self, url: str) -> str | None: ...


class SharedScope(Protocol):
    """Scope keys added by any worker of a shared crawl (:mod:`webrobot.distributed.scope`)."""

    def add(self, key: str) -> None: ...

    def has(self, key: str) -> bool: ...


class SiteScope:
    """Stay on the start URLs' hosts (or origins, or registered domains: ``mode``)
    unless ``allowed_domains`` widens the scope to those domains and their
    subdomains (any scheme or port, as Scrapy's ``allowed_domains`` does).
    ``domain_of`` gives a host name's registered domain (``mode="domain"``)."""

    def __init__(
        self,
        start_urls: Iterable[str] = (),
        allowed_domains: Iterable[str] = (),
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
        mode: str = HOST,
        domain_of: Callable[[str], str] | None = None,
    ) -> None:
        # Canonical (punycode) hosts, as the URLs checked against them have.
        self.start_urls = tuple(start_urls)
        self.domains = tuple(_ascii_domain(d) for d in allowed_domains)
        self.allow = [re.compile(p) for p in allow]
        self.deny = [re.compile(p) for p in deny]
        #: The learnt upgrades (:class:`webrobot.urls.upgrade.UpgradeRules`): the https
        #: form of an in-scope http URL is in scope too, whatever its port.
        self.upgrades: Downgrades | None = None
        #: The keys other workers of a shared crawl added (their start URLs' redirects).
        self.shared: SharedScope | None = None
        self.set_mode(mode, domain_of)

    def set_mode(self, mode: str, domain_of: Callable[[str], str] | None = None) -> None:
        """What a start URL brings into scope (see the module doc); forgets added targets."""
        if mode not in SCOPES:
            raise ValueError(f"scope {mode!r}: expected one of {', '.join(SCOPES)}")
        if mode == DOMAIN and domain_of is None:
            raise ValueError("the domain scope needs a registered-domain function")
        self.mode = mode
        self.domain_of = domain_of
        self.sites = {self.key(urlsplit(canonical_url(u))) for u in self.start_urls}

    def key(self, parts: SplitResult) -> str:
        """What of a URL the scope compares with its start URLs'."""
        if self.mode == HOST:
            return host_key_from_parts(parts)
        if self.mode == ORIGIN:
            return site_key_from_parts(parts)
        name, _ = split_port(host_key_from_parts(parts))
        assert self.domain_of is not None
        return self.domain_of(name)

    def add(self, url: str) -> bool:
        """Bring ``url``'s host (origin, domain) into scope, as a start URL's
        redirect target; ``False`` when it was in scope already, or when
        ``allowed_domains`` decides the scope."""
        if self.domains or not self.sites:
            return False
        key = self.key(urlsplit(url))
        if key in self.sites:
            return False
        self.sites.add(key)
        if self.shared is not None:
            self.shared.add(key)
        return True

    def refusal(self, url: str) -> str | None:
        """The reason ``url`` is out of scope, or ``None`` when it is in scope."""
        parts = urlsplit(url)
        if self.domains:
            host = (parts.hostname or "").lower()
            if not any(host == d or host.endswith("." + d) for d in self.domains):
                return OFFSITE
        elif self.sites and self.key(parts) not in self.sites and not self._elsewhere(url, parts):
            return OFFSITE
        if any(p.search(url) for p in self.deny):
            return DENY_PATTERN
        if self.allow and not any(p.search(url) for p in self.allow):
            return NOT_ALLOWED
        return None

    def _elsewhere(self, url: str, parts: SplitResult) -> bool:
        """In scope after all: the https form of an in-scope http URL, or a key another
        worker added."""
        http = self.upgrades.downgrade(url) if self.upgrades is not None else None
        if http is not None and self.key(urlsplit(http)) in self.sites:
            return True
        if self.shared is not None:
            key = self.key(parts)
            if self.shared.has(key):
                self.sites.add(key)
                return True
        return False


def _ascii_domain(domain: str) -> str:
    domain = domain.lower().lstrip(".")
    try:
        return domain.encode("idna").decode("ascii")
    except UnicodeError:
        return domain
