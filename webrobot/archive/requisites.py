"""A page's requisites: what a browser loads to show it (stylesheets, scripts,
images, fonts, media, frames), read from its HTML and CSS. Pure: no Scrapy, no I/O.

:func:`html_requisites` reads an lxml tree (the one Scrapy's selector already
built for the page, so a page is parsed once): ``<link rel=stylesheet|icon|
preload|modulepreload>`` (and ``imagesrcset``), ``<script src>``, ``<img src
srcset>``, ``<picture><source srcset>``, ``<video src poster>``, ``<audio>``,
``<source>``, ``<track>``, ``<embed>``, ``<object data>``, ``<input
type=image>``, the lazy-loading attributes ``data-src`` / ``data-srcset``,
``background=``, ``style=`` attributes, ``<style>`` blocks and ``<iframe>`` /
``<frame>`` documents. :func:`css_requisites` reads a stylesheet's ``url()``,
``image-set()`` and ``@import`` with tinycss2 (a CSS Syntax Level 3 tokenizer:
comments, escapes, strings and bad input are handled as browsers handle them,
which regular expressions get wrong). :func:`parse_srcset` follows the HTML
standard's algorithm for ``srcset`` (URLs may hold commas).

Only ``http(s)`` URLs are returned, without their fragment, each once, in the
order the page names them. :func:`hops_allowed` is the rule of how far from an
in-scope page an off-scope requisite may be (Heritrix's ``maxTransHops``), and
:class:`RequisiteLedger` keeps which page needs which requisite and what became
of each, so the report can say which pages were archived whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from webrobot.optional import require
from webrobot.pages.srcset import srcset_candidates

STYLESHEET = "stylesheet"
SCRIPT = "script"
IMAGE = "image"
FONT = "font"
MEDIA = "media"
FRAME = "frame"
OBJECT = "object"
ICON = "icon"
OTHER = "other"
#: Every kind a requisite is counted under (``webrobot/requisite/<kind>/<outcome>``).
KINDS = (STYLESHEET, SCRIPT, IMAGE, FONT, MEDIA, FRAME, OBJECT, ICON, OTHER)

#: What became of a requisite, besides the refusal reasons of the crawl
#: (``robots_txt``, ``blocklist``, ``budget``, ``offsite``...).
ARCHIVED = "archived"
HTTP_ERROR = "http_error"
ERROR = "error"
NOT_FETCHED = "not_fetched"
#: A requisite not answered yet while the crawl runs (the live report).
QUEUED = "queued"
ALREADY_SEEN = "already_seen"

#: An embed chain longer than this is not followed even on the crawl's own sites
#: (frames in frames, stylesheets importing stylesheets): a trap, not a page.
MAX_EMBED_CHAIN = 8

_LINK_RELS = {
    "stylesheet": STYLESHEET,
    "icon": ICON,
    "apple-touch-icon": ICON,
    "apple-touch-icon-precomposed": ICON,
    "mask-icon": ICON,
    "preload": OTHER,
    "modulepreload": SCRIPT,
}
_PRELOAD_AS = {
    "style": STYLESHEET,
    "script": SCRIPT,
    "font": FONT,
    "image": IMAGE,
    "audio": MEDIA,
    "video": MEDIA,
    "track": MEDIA,
    "document": FRAME,
}
_FONT_EXTENSIONS = (".woff2", ".woff", ".ttf", ".otf", ".eot")
_MEDIA_TAGS = {"video", "audio", "source", "track"}
_WS = " \t\n\r\f"


@dataclass(frozen=True, slots=True)
class Requisite:
    url: str
    kind: str


def _clean(base: str, value: str | None) -> str | None:
    """``value`` resolved against ``base``, without fragment; ``None`` unless http(s)."""
    if not value:
        return None
    value = value.strip(_WS)
    if not value or value.startswith(("data:", "#", "javascript:", "about:", "blob:")):
        return None
    try:
        url = urljoin(base, value)
    except ValueError:  # a broken IPv6 host
        return None
    url = url.split("#", 1)[0]
    if not url.lower().startswith(("http://", "https://")):
        return None
    return url


def parse_srcset(value: str) -> list[str]:
    """The URLs of a ``srcset`` attribute (:func:`webrobot.pages.srcset.srcset_candidates`).
    Never raises."""
    return [url for url, _ in srcset_candidates(value)]


def _css_kind(url: str) -> str:
    path = url.split("?", 1)[0].lower()
    return FONT if path.endswith(_FONT_EXTENSIONS) else IMAGE


def _walk_tokens(tokens: Iterable[Any], found: list[tuple[str, str]]) -> None:
    """Collect ``(raw url, kind)`` from tinycss2 component values, nested blocks included."""
    for token in tokens:
        kind = getattr(token, "type", "")
        if kind == "url":
            found.append((token.value, ""))
        elif kind == "function":
            name = token.lower_name
            if name in ("url", "src"):
                for argument in token.arguments:
                    if argument.type == "string":
                        found.append((argument.value, ""))
                        break
            elif name in ("image-set", "-webkit-image-set"):
                found.extend((a.value, IMAGE) for a in token.arguments if a.type == "string")
            _walk_tokens(token.arguments, found)
        elif kind in ("() block", "[] block", "{} block"):
            _walk_tokens(token.content, found)


#: What the requisites serve, as the missing-package message names it.
REQUISITES_FEATURE = "Archiving page requisites (WEBROBOT_REQUISITES_ENABLED)"


def _tinycss2() -> Any:
    """tinycss2, the archive's own CSS reader (webrobot[warc])."""
    return require("tinycss2", "warc", REQUISITES_FEATURE)


