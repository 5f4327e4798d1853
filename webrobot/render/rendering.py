"""Which pages a browser renders, and which of the browser's own requests may
go out. Pure logic: no Scrapy, no browser, no I/O.

A page is rendered when the crawl's render mode is ``"browser"`` (a site
config's ``render = "browser"``), or when its request asks for it with the meta
key ``render = "browser"`` (then the mode must be ``"on-request"`` or
``"browser"``, so that the browser is there). robots.txt, sitemaps and other
internal fetches are never rendered.

While a page renders, the browser requests scripts, styles and data. Each such
sub-request is classified by :func:`classify_subrequest`: pictures, media and
fonts are not fetched at all (they cannot add links, and they would multiply
the load on the site); ``data:`` and ``blob:`` URLs need no network; every other
URL must pass robots.txt like any request of the crawl (checked by the glue).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlsplit

OFF = ""
BROWSER = "browser"
ON_REQUEST = "on-request"
MODES = (OFF, BROWSER, ON_REQUEST)

#: sub-request classes
LOCAL = "local"  # data:, blob:, about: - no network
SKIPPED_TYPE = "skipped_type"  # a resource type never fetched while rendering
NOT_HTTP = "not_http"
CHECK = "check"  # must pass robots.txt

DEFAULT_BLOCKED_TYPES = ("image", "media", "font")


def check_mode(value: str) -> str:
    mode = (value or "").strip().lower()
    if mode not in MODES:
        raise ValueError(f"expected one of {', '.join(repr(m) for m in MODES)}, got {value!r}")
    return mode


def wants_browser(mode: str, meta: Mapping[str, Any], internal: bool) -> bool:
    """Whether a request is rendered, given the crawl's mode and the request's meta."""
    if internal or mode == OFF:
        return False
    asked = meta.get("render")
    if asked is not None:
        return str(asked).lower() == BROWSER
    return mode == BROWSER


def classify_subrequest(url: str, resource_type: str, blocked_types: Collection[str]) -> str:
    scheme = urlsplit(url).scheme.lower()
    if scheme in ("data", "blob", "about"):
        return LOCAL
    if resource_type in blocked_types:
        return SKIPPED_TYPE
    if scheme not in ("http", "https"):
        return NOT_HTTP
    return CHECK
