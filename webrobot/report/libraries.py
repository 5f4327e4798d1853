"""Which library a warning or a log line came from, among those webrobot runs for
mining, archiving and indexing (Pillow, trafilatura, PDFium...). Their warnings
say nothing a crawl's user can act on (Pillow's "Palette images with Transparency
expressed in bytes should be converted to RGBA images", once per such picture),
so the crawl counts them and logs them at DEBUG
(:mod:`webrobot.report.librarywarnings`). Warnings of webrobot, Scrapy, Twisted
and the user's own code are none of these and are shown as they come.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re

#: Top-level modules of the libraries whose warnings are counted -> the name in
#: the stats key (``webrobot/warnings/<name>``): the optional extras and what they use.
LIBRARIES = {
    "PIL": "pillow",
    "imagehash": "imagehash",
    "numpy": "numpy",
    "scipy": "scipy",
    "pywt": "pywavelets",
    "trafilatura": "trafilatura",
    "htmldate": "htmldate",
    "courlan": "courlan",
    "justext": "justext",
    "lxml_html_clean": "lxml_html_clean",
    "dateparser": "dateparser",
    "charset_normalizer": "charset_normalizer",
    "extruct": "extruct",
    "rdflib": "rdflib",
    "pyRdfa": "pyrdfa",
    "mf2py": "mf2py",
    "html_text": "html_text",
    "jstyleson": "jstyleson",
    "price_parser": "price_parser",
    "pypdfium2": "pypdfium2",
    "resiliparse": "resiliparse",
    "tantivy": "tantivy",
    "warcio": "warcio",
    "tinycss2": "tinycss2",
    "pygal": "pygal",
    "apprise": "apprise",
}

#: The modules of those libraries, for ``warnings.filterwarnings(module=...)``: every
#: warning they raise reaches the counter, not only the first from each line.
MODULES_PATTERN = r"(?:" + "|".join(re.escape(m) for m in LIBRARIES) + r")(?:\.|$)"

_INSTALLED = re.compile(r"[\\/](?:site|dist)-packages[\\/]([A-Za-z0-9_]+)(?:[\\/.]|$)")


def library_of_file(filename: str) -> str | None:
    """The library (its stats name) an installed source file belongs to, or None
    (webrobot, Scrapy, the user's code, any other package)."""
    found = _INSTALLED.search(filename or "")
    return LIBRARIES.get(found.group(1)) if found else None


def library_of_logger(name: str) -> str | None:
    """The library (its stats name) a logger belongs to (``trafilatura.core``:
    ``trafilatura``), or None."""
    return LIBRARIES.get((name or "").split(".", 1)[0])
