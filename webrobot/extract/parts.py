"""The mining parts: every one declared once, in :data:`PARTS`.

Each :class:`Part` names the word that asks for it (``WEBROBOT_EXTRACT``, a site
config's ``extract``), the item key its result goes to, the inputs it reads
(:mod:`webrobot.extract.inputs`: each read once a page, whichever parts share
it), its extractor (imported here, so that a reader and the import graph can
follow a page into it), and the extra it needs. The mining middleware is a loop
over this table; the item class, the monitor, the settings checks and the docs'
reference read it too. Adding a part is one entry here and one module.

Importing this module imports every extractor module (about 0.1 s: none of them
imports its library until it runs), so the parts of the crawl that need only the
names import it when mining is asked for.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from webrobot.extract.documents import read_document
from webrobot.extract.fields import extract_fields, found_fields, missing_fields
from webrobot.extract.images import page_images
from webrobot.extract.inputs import (
    FIELD_SPECS,
    HEAD_TAGS,
    INPUTS,
    JSONLD,
    READING,
    STRUCTURED,
    PageInputs,
)
from webrobot.extract.largepage import LARGE_PAGE_ELEMENTS, large_page_notes
from webrobot.extract.metadata import metadata
from webrobot.extract.product import product

#: Where a part reads from: an HTML page, or another response (a PDF).
PAGE = "page"
DOCUMENT = "document"


@dataclass(frozen=True)
class Part:
    """One mining part."""

    #: The word that asks for it.
    name: str
    #: The item key its result goes to (a document part fills the page parts' keys).
    item_key: str | None
    #: Its extractor: ``run(inputs)`` for a page part, ``run(body, url, content_type,
    #: **limits)`` for a document part.
    run: Callable[..., Any]
    #: What it reads of the page besides the page itself (:data:`~webrobot.extract.inputs.INPUTS`).
    inputs: frozenset[str] = frozenset()
    #: The pip extra its libraries come with (``pip install 'webrobot[EXTRA]'``).
    extra: str | None = None
    #: :data:`PAGE` or :data:`DOCUMENT`.
    source: str = PAGE
    #: The input its result is, for the parts after it (structured data): asked, it is
    #: read first, and the parts that could do with less read it whole.
    provides: str | None = None
    #: Whether the monitor compares it from one crawl to the next.
    monitored: bool = False
    #: Whether its result lists resources the crawl then fetches and describes (images).
    fetches: bool = False
    #: Whether a result counts as found (``webrobot/extract/<name>/found``, else ``empty``).
    found: Callable[[Any], bool] = bool
    #: More to count of a result: ``notes(inputs, result)`` gives the last parts of
    #: stats keys ``webrobot/extract/<name>/<note>``.
    notes: Callable[[PageInputs, Any], Iterable[str]] | None = None
    #: Note -> what it means, for the one log line of its first occurrence (a note
    #: not named here is only counted).
    note_messages: Mapping[str, str] = field(default_factory=dict)
    #: Whether it is had only when named: ``all`` leaves it out.
    opt_in: bool = False
    #: One line for the reference.
    summary: str = ""

    def __post_init__(self) -> None:
        unknown = self.inputs - INPUTS
        if unknown:
            raise ValueError(f"part {self.name!r} reads unknown inputs {sorted(unknown)}")


def _text(inputs: PageInputs) -> Any:
    return inputs.reading.text


def _markdown(inputs: PageInputs) -> Any:
    return inputs.reading.markdown


def _metadata(inputs: PageInputs) -> Any:
    return metadata(inputs.page, inputs.structured_or_jsonld(), tags=inputs.head_tags)


def _structured(inputs: PageInputs) -> Any:
    return inputs.structured


def _product(inputs: PageInputs) -> Any:
    return product(inputs.page, inputs.structured, tags=inputs.head_tags)


def _fields(inputs: PageInputs) -> Any:
    documents = inputs.jsonld.documents if inputs.needs_jsonld_documents else None
    return extract_fields(inputs.page, inputs.field_specs, documents)


def _images(inputs: PageInputs) -> Any:
    return page_images(inputs.page)


def _document(body: bytes, url: str, content_type: str, **limits: Any) -> Any:
    return read_document(body, url, content_type, **limits)


#: Every mining part, in the order an item lists their keys.
PARTS: tuple[Part, ...] = (
    Part("text", "main_text", _text, frozenset({READING}), extra="mining", monitored=True,
         notes=large_page_notes,
         note_messages={"large_page": "main text read without trafilatura's fallbacks: more "
                        f"than {LARGE_PAGE_ELEMENTS} nodes"},
         summary="the page's main text, one paragraph, heading, list item, table row or code "
                 "line a line; boilerplate (menus, headers, site footers, sidebars, cookie "
                 "banners, share bars, related posts, donation pleas) left out"),
    Part("metadata", "metadata", _metadata, frozenset({JSONLD, HEAD_TAGS}), monitored=True,
         summary="`title`, `description`, `authors`, `published`, `modified`, `language`, "
                 "`site_name`, `canonical`, `image`, from the page's meta tags, Open Graph and JSON-LD, "
                 "then as the page shows them (bylines, dated lines, the URL's date)"),
    Part("structured_data", "structured_data", _structured, frozenset({JSONLD, STRUCTURED}),
         extra="mining", provides=STRUCTURED, summary="the page's JSON-LD, microdata, RDFa and Open Graph in one uniform form "
                 "(keys `json-ld`, `microdata`, `rdfa`, `opengraph`)"),
    Part("product", "product", _product, frozenset({JSONLD, STRUCTURED, HEAD_TAGS}), extra="mining",
         monitored=True, summary="`name`, `price`, `currency`, `availability` (`InStock` or `OutOfStock`), "
                 "`availability_detail`, `sku`, `gtin`, `mpn`, `brand`, "
                 "or null on a page that sells nothing"),
    Part("fields", "fields", _fields, frozenset({JSONLD, FIELD_SPECS}), monitored=True,
         found=found_fields, notes=missing_fields,
         summary="the site's own fields, by name (`WEBROBOT_FIELDS`, a site config's `[fields]`)"),
    Part("documents", None, _document, extra="documents", source=DOCUMENT,
         summary="the text of a PDF the page links, and its `title`, `author`, `pages` (in "
                 "`main_text` and `metadata`)"),
    Part("images", "images", _images, extra="images",
         monitored=True, fetches=True,
         summary="the images the page shows (`url`, `alt`, `width`, `height`), fetched under "
                 "robots.txt and politeness to add `format`, `bytes`, real `width` and `height`, and "
                 "a perceptual hash `phash`"),
    Part("markdown", "main_markdown", _markdown, frozenset({READING}), extra="mining",
         opt_in=True,
         summary="the same main text as Markdown (`#` headings, `-` and `1.` lists, fenced "
                 "code, tables), from the same reading; only when named (`all` leaves it out)"),
)  # fmt: skip
BY_NAME = {part.name: part for part in PARTS}
#: The word that asks for every part but the opt-in ones.
ALL = "all"


def enabled_parts(values: Iterable[str]) -> frozenset[str]:
    """The parts named by ``values`` (``"all"`` for every one but the opt-in ones);
    :class:`ValueError` names the first unknown word and what was expected."""
    parts: set[str] = set()
    for value in values:
        word = value.strip().lower()
        if not word:
            continue
        if word == ALL:
            parts.update(part.name for part in PARTS if not part.opt_in)
        elif word in BY_NAME:
            parts.add(word)
        else:
            expected = ", ".join(BY_NAME)
            raise ValueError(f"unknown part {value!r}: expected {ALL} or any of {expected}")
    return frozenset(parts)


def item_keys() -> tuple[str, ...]:
    """The item keys the parts fill, in item order."""
    return tuple(part.item_key for part in PARTS if part.item_key is not None)


def monitored_parts(*, fetched: bool) -> frozenset[str]:
    """The parts the monitor compares; ``fetched``: with those whose resources are
    fetched (images, for a watch rule with pictures)."""
    return frozenset(p.name for p in PARTS if p.monitored and (fetched or not p.fetches))


def monitored_keys() -> tuple[str, ...]:
    """The item keys the monitor reads."""
    return tuple(p.item_key for p in PARTS if p.monitored and p.item_key is not None)
