"""What a fetch was for: a page, an image, another page requisite, a document, a
sitemap or a site's robots.txt. The report, the progress line and the stats count
each kind apart, all through :func:`fetch_kind`. Pure: no Scrapy, no I/O.

A fetch's kind is read from the marks the crawl's components put on its request,
never guessed from its path, except for a document, whose link is followed for
its extension (``.pdf``) and which is known by its declared type once it answers:

* ``robots``: the robots.txt middleware's mark (:data:`webrobot.signals.ROBOTS_FETCH_META`);
* ``image`` and ``requisite``: a page requisite's mark
  (:data:`webrobot.signals.REQUISITE_META`), whose kind ``image`` covers the images
  the mining describes and those the archive keeps; any other kind (stylesheet,
  script, font...) is a ``requisite``;
* ``sitemap``: a sitemap fetch's mark (:data:`webrobot.signals.SITEMAP_META`);
* ``document``: a response declaring a document type (PDF), or with a PDF signature
  under a type that says nothing; with no response, a URL with a document extension;
* ``page``: anything else the spider asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webrobot.pages.contenttypes import mime_type
from webrobot.signals import REQUISITE_META, ROBOTS_FETCH_META, SITEMAP_META
from webrobot.urls.documents import has_document_extension, is_document

PAGE = "page"
IMAGE = "image"
DOCUMENT = "document"
REQUISITE = "requisite"
SITEMAP = "sitemap"
ROBOTS = "robots"
#: Every kind, in the order the report and the progress line show them.
KINDS = (PAGE, IMAGE, DOCUMENT, REQUISITE, SITEMAP, ROBOTS)

#: How a person reads a count of each kind: (one, many).
_NAMES = {
    PAGE: ("page", "pages"),
    IMAGE: ("image", "images"),
    DOCUMENT: ("document", "documents"),
    REQUISITE: ("other requisite", "other requisites"),
    SITEMAP: ("sitemap", "sitemaps"),
    ROBOTS: ("robots.txt", "robots.txt"),
}


def fetch_kind(
    meta: Mapping[str, Any],
    url: str,
    content_type: str | bytes | None = None,
    body: bytes = b"",
) -> str:
    """The kind of a fetch from its request's ``meta`` and ``url`` and, once it
    answered, the response's declared ``content_type`` and ``body`` (whose first
    bytes are read only under a type that says nothing)."""
    if meta.get(ROBOTS_FETCH_META):
        return ROBOTS
    requisite = meta.get(REQUISITE_META)
    if requisite is not None:
        return IMAGE if requisite == IMAGE else REQUISITE
    if meta.get(SITEMAP_META) is not None:
        return SITEMAP
    if content_type is not None:
        if isinstance(content_type, bytes):
            content_type = content_type.decode("latin-1")
        return DOCUMENT if is_document(mime_type(content_type), body) else PAGE
    return DOCUMENT if has_document_extension(url) else PAGE


def kind_count(kind: str, n: int) -> str:
    """``1 page``, ``20 images``, ``13 robots.txt``."""
    one, many = _NAMES.get(kind, (kind, kind))
    return f"{n} {one if n == 1 else many}"


def kinds_line(counts: Mapping[str, int], skip: tuple[str, ...] = ()) -> str:
    """``50 pages, 20 images, 13 robots.txt``: the kinds with a count, in :data:`KINDS`
    order (unknown ones last), leaving out ``skip``."""
    order = [k for k in KINDS if k in counts] + sorted(set(counts) - set(KINDS))
    return ", ".join(kind_count(k, counts[k]) for k in order if counts[k] and k not in skip)