def _rule_urls(rules: Iterable[Any], found: list[tuple[str, str]]) -> None:
    tinycss2 = _tinycss2()
    for rule in rules:
        kind = getattr(rule, "type", "")
        if kind == "at-rule":
            if rule.lower_at_keyword == "import":
                for token in rule.prelude:
                    if token.type in ("url", "string"):
                        found.append((token.value, STYLESHEET))
                        break
                    if token.type == "function" and token.lower_name == "url":
                        strings = [a for a in token.arguments if a.type == "string"]
                        if strings:
                            found.append((strings[0].value, STYLESHEET))
                        break
                continue
            _walk_tokens(rule.prelude, found)
            if rule.content is not None:
                # @media / @supports hold rules; @font-face holds declarations
                nested = tinycss2.parse_blocks_contents(rule.content)
                _rule_urls(nested, found)
        elif kind == "qualified-rule":
            _walk_tokens(rule.content, found)
        elif kind == "declaration":
            _walk_tokens(rule.value, found)


def css_requisites(css: str, base_url: str) -> list[Requisite]:
    """The requisites a stylesheet names: ``@import`` (stylesheets), ``url()`` and
    ``image-set()`` (images, fonts by their extension). Never raises on bad CSS."""
    found: list[tuple[str, str]] = []
    _rule_urls(_tinycss2().parse_stylesheet(css, skip_comments=True, skip_whitespace=True), found)
    return _resolved(found, base_url)


def style_attribute_requisites(style: str, base_url: str) -> list[Requisite]:
    """The requisites of a ``style=""`` attribute (a declaration list)."""
    found: list[tuple[str, str]] = []
    _rule_urls(_tinycss2().parse_blocks_contents(style, skip_comments=True), found)
    return _resolved(found, base_url)


def _resolved(found: Iterable[tuple[str, str]], base_url: str) -> list[Requisite]:
    out: list[Requisite] = []
    seen: set[str] = set()
    for raw, kind in found:
        url = _clean(base_url, raw)
        if url is not None and url not in seen:
            seen.add(url)
            out.append(Requisite(url, kind or _css_kind(url)))
    return out


def _tag(element: Any) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""  # comments, processing instructions
    return tag.rsplit("}", 1)[-1].lower()


