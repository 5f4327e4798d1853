"""A page's chrome, which is never its main text: what the main-text reading removes
before trafilatura reads the page, and what it drops from the text it gets.

- :data:`CHROME_XPATH`: nodes pruned from trafilatura's own copy of the tree: comments
  and processing instructions (a tree that has them loses the text that follows them
  inside a paragraph), navigation (``<nav>``, ARIA ``navigation``), the site's footer
  (``<footer>``, ARIA ``contentinfo``), donation and sponsorship boxes (a ``<div>`` whose
  class names donations, Patreon, Ko-fi, "buy me a coffee", sponsors), cookie-consent
  banners and dialogs (a ``<div>`` whose class or id names cookies, consent, GDPR or
  OneTrust, a category or tag class such as ``category-cookies`` not counted; on a page
  of cards their text can outweigh the page's, so such a node is kept as the page when,
  and only when, it holds an ``<h1>``, ``<main>`` or ``<article>``, or the page's
  ``<title>`` names cookies, consent or the GDPR and the node holds no button, field or
  option list (a site's cookie policy, not its banner): on the
  development half of the unseen sets this took the collection set from 0.502 to 0.519
  F1, the listing set from 0.573 to 0.601 and the product set from 0.587 to 0.592; a
  dialog no class names is pruned too when it speaks of cookies or consent, as
  :mod:`webrobot.extract.consentdialog` tells) and the line-number
  gutters of highlighted code (Rouge's and Hexo's ``td.gutter``, ``pre.lineno``), which
  would read as a column of numbers before the code; a table left with one cell that
  holds only a ``<pre>`` (the code beside that gutter, as Hexo lays it out) is replaced
  by its ``<pre>``, so the block reads as code, a line a line, not as one table row. trafilatura itself already drops share bars,
  "related posts" boxes, comments and footers named by class.
- :func:`unlinked_headings`: a heading whose text is a link to itself (the anchor links
  Jekyll, Hugo and most documentation themes put on every heading) reads as a link to
  trafilatura, which drops it when it favours precision; the anchors are unwrapped, on
  a copy, so the heading keeps its line.
- :func:`reading_tree`: the one copy of the page's tree that trafilatura reads, with both
  of the above done and the nodes trafilatura deletes unread (:data:`UNREAD`: scripts
  other than JSON-LD, styles, SVG drawings, frames, option lists, buttons, inputs and
  meta tags) gone before it copies and walks the tree again and again (each of its
  pruning expressions is a walk of the whole tree, and a reading copies it three times).
- :func:`headings`, run by :func:`reading_tree` on the copy, two rules for articles
  (their precise reading; other pages are read broadly, where neither matters): an
  empty inline element in a heading (``<span id="x"></span>``, the anchor a
  table-of-contents plugin puts in every heading) takes the heading's words with it
  when trafilatura favours precision (it deletes empty elements without their tails
  then), so it gets an empty text and stays; and a heading below the headline whose
  link goes to another site than the page's own (its canonical address) and which
  introduces a paragraph of :data:`ENTRY_PARAGRAPH` characters or more (a listicle's
  entry: "3. Yubico", linking to the vendor) has its link unwrapped, as the precise
  reading drops a heading that is one link; so does a heading linking within the site
  that opens a section of two paragraphs or more (an entry of a listicle or of a
  review of the year's stories: :mod:`webrobot.extract.entrysections`). A teaser's
  heading is followed by one short excerpt or a date line, and stays as it is. On the
  development half of the unseen article pages (``python -m
  benchmarks.quality.unseendev``) eight listicles kept their entry titles (one its 25
  headings), no page lost; the section test keeps four more sites' entries, none lost.
- :func:`without_pleas`: the closing lines of a text that ask the reader for money
  ("If you enjoyed this post, please consider supporting my work: buy me a coffee")
  where no markup marked them.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from copy import deepcopy
from typing import Any
from urllib.parse import urlsplit

import lxml.etree

from webrobot.extract.consentdialog import consent_dialogs
from webrobot.extract.entrysections import entry_links
from webrobot.extract.forumchrome import without_forum_chrome
from webrobot.extract.htmltree import delete, plain_copy
from webrobot.extract.signupforms import note_email_field

_DONATION_WORDS = ("donat", "patreon", "ko-fi", "kofi", "buymeacoffee", "sponsor")
_CONSENT_WORDS = ("cookie", "Cookie", "consent", "Consent", "onetrust", "gdpr", "GDPR")
#: Any of :data:`_CONSENT_WORDS` in a name (case as written).
_CONSENT_NAMES = re.compile("|".join(map(re.escape, _CONSENT_WORDS)))
#: Class prefixes of a post's or a product's categories and tags (WordPress, WooCommerce):
#: ``category-cookies`` is a baking blog's post, not a consent banner.
_TAXONOMY = ("category-", "tag-", "product_cat-", "product_tag-")
#: What is pruned from trafilatura's copy of the tree before it reads it. Each path is
#: a plain walk by tag: a predicate tested on every element (``//*[...]``) costs a
#: millisecond a page, several times these together.
CHROME_XPATH = (
    "//comment()|//processing-instruction()|//nav|//footer"
    "|//*[@role='navigation' or @role='contentinfo']"
    "|//td[contains(@class, 'gutter')]|//pre[contains(@class, 'lineno')]"
    "|//div[" + " or ".join(f"contains(@class, '{word}')" for word in _DONATION_WORDS) + "]"
    "|//div[" + " or ".join(f"contains(@class, '{word}')" for word in _CONSENT_WORDS) + "]"
    "|//div[" + " or ".join(f"contains(@id, '{word}')" for word in _CONSENT_WORDS) + "]"
)
#: :data:`CHROME_XPATH` as :func:`reading_tree` runs it, in two parts. The divs named
#: (their class or id) are found by one walk of the divs testing each name with one
#: regular expression (:func:`_named_divs`): XPath tests each ``contains()`` on a copy
#: of the name, and those tests were three quarters of this expression's cost. The rest
#: walks the attributes (``//@role[...]``, whose owners are the nodes), not every
#: element, and the named divs join it as ``$divs``, so that all come in document order.
_CHROME = lxml.etree.XPath(
    "$divs|//comment()|//processing-instruction()|//nav|//footer"
    "|//@role[.='navigation' or .='contentinfo']"
    "|//td/@class[contains(., 'gutter')]|//pre/@class[contains(., 'lineno')]"
)
_CLASS_NAMES = re.compile("|".join(map(re.escape, (*_DONATION_WORDS, *_CONSENT_WORDS))))


def _named_divs(tree: Any) -> list[Any]:
    """The divs of ``tree`` whose class names donations or consent, or whose id names
    consent (:data:`CHROME_XPATH`'s last three paths), in document order."""
    return [
        div
        for div in tree.iter("div")
        if _CLASS_NAMES.search(div.get("class") or "") or _CONSENT_NAMES.search(div.get("id") or "")
    ]


#: Elements trafilatura deletes with everything in them before it reads a page, whatever
#: the options, which nothing before that deletion looks into (a JSON-LD script is kept:
#: trafilatura looks into it to tell a forum thread and to rescue an empty reading;
#: ``<noscript>`` too, whose content its link-density tests count). One measure sees the
#: difference: the page's text that a short broad reading is compared with before
#: trafilatura retries it favouring recall no longer counts button and option labels;
#: the same text on the article benchmark, and no unseen set lower.
UNREAD = ("script", "style", "svg", "iframe", "link", "select", "meta", "button", "input", "option")
#: A node the rules above would remove is kept when it holds at least this share of the
#: page's text (scripts and styles not counted)...
KEPT_SHARE = 0.5
#: ...and at most this share of its own text is in links (a menu's text is mostly
#: links): it is the page, not its chrome (broken markup that leaves the whole article
#: inside a menu button, a ``<nav>`` wrapped around the content, a content class naming
#: an "unsponsored" post). trafilatura then reads it as it would unaided.
KEPT_LINKED = 0.5
#: Text (characters) a node must hold before its share of the page is counted.
_KEPT_MIN_CHARS = 1000
#: Elements never kept so (their text is code or choices, not content).
_NEVER_KEPT = frozenset(("script", "style", "svg", "select", "option", "meta", "link"))
#: Links to a fragment inside a heading; found through the links (a walk by tag), not
#: by testing every element.
_SELF_LINKS = lxml.etree.XPath(
    "//a[starts-with(@href, '#')][ancestor::h1 or ancestor::h2 or ancestor::h3"
    " or ancestor::h4 or ancestor::h5 or ancestor::h6]"
)
_WORD = re.compile(r"\w")
#: A closing line asking the reader to pay: a payment service's name, or a word asking
#: for money with the writer or the site as the one to be paid (so that a news story's
#: last line about donations to someone else stays). English, German, French.
_PLEA_SERVICE = re.compile(
    r"buy me a coffee|\bko-?fi\b|patreon|liberapay|github sponsors", re.IGNORECASE
)
_PLEA_ASK = re.compile(
    r"\bdonat|\bsupport|\bsponsor|\btip jar|\bspende|unterstütz|soutenir|faire un don|\bdon\b",
    re.IGNORECASE,
)
#: Case-sensitive: "US" (the country) is not "us".
_PLEA_SELF = re.compile(
    r"\b(?:[Mm]e|[Mm]y|us|[Oo]ur|mich|mir|uns|[Uu]nser\w*|nous|[Nn]otre|[Mm]on|[Mm]a)\b"
    r"|\b[Tt]his (?:blog|site|website|newsletter|podcast|project)\b"
)
#: Closing lines looked at for a plea, and the longest line that can be one.
PLEA_LINES = 2
PLEA_LENGTH = 400


def unlinked_headings(tree: Any) -> Any:
    """``tree`` itself when no heading holds a link to a fragment, else a copy with those
    links unwrapped (their text kept in place), or removed where they hold no word (a
    ``#`` or ``¶`` mark, an icon)."""
    if not _SELF_LINKS(tree):
        return tree
    copy = deepcopy(tree)
    _unwrap_links(copy)
    return copy


def reading_tree(tree: Any, unread: bool = True, entries: bool = False) -> Any:
    """A copy of ``tree`` for trafilatura to read: its chrome (:data:`CHROME_XPATH`) and,
    if ``unread``, the elements trafilatura deletes unread (:data:`UNREAD`) removed, their
    tails kept, save a node that holds the page (:data:`KEPT_SHARE`), and its headings'
    self-links unwrapped (:func:`unlinked_headings`). The same text as trafilatura
    pruning :data:`CHROME_XPATH` itself, for less CPU. The copy's elements have
    lxml.html's plain classes (:func:`~webrobot.extract.htmltree.plain_copy`)."""
    head = tree.find("head") if entries else None  # its <link> and <meta> go below
    copy = plain_copy(tree)
    # an attribute found (a string that knows its element) stands for its element
    doomed: list[Any] = [
        node.getparent() if isinstance(node, lxml.etree._ElementUnicodeResult) else node
        for node in _CHROME(copy, divs=_named_divs(copy))
    ]
    found = consent_dialogs(copy)  # consent banners that no class names
    doomed.extend(found)
    dialogs = {id(dialog) for dialog in found}
    if unread:
        doomed.extend(
            element
            for element in copy.iter(*UNREAD)
            if element.tag != "script" or "ld+json" not in (element.get("type") or "").lower()
        )
    page_chars: list[int] = []  # counted once, when a doomed node may hold the page
    gutters: list[Any] = []  # the tables that lose a column of line numbers
    about: list[bool] = []  # whether the page is about cookies, told once when asked
    for element in doomed:
        # the tests of the rules above, cheapest first: most doomed nodes (scripts,
        # metas, inputs, icons) have no name to keep them by and cannot hold the page
        tag = element.tag
        names = element.get("class"), element.get("id")
        consent = (names != (None, None) and _consent_named(element)) or id(element) in dialogs
        if consent:
            if tag == "div" and _taxonomy_only(element):
                continue  # only a taxonomy class named consent
            if _holds_content(element) or _policy(element, copy, about):
                continue
        elif len(element) and tag not in _NEVER_KEPT and _holds_page(element, copy, page_chars):
            continue
        if tag == "td":
            gutters.extend(element.iterancestors("table"))
        elif tag == "input":
            note_email_field(element)  # a sign-up box is told by it (signupforms)
        delete(element)
    for table in gutters:
        _code_alone(table)
    headings(copy, _own_host(head) if head is not None else None, entries, unlink=True)
    if not entries:  # a page read broadly, as a thread is
        without_forum_chrome(copy)  # its posts' user cards, signatures, edit notes
    return copy


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
#: Inline elements trafilatura deletes when empty, with their tails when it favours
#: precision (``trafilatura.htmlprocessing.prune_html``).
_EMPTY_INLINE = ("span", "b", "i", "em", "strong", "q")
#: An entry's heading is followed by a paragraph this long (characters): a teaser's
#: excerpt is shorter.
ENTRY_PARAGRAPH = 200


def headings(
    tree: Any, own: str | None = None, entries: bool = False, unlink: bool = False
) -> None:
    """Readies ``tree``'s headings for a precise reading, in one pass over them:

    - if ``unlink``, the links to a fragment in the heading are unwrapped, or removed
      where they show no word (what :func:`unlinked_headings` does), heading by heading in
      the same walk: the rules below read the heading's own links and, past it, only
      whether the next elements show words, which a removed link (showing none) cannot
      change;
    - an empty inline element (:data:`_EMPTY_INLINE`) followed by words gets an empty
      text, so that it stays and its tail with it;
    - if ``entries``, a heading below the headline that is an entry of the article
      (:func:`~webrobot.extract.entrysections.entry_links`: it links to another site than
      ``own``, the page's host without ``www.``, and introduces a paragraph of
      :data:`ENTRY_PARAGRAPH` characters, or it opens a section of paragraphs) has its
      links unwrapped, their text kept in place.
    """
    # a list: a removed link may hold a heading, which then is no longer in the tree
    for heading in list(tree.iter(*_HEADINGS)):
        if unlink:
            _unwrap(
                [link for link in heading.iter("a") if (link.get("href") or "").startswith("#")]
            )
        for element in heading.iter(*_EMPTY_INLINE):
            if element.text is None and not len(element) and (element.tail or "").strip():
                element.text = ""
        if not entries or heading.tag == "h1":
            continue
        elsewhere = [link for link in heading.iter("a") if _elsewhere(link.get("href"), own)]
        for link in entry_links(heading, elsewhere, ENTRY_PARAGRAPH):
            link.tag = "span"
            link.attrib.clear()


def _elsewhere(href: str | None, own: str | None) -> bool:
    """Whether ``href`` is an address on another site than the host ``own``."""
    try:
        host = urlsplit(href or "").hostname
    except ValueError:
        return False
    return host is not None and host != "" and host.removeprefix("www.") != own


def _own_host(head: Any) -> str | None:
    """The host of the page's canonical address (``<link rel="canonical">``, else
    ``og:url``) in ``head``, without ``www.``; ``None`` when the page names none."""
    addresses = [e.get("href") for e in head.iter("link") if e.get("rel") == "canonical"]
    addresses += [e.get("content") for e in head.iter("meta") if e.get("property") == "og:url"]
    for address in addresses:
        try:
            host = urlsplit(address or "").hostname
        except ValueError:
            continue
        if host:
            return host.removeprefix("www.")
    return None


def _holds_page(element: Any, tree: Any, page_chars: list[int]) -> bool:
    """Whether ``element`` holds :data:`KEPT_SHARE` or more of ``tree``'s text (the
    page's length cached in ``page_chars``), less than :data:`KEPT_LINKED` of it in links."""
    if not len(element) or element.tag in _NEVER_KEPT:
        return False
    chars = len(element.text_content())
    if chars < _KEPT_MIN_CHARS:
        return False  # shorter still without its scripts and styles: not counted
    chars -= _code_chars(element)
    if chars < _KEPT_MIN_CHARS:
        return False
    # links first: a menu fails there, and the page's text is then never counted
    if sum(len(link.text_content()) for link in element.iter("a")) >= KEPT_LINKED * chars:
        return False
    if not page_chars:
        page_chars.append(_text_chars(tree))
    return chars >= KEPT_SHARE * page_chars[0]


def _consent_named(element: Any) -> bool:
    """Whether ``element``'s class or id names cookie consent (:data:`_CONSENT_WORDS`)."""
    names = (element.get("class") or "") + " " + (element.get("id") or "")
    return _CONSENT_NAMES.search(names) is not None


def _holds_content(element: Any) -> bool:
    """Whether ``element`` holds an ``<h1>``, ``<main>`` or ``<article>``: a wrapper
    whose class says the page has a cookie banner, not the banner (a consent dialog's
    text can outweigh a page of cards, so its length tells nothing), kept however short
    the page is."""
    return next(element.iter("h1", "main", "article"), None) is not None


def _policy(element: Any, tree: Any, about: list[bool]) -> bool:
    """Whether ``element`` (named for cookie consent) is the text of a page about cookies
    (its ``<title>`` names cookies, consent or the GDPR: a site's cookie policy), not a
    banner: it holds no button, field or option list. ``about`` caches the title's test."""
    if not about:
        titles = " ".join(title.text_content() for title in tree.iter("title")).lower()
        about.append(any(word in titles for word in ("cookie", "consent", "gdpr")))
    return about[0] and next(element.iter("button", "input", "select"), None) is None


def _taxonomy_only(element: Any) -> bool:
    """Whether ``element`` matched the consent rule only through a taxonomy class
    (:data:`_TAXONOMY`: WordPress puts ``category-cookies`` or ``tag-cookie-recipes`` on
    a baking blog's post and ``product_cat-cookies`` on a shop's product): a post or a
    product, not a banner, unless a donation class or a chrome role names it too."""
    if element.tag != "div" or element.get("role") in ("navigation", "contentinfo"):
        return False
    classes = (element.get("class") or "").split()
    if any(word in name for name in classes for word in _DONATION_WORDS):
        return False
    names = classes + (element.get("id") or "").split()
    named = [name for name in names if any(word in name for word in _CONSENT_WORDS)]
    return bool(named) and all(name.startswith(_TAXONOMY) for name in named)


def _text_chars(element: Any) -> int:
    """The length of ``element``'s text, less its scripts' and styles'."""
    return len(element.text_content()) - _code_chars(element)


def _code_chars(element: Any) -> int:
    """The length of the text of ``element``'s scripts and styles."""
    return sum(len(node.text or "") for node in element.iter("script", "style"))


def _code_alone(table: Any) -> None:
    """``table`` (with its ``<figure>``, when that holds nothing else) replaced by its one
    ``<pre>`` when, its gutter gone, it is one cell holding that code block and nothing
    else: the layout Hexo's highlighter gives numbered code (Rouge's table inside a
    ``<pre>`` is read as code already, and left). Read as a table, the block is one
    row: its lines run together in one cell."""
    cells = list(table.iter("td", "th"))
    pres = list(table.iter("pre"))
    parent = table.getparent()
    if len(cells) != 1 or len(pres) != 1 or parent is None:
        return
    if next(table.iterancestors("pre"), None) is not None:
        return  # Rouge's table inside a <pre>: read as code already
    pre = pres[0]
    if len(cells[0].text_content().strip()) != len(pre.text_content().strip()):
        return  # words beside the code: a table of data
    outer = table
    if parent.tag == "figure" and len(parent) == 1 and not (parent.text or "").strip():
        outer, parent = parent, parent.getparent()
        if parent is None:
            return
    pre.tail = outer.tail
    parent.replace(outer, pre)


def _unwrap_links(tree: Any) -> None:
    _unwrap(_SELF_LINKS(tree))


def _unwrap(links: list[Any]) -> None:
    """Each of ``links`` made a ``<span>`` when it shows a word, else removed (its tail
    kept)."""
    for link in links:
        if _WORD.search(link.text_content() or ""):
            link.tag = "span"
            link.attrib.clear()
        else:
            link.drop_tree()  # its tail stays


def without_pleas(text: str) -> str:
    """``text`` without its last :data:`PLEA_LINES` non-empty lines where they ask the
    reader for money (and text is left before them)."""
    lines = text.split("\n")
    cut, seen = len(lines), 0
    while cut > 1 and seen < PLEA_LINES:
        line = lines[cut - 1]
        if line.strip():
            if len(line) > PLEA_LENGTH or not _is_plea(line):
                break
            seen += 1
        cut -= 1
    if not seen:
        return text
    while cut > 0 and not lines[cut - 1].strip():
        cut -= 1
    return "\n".join(lines[:cut]) if cut else text


def _is_plea(line: str) -> bool:
    """Whether ``line`` asks the reader for money for the writer or the site."""
    return bool(_PLEA_SERVICE.search(line)) or bool(
        _PLEA_ASK.search(line) and _PLEA_SELF.search(line)
    )
