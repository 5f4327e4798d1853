"""Read one sitemap file with Scrapy's helpers: :class:`scrapy.utils.sitemap.Sitemap`
(lxml, entities not resolved) and :func:`scrapy.utils.gz.gunzip` (with a size cap).

Scrapy's parser is used rather than our own because it is maintained with
Scrapy, streams the file (``iterparse``), refuses external entities and
copes with namespaces; this module adds the protocol's limits and turns every
way a file can be bad into a named problem instead of an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy.utils._compression import _DecompressionMaxSizeExceeded
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap

from webrobot.sitemaps.entries import MAX_BYTES, MAX_URLS, SitemapEntry, entry_from

URLSET = "urlset"
INDEX = "sitemapindex"

#: problems (stats key ``webrobot/sitemap/bad/<problem>``)
BAD_GZIP = "gzip"
TOO_BIG = "too_big"
BAD_XML = "xml"
NOT_A_SITEMAP = "not_a_sitemap"


@dataclass
class SitemapRead:
    kind: str = ""  # URLSET or INDEX when readable
    entries: list[SitemapEntry] = field(default_factory=list)
    problem: str = ""  # why nothing could be read
    truncated: bool = False  # more than max_urls entries: the rest is ignored
    skipped: int = 0  # entries without a usable <loc>
    xml_errors: int = 0  # errors lxml recovered from (entries read despite them are kept)


def read_sitemap(body: bytes, max_urls: int = MAX_URLS, max_bytes: int = MAX_BYTES) -> SitemapRead:
    """The entries of a sitemap or sitemap index (gzip-compressed or not)."""
    if body[:3] == b"\x1f\x8b\x08":
        try:
            body = gunzip(body, max_size=max_bytes)
        except _DecompressionMaxSizeExceeded:
            return SitemapRead(problem=TOO_BIG)
        except (OSError, EOFError, ValueError):
            return SitemapRead(problem=BAD_GZIP)
    if max_bytes and len(body) > max_bytes:
        return SitemapRead(problem=TOO_BIG)
    if not body.strip():
        return SitemapRead(problem=BAD_XML)
    try:
        sitemap = Sitemap(body)
    except Exception:  # noqa: BLE001 - lxml raises several types on broken input
        return SitemapRead(problem=BAD_XML)
    if sitemap.type not in (URLSET, INDEX):
        return SitemapRead(problem=NOT_A_SITEMAP)
    read = SitemapRead(kind=sitemap.type)
    try:
        for fields in sitemap:
            entry = entry_from(fields)
            if entry is None:
                read.skipped += 1
                continue
            if max_urls and len(read.entries) >= max_urls:
                read.truncated = True
                break
            read.entries.append(entry)
    except Exception:  # noqa: BLE001 - broken after a good start: keep what was read
        read.xml_errors += 1
    read.xml_errors += len(sitemap.xmliter.error_log)
    if read.xml_errors and not read.entries:
        return SitemapRead(problem=BAD_XML)
    return read
