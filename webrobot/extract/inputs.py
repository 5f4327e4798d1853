"""What the mining parts of one page read, each read once and shared.

A part declares the inputs it reads (:class:`~webrobot.extract.parts.Part`);
:class:`PageInputs` reads each on first use and keeps it for the next part: the
page's JSON-LD is decoded once, its ``<meta>`` and ``<link>`` tags gathered once, its structured data (microdata, RDFa, OpenGraph
and the JSON-LD already read) read once, whichever parts ask for them. A failure
to read an input is kept too, and raised again to every part that reads it, so
each counts it as its own failure, as if it had read the input itself.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from webrobot.extract.headtags import HeadTags, head_tags
from webrobot.extract.htmltree import html_root
from webrobot.extract.jsonld import PageJsonLd, read_jsonld
from webrobot.extract.maintext import Reading, main_reading
from webrobot.extract.structured import structured_data

if TYPE_CHECKING:
    from webrobot.extract.fields import FieldSpec
    from webrobot.extract.page import SourcePage

#: The inputs a part may declare, beyond the page itself (its text and tree).
JSONLD = "jsonld"
STRUCTURED = "structured"
FIELD_SPECS = "field_specs"
#: The main content's reading (:func:`~webrobot.extract.maintext.main_reading`): the text,
#: and its Markdown when a part asked reads it.
READING = "reading"
#: The page's ``<meta>`` and ``<link>`` tags (:func:`~webrobot.extract.headtags.head_tags`).
HEAD_TAGS = "head_tags"
INPUTS = frozenset({JSONLD, STRUCTURED, FIELD_SPECS, READING, HEAD_TAGS})


class PageInputs:
    """One page and what its parts read of it, each read at most once."""

    def __init__(
        self,
        page: SourcePage,
        *,
        field_specs: tuple[FieldSpec, ...] = (),
        jsonld_documents: bool = False,
        full_structured: bool = False,
        markdown: bool = False,
    ) -> None:
        self.page = page
        #: The site's declared fields (the ``fields`` part's own input).
        self.field_specs = field_specs
        #: Whether the JSON-LD is also kept block by block, as written (a field reads it).
        self.needs_jsonld_documents = jsonld_documents
        #: Whether a part asked reads all of the structured data: the parts that
        #: could do with the JSON-LD alone then share it too.
        self.full_structured = full_structured
        #: Whether a part asked reads the main content as Markdown: the reading renders it.
        self.markdown = markdown
        self._read: dict[str, Any] = {}

    def _once(self, name: str, read: Callable[[], Any]) -> Any:
        if name not in self._read:
            try:
                self._read[name] = read()
            except Exception as exc:  # noqa: BLE001 - kept, and raised to each part that reads it
                self._read[name] = _Failed(exc)
        found = self._read[name]
        if isinstance(found, _Failed):
            raise found.exc
        return found

    @property
    def jsonld(self) -> PageJsonLd:
        """The page's JSON-LD, read once."""
        return self._once(
            JSONLD,
            lambda: read_jsonld(html_root(self.page), documents=self.needs_jsonld_documents),
        )

    @property
    def structured(self) -> dict[str, list[Any]]:
        """The page's structured data by syntax (extruct's form), read once, on the
        JSON-LD already read."""
        return self._once(STRUCTURED, lambda: structured_data(self.page, jsonld=self.jsonld.items))

    @property
    def head_tags(self) -> HeadTags:
        """The page's ``<meta>`` and ``<link>`` tags, gathered once (read, never changed,
        by the parts)."""
        return self._once(HEAD_TAGS, lambda: head_tags(html_root(self.page)))

    @property
    def reading(self) -> Reading:
        """The page's main content read once, as text (and Markdown when asked)."""
        return self._once(READING, lambda: main_reading(self.page, markdown=self.markdown))

    def structured_or_jsonld(self) -> dict[str, list[Any]]:
        """The structured data when a part asked reads it anyway, else the JSON-LD
        alone in the same form (no microdata or RDFa read for this part's sake)."""
        if self.full_structured and not isinstance(self._read.get(STRUCTURED), _Failed):
            try:
                return self.structured
            except Exception:  # noqa: BLE001 - the part that needs all of it counts the failure
                return {"json-ld": self.jsonld.items}
        return {"json-ld": self.jsonld.items}


class _Failed:
    """An input whose reading raised."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
