"""What the extractors read, as one version string.

Pure: no Scrapy, no I/O. The monitor (:mod:`webrobot.monitor.baseline`) keeps
this with every snapshot: a snapshot taken by an extractor that read pages
differently is a new baseline, not a change of the page.

Raise :data:`EXTRACTOR_VERSION` whenever a change to the extractors changes what
they return for the same page (the main text's paragraphs, a typed field's
value); the version of trafilatura, which reads the main text, counts too.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

#: Raised by hand when what the extractors return for a page changes.
EXTRACTOR_VERSION = "2026.12.2"


@cache
def reader_version() -> str:
    """:data:`EXTRACTOR_VERSION` and the main-text library's version (``2026.12.1+trafilatura-2.0.0``)."""
    try:
        library = metadata.version("trafilatura")
    except metadata.PackageNotFoundError:
        library = "none"
    return f"{EXTRACTOR_VERSION}+trafilatura-{library}"
