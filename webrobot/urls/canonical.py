"""Canonical URLs: one spelling per resource, so that aliases of one page are
downloaded once and ``deny`` / blocklist patterns see one form. Pure logic.

The canonical form is w3lib's :func:`~w3lib.url.canonicalize_url` (what
Scrapy's default fingerprint uses: scheme and host lower-cased, IDN host to
punycode, percent-escapes normalised so ``%7E`` is ``~`` and ``%7e`` is
``%7E``, dot segments resolved, query parameters sorted, empty query and
fragment removed) plus:

* the default port removed (``http://a:80/`` is ``http://a/``), which w3lib
  keeps, and so is the trailing dot of a fully qualified host name
  (``http://a.example./`` is ``http://a.example/``: DNS resolves both to one
  host, and a blocklist entry must not miss either);
* per-site alias rules from the site config: ``index_pages`` (a last path
  segment equal to one of them is dropped, so ``/dir/index.html`` is ``/dir/``)
  and ``strip_params`` (query parameters, and ``;name=value`` path parameters
  such as ``;jsessionid=``, whose name matches one of them are dropped; ``*``
  matches any run of characters; names compare case-insensitively).

Paths keep their case: whether a server treats ``/A`` and ``/a`` as one page is
not assumed. The canonical URL is used to compare URLs; the request itself is
sent as the page spelled it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import unquote_plus, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

from webrobot.urls.sitekey import DEFAULT_PORTS

#: Canonical URLs remembered per :class:`Canonicalizer` (a URL is usually
#: canonicalised by the fingerprinter, the scope check and the blocklist).
CACHE_SIZE = 4096


def _normal_netloc(scheme: str, netloc: str) -> str:
    """Default port dropped, and the trailing dot of a fully qualified host name
    (``example.com.`` resolves to the host ``example.com`` does)."""
    userinfo, at, hostport = netloc.rpartition("@")
    host, sep, port = hostport.rpartition(":")
    if not (sep and port.isdigit()):  # no port (an IPv6 literal's colons are not one)
        host, port = hostport, ""
    elif int(port) == DEFAULT_PORTS.get(scheme):
        port = ""
    if host.endswith(".") and not host.endswith(".."):
        host = host[:-1]
    return f"{userinfo}{at}{host}{':' if port else ''}{port}"


class ParamMatcher:
    """Does a parameter name match one of the ``strip_params`` globs?

    Exact names are a set lookup and ``prefix*`` globs a ``startswith``; only
    other globs need a (single, combined) regular expression.
    """

    def __init__(self, globs: Iterable[str]) -> None:
        exact: set[str] = set()
        prefixes: list[str] = []
        others: list[str] = []
        for glob in globs:
            name = glob.casefold()
            if "*" not in name:
                exact.add(name)
            elif name.endswith("*") and "*" not in name[:-1]:
                prefixes.append(name[:-1])
            else:
                others.append(".*".join(re.escape(part) for part in name.split("*")))
        self.exact = frozenset(exact)
        self.prefixes = tuple(prefixes)
        self.pattern = re.compile("|".join(others)) if others else None

    def __bool__(self) -> bool:
        return bool(self.exact or self.prefixes or self.pattern)

    def __call__(self, name: str) -> bool:
        if "%" in name or "+" in name:
            name = unquote_plus(name)
        name = name.casefold()
        if name in self.exact or name.startswith(self.prefixes):
            return True
        return self.pattern is not None and self.pattern.fullmatch(name) is not None


def _index_page_spelling(name: str) -> str:
    """``name`` spelled as it appears in a canonical path (``ü`` -> ``%C3%BC``)."""
    return canonicalize_url("http://x/" + name).split("/", 3)[3]


class Canonicalizer:
    """``Canonicalizer(index_pages, strip_params)(url)`` -> the canonical URL."""

    def __init__(self, index_pages: Iterable[str] = (), strip_params: Iterable[str] = ()) -> None:
        self.index_pages = frozenset(_index_page_spelling(name) for name in index_pages if name)
        self.strip = ParamMatcher(strip_params)
        self._cached = lru_cache(maxsize=CACHE_SIZE)(self._canonical)

    def __call__(self, url: str) -> str:
        return self._cached(url)

    def _canonical(self, url: str) -> str:
        try:
            canonical = canonicalize_url(url)
        except ValueError:  # a URL that cannot be parsed is its own canonical form
            return url
        scheme, netloc, path, query, _ = urlsplit(canonical)
        if not netloc:  # "http:////x": urlunsplit would make "x" the host
            return canonical
        netloc = _normal_netloc(scheme, netloc)
        if self.strip:
            if query:
                query = "&".join(p for p in query.split("&") if not self.strip(p.split("=", 1)[0]))
            head, slash, last = path.rpartition("/")
            if ";" in last:
                name, *params = last.split(";")
                kept = [p for p in params if not self.strip(p.split("=", 1)[0])]
                path = head + slash + ";".join([name, *kept])
        if self.index_pages:
            head, slash, last = path.rpartition("/")
            if last in self.index_pages:
                path = head + slash
        return urlunsplit((scheme, netloc, path, query, ""))


@lru_cache(maxsize=64)
def canonicalizer(
    index_pages: tuple[str, ...] = (), strip_params: tuple[str, ...] = ()
) -> Canonicalizer:
    """A shared :class:`Canonicalizer` per rule set (compiled once)."""
    return Canonicalizer(index_pages, strip_params)


def canonicalizer_for(config: object | None) -> Canonicalizer:
    """The canonicalizer of a site config (a ``SiteConfig``, or ``None`` for no rules)."""
    return canonicalizer(
        tuple(getattr(config, "index_pages", ()) or ()),
        tuple(getattr(config, "strip_params", ()) or ()),
    )


def canonical_url(
    url: str, index_pages: Iterable[str] = (), strip_params: Iterable[str] = ()
) -> str:
    """The canonical form of ``url`` under the given alias rules."""
    return canonicalizer(tuple(index_pages), tuple(strip_params))(url)