def _element_values(element: Any, tag: str) -> Iterator[tuple[str | None, str]]:
    """``(raw url, kind)`` for one element (``srcset`` values are split)."""
    get = element.get
    if tag == "link":
        rels = set((get("rel") or "").lower().split())
        kinds = [_LINK_RELS[r] for r in rels if r in _LINK_RELS]
        if "shortcut" in rels and "icon" in rels:
            kinds = [ICON]
        if kinds:
            kind = kinds[0]
            if "preload" in rels:
                kind = _PRELOAD_AS.get((get("as") or "").strip().lower(), OTHER)
            yield get("href"), kind
            for url in parse_srcset(get("imagesrcset") or ""):
                yield url, IMAGE
    elif tag == "script":
        yield get("src"), SCRIPT
    elif tag in ("img", "image"):
        yield get("src"), IMAGE
        for url in parse_srcset(get("srcset") or ""):
            yield url, IMAGE
        if tag == "image":  # SVG
            yield get("href") or get("{http://www.w3.org/1999/xlink}href"), IMAGE
    elif tag in _MEDIA_TAGS:
        parent = element.getparent()
        in_picture = parent is not None and _tag(parent) == "picture"
        kind = IMAGE if in_picture else MEDIA
        yield get("src"), kind
        for url in parse_srcset(get("srcset") or ""):
            yield url, IMAGE
        if tag == "video":
            yield get("poster"), IMAGE
    elif tag in ("iframe", "frame"):
        yield get("src"), FRAME
    elif tag == "embed":
        yield get("src"), OBJECT
    elif tag == "object":
        yield get("data"), OBJECT
    elif tag == "input" and (get("type") or "").strip().lower() == "image":
        yield get("src"), IMAGE
    if tag in ("body", "table", "td", "th", "tr"):
        yield get("background"), IMAGE
    lazy = get("data-src")
    if lazy:
        yield lazy, IMAGE
    lazy_set = get("data-srcset")
    if lazy_set:
        for url in parse_srcset(lazy_set):
            yield url, IMAGE


def _xpath(query: str) -> Any:
    from lxml import etree

    return etree.XPath(query)


def _candidates() -> Any:
    """The elements that can name a requisite, in document order, found by one
    compiled XPath (lxml's C code): 0.5 ms on a 12 KB page, where visiting every
    element in Python took 1.2 ms (reading the page's links takes 0.5 ms)."""
    tags = ("link", "script", "img", "image", "video", "audio", "source", "track", "iframe",
            "frame", "embed", "object", "input", "style")  # fmt: skip
    attributes = ("style", "data-src", "data-srcset", "background")
    by_attribute = "//*[" + " or ".join(f"@{a}" for a in attributes) + "]"
    return _xpath(" | ".join([*(f"//{t}" for t in tags), by_attribute]))


_CANDIDATES = _candidates()
_BASE = _xpath("//base/@href")


def html_requisites(root: Any, page_url: str) -> list[Requisite]:
    """The requisites an HTML page names, in document order, each URL once
    (under the kind of its first mention). ``root`` is an lxml element (or
    ``None`` for a page that could not be parsed)."""
    if root is None:
        return []
    base = page_url
    for href in _BASE(root):
        href = str(href).strip(_WS)
        if href:
            try:
                base = urljoin(page_url, href)
            except ValueError:
                pass
            break
    out: list[Requisite] = []
    seen: set[str] = set()

    def add(requisites: Iterable[Requisite]) -> None:
        for requisite in requisites:
            if requisite.url not in seen:
                seen.add(requisite.url)
                out.append(requisite)

    for element in _CANDIDATES(root):
        tag = _tag(element)
        if not tag:
            continue
        for raw, kind in _element_values(element, tag):
            url = _clean(base, raw)
            if url is not None and url not in seen:
                seen.add(url)
                out.append(Requisite(url, kind))
        style = element.get("style")
        if style and "url" in style.lower():
            add(style_attribute_requisites(style, base))
        if tag == "style" and element.text:
            add(css_requisites(element.text, base))
    return out


_CHARSET = re.compile(rb'^@charset "([A-Za-z0-9_.:-]{1,40})";')


def decode_css(body: bytes, declared: str | None = None) -> str:
    """A stylesheet's text: BOM, then the HTTP charset, then ``@charset``, then UTF-8."""
    if body.startswith(b"\xef\xbb\xbf"):
        return body[3:].decode("utf-8", "replace")
    for encoding in (declared, _charset(body)):
        if encoding:
            try:
                return body.decode(encoding, "replace")
            except LookupError:
                continue
    return body.decode("utf-8", "replace")


