"""jusText's paragraphs as trafilatura's fallback reads them, for less CPU.

trafilatura's jusText fallback (``trafilatura.external.try_justext``) cuts the tree into
paragraphs with ``justext.core.ParagraphMaker`` and classifies them with
``classify_paragraphs`` and the stop words of every language jusText knows. On a shop page
that is most of the fallback's cost, and none of it is the classification itself:

- ``ParagraphMaker`` walks the tree through lxml's SAX producer (an attribute object and
  a namespace lookup for every element), and every paragraph it starts (one at each block
  element, about 80,000 on 55 shop pages, nearly all of them empty) writes its DOM path
  and XPath out as two strings at once;
- a paragraph's text is joined and its white space normalised again at each of the
  half-dozen times the classification asks for it;
- ``classify_paragraphs`` asks ``define_stoplist`` for the lower-cased set of its stop
  list at each call; jusText keeps those sets in an LRU cache keyed by the list, whose
  hash, for trafilatura's tuple of the 154,000 stop words of every language, is taken
  again at each call: about 3 ms.

:func:`make_paragraphs` gives the same paragraphs (the same text, DOM path, XPath, link
characters and tag count, in the same order: each ``characters``, ``startElementNS`` and
``endElementNS`` event of the SAX walk is replayed by a plain walk of the tree) whose DOM
path and XPath are written out only when read and whose text is joined once;
:class:`StopListCache` keeps the set made for the last stop list it was given and hands
it back while it is given the same (unchangeable) object, without hashing it. Both stand in for jusText's own only inside
:func:`webrobot.extract.trafilaturacompat.read` (:mod:`webrobot.extract.trafilaturacompat`
puts them in place): any other caller of jusText or trafilatura in the process runs
jusText's code unchanged.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from lxml.etree import Comment, ProcessingInstruction

#: The tags that start and end a paragraph (``justext.core.PARAGRAPH_TAGS``, read once).
_PARAGRAPH_TAGS: frozenset[str] = frozenset()
_NOT_ELEMENTS = (Comment, ProcessingInstruction)


class UnusualNode(Exception):
    """A node the walk does not replay (an entity): jusText's own walk reads the tree."""


def paragraph_class() -> type:
    """jusText's ``Paragraph`` with its DOM path and XPath written out when read and its
    text joined once (made on first use: jusText is imported only then)."""
    from justext.paragraph import Paragraph
    from justext.utils import normalize_whitespace

    class LazyParagraph(Paragraph):  # type: ignore[misc]
        """A paragraph of the walk: ``path`` is the walk's path where it started, a tuple
        of ``(tag, order, children)`` as jusText's ``PathInfo`` holds them."""

        def __init__(self, path: tuple[tuple[str, int, dict[str, int]], ...]) -> None:
            self._path = path
            self._text: str | None = None
            self.text_nodes: list[str] = []
            self.chars_count_in_links = 0
            self.tags_count = 0
            self.class_type = ""

        @property
        def dom_path(self) -> str:
            return ".".join(part[0] for part in self._path)

        @property
        def xpath(self) -> str:
            return "/" + "/".join(f"{part[0]}[{part[1]:d}]" for part in self._path)

        @property
        def text(self) -> str:
            if self._text is None:
                self._text = normalize_whitespace("".join(self.text_nodes).strip())
            return self._text

        def append_text(self, text: str) -> str:
            self._text = None
            text = normalize_whitespace(text)
            self.text_nodes.append(text)
            return text

    return LazyParagraph


_LAZY: list[type] = []


class _Walk:
    """The state of ``justext.core.ParagraphMaker``, its events replayed by a tree walk."""

    __slots__ = ("br", "link", "make", "paragraph", "paragraphs", "path")

    def __init__(self, make: Callable[[tuple[Any, ...]], Any]) -> None:
        self.make = make
        self.path: list[tuple[str, int, dict[str, int]]] = []
        self.paragraphs: list[Any] = []
        self.paragraph = make(())
        self.link = False
        self.br = False

    def new_paragraph(self) -> None:
        # jusText keeps a paragraph that is true (its text not empty once stripped) and
        # holds text nodes
        paragraph = self.paragraph
        if paragraph.text_nodes and paragraph.text:
            self.paragraphs.append(paragraph)
        self.paragraph = self.make(tuple(self.path))

    def characters(self, content: str) -> None:
        if not content or content.isspace():
            return
        text = self.paragraph.append_text(content)
        if self.link:
            self.paragraph.chars_count_in_links += len(text)
        self.br = False

    def element(self, element: Any) -> None:
        tag = element.tag
        if tag in _NOT_ELEMENTS:
            tail = element.tail
            if tail:
                self.characters(tail)
            return
        if not isinstance(tag, str):
            raise UnusualNode(repr(tag))
        name = tag[1:].partition("}")[2] if tag[:1] == "{" and "}" in tag else tag
        # the path, as PathInfo.append keeps it
        path = self.path
        children = path[-1][2] if path else {}
        order = children.get(name, 0) + 1
        children[name] = order
        path.append((name, order, {}))
        if name in _PARAGRAPH_TAGS or (name == "br" and self.br):
            if name == "br":
                self.paragraph.tags_count -= 1
            self.new_paragraph()
        else:
            self.br = name == "br"
            if self.br:
                self.paragraph.append_text(" ")
            elif name == "a":
                self.link = True
            self.paragraph.tags_count += 1
        text = element.text
        if text:
            self.characters(text)
        for child in element:
            self.element(child)
        path.pop()
        if name in _PARAGRAPH_TAGS:
            self.new_paragraph()
        if name == "a":
            self.link = False
        tail = element.tail
        if tail:
            self.characters(tail)


def _siblings(element: Any, step: str) -> Iterable[Any]:
    """The processing instructions next to ``element`` that lxml's SAX walk reads too."""
    sibling = getattr(element, step)()
    while getattr(sibling, "tag", None) is ProcessingInstruction:
        yield sibling
        sibling = getattr(sibling, step)()


def make_paragraphs(root: Any) -> list[Any]:
    """``justext.core.ParagraphMaker.make_paragraphs(root)``: the same paragraphs, whose
    DOM path and XPath are written out when read (see the module doc)."""
    global _PARAGRAPH_TAGS
    if not _LAZY:
        from justext.core import PARAGRAPH_TAGS

        _PARAGRAPH_TAGS = frozenset(PARAGRAPH_TAGS)
        _LAZY.append(paragraph_class())
    try:
        element = root.getroot()
    except AttributeError:
        element = root
    walk = _Walk(_LAZY[0])
    for sibling in reversed(list(_siblings(element, "getprevious"))):
        walk.element(sibling)
    walk.element(element)
    for sibling in _siblings(element, "getnext"):
        walk.element(sibling)
    walk.new_paragraph()  # endDocument
    return walk.paragraphs


class StopListCache:
    """``justext.core.define_stoplist``, keeping its set for the last list it was given
    (held, so its identity stays its own) while it is given the same list again: a tuple
    or frozen set, which cannot change."""

    def __init__(self, define: Callable[[Any], frozenset[str]]) -> None:
        self.define = define
        self.given: Any = None
        self.made: frozenset[str] = frozenset()

    def __call__(self, stoplist: Any) -> frozenset[str]:
        if not isinstance(stoplist, tuple | frozenset):  # a list may change: made anew
            return self.define(stoplist)
        if stoplist is not self.given:
            made = self.define(stoplist)
            self.given, self.made = stoplist, made
        return self.made