def _charset(body: bytes) -> str | None:
    match = _CHARSET.match(body)
    return match.group(1).decode("ascii") if match else None


def hops_allowed(in_scope: bool, hops: int, max_hops: int) -> bool:
    """May a requisite ``hops`` embeds away from its in-scope page be fetched?
    On the crawl's own sites, yes (up to :data:`MAX_EMBED_CHAIN`); elsewhere
    only within ``max_hops`` (0: no requisites from other sites)."""
    if hops > MAX_EMBED_CHAIN:
        return False
    return in_scope or hops <= max_hops


@dataclass(slots=True)
class SitePages:
    whole: int = 0
    missing: int = 0
    #: reason -> pages with a requisite missing for that reason
    reasons: dict[str, int] = field(default_factory=dict)
    #: (page, requisite, reason) examples, a few per site
    examples: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(slots=True)
class RequisiteLedger:
    """Which page (or stylesheet, or frame) needs which requisites, and what
    became of each requisite; :meth:`by_site` says which pages are whole.

    A requisite shared by many pages is stored once; a page is whole when each
    requisite it needs, and each of theirs, was archived (a requisite still
    unanswered when the crawl ends counts as ``not_fetched``)."""

    needs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    outcomes: dict[str, str] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)  # page url -> site
    urls: dict[str, str] = field(default_factory=dict)  # one copy of each requisite URL
    examples_per_site: int = 20

    def page(self, url: str, site: str, requisites: Iterable[str]) -> None:
        self.pages[url] = site
        # one copy of each URL, however many pages name it
        self.needs[url] = self._shared(requisites)

    def _shared(self, urls: Iterable[str]) -> tuple[str, ...]:
        known = self.urls
        return tuple(known.setdefault(u, u) for u in urls)

    def embeds(self, url: str, requisites: Iterable[str]) -> None:
        """What a requisite (a stylesheet, a frame) needs in turn."""
        self.needs[url] = self._shared(requisites)

    def outcome(self, url: str, outcome: str) -> None:
        """What became of a requisite; an archived copy wins over a later refusal."""
        if self.outcomes.get(url) != ARCHIVED:
            self.outcomes[url] = outcome

    def seen_before(self, url: str) -> None:
        """The visited set dropped a request for ``url``: fetched by an earlier run
        of the job or another worker of a shared crawl, unless this process has
        (or will have) an outcome of its own for it."""
        self.outcomes.setdefault(url, ALREADY_SEEN)

    def missing(self, url: str, unanswered: str = NOT_FETCHED) -> list[tuple[str, str]]:
        """``(requisite, reason)`` for each requisite ``url`` lacks, transitively; a
        requisite with no outcome yet has the reason ``unanswered``."""
        out: list[tuple[str, str]] = []
        seen = {url}
        stack = list(self.needs.get(url, ()))
        while stack:
            child = stack.pop()
            if child in seen:
                continue
            seen.add(child)
            outcome = self.outcomes.get(child, unanswered)
            if outcome not in (ARCHIVED, ALREADY_SEEN):
                out.append((child, outcome))
            stack.extend(self.needs.get(child, ()))
        return out

    def by_site(self, unanswered: str = NOT_FETCHED) -> dict[str, SitePages]:
        """Pages whole and missing requisites per site (``unanswered``: the reason of a
        requisite with no outcome yet: ``not_fetched`` at the end, ``queued`` before)."""
        sites: dict[str, SitePages] = {}
        for url, site in self.pages.items():
            row = sites.setdefault(site, SitePages())
            missing = self.missing(url, unanswered)
            if not missing:
                row.whole += 1
                continue
            row.missing += 1
            for reason in sorted({reason for _, reason in missing}):
                row.reasons[reason] = row.reasons.get(reason, 0) + 1
            for requisite, reason in missing:
                if len(row.examples) < self.examples_per_site:
                    row.examples.append((url, requisite, reason))
        return sites
