"""A paragraph that points to another article, left out of the text.

News sites and blogs set links to their other articles between an article's
paragraphs, each a paragraph of its own: a short label, a colon and the other
article's headline as one link ("Read more: Looted colonial art", "Lea también: …",
"LE PUEDE INTERESAR: …", "Czytaj też: …", "Auch lesen: …"). A reader skips them: they
are the site's, not the article's, and evaluation sets count them as boilerplate.
trafilatura keeps them, as it keeps any paragraph whose text is not mostly links by
its measure.

:func:`without_see_also` removes such paragraphs from the tree the readings read: a
``<p>`` whose whole text is a label of at most :data:`LABEL_WORDS` words ending with a
colon, then one link of at least :data:`HEADLINE_WORDS` words (a headline, not a
"Website: example.com" or "Download: PDF"), then nothing but punctuation, the link
going to another page of the page's own site: a relative path (not a place on the same
page, ``#methods``, nor a ``mailto:`` or script link), or an address on the host of the page's
canonical address (``<link rel="canonical">``, else ``og:url``; read from the page's own
tree, as the reading's copy has no ``<head>`` left). A link to another site, or any
absolute link on a page that names no canonical address, is a source the article cites
("Source: A Survey on …"), and stays. The language of
the label is not looked at: the shape is what every site shares.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from webrobot.extract.htmltree import delete

#: At most this many words before the colon.
LABEL_WORDS = 4
#: At least this many words in the link: a headline.
HEADLINE_WORDS = 3
#: Longer paragraphs are not looked at (a label, a headline and punctuation fit in it).
MAX_CHARS = 300
#: What may follow the link: punctuation and quotation marks.
_TRAILING = frozenset(".,;:!?…»«\"'”“’)]>›→ \u00a0")


def without_see_also(paragraphs: Iterable[Any], root: Any = None) -> list[Any]:
    """``paragraphs`` (a tree's ``<p>`` elements) without those that are a label, a colon
    and one link to a headline (:func:`is_see_also`) on the page's own site: a relative
    link, or one on the host of the canonical address in the page whose tree ``root`` is
    (:func:`own_host`; read only when such a link is found). Those are removed from their
    tree, their tails kept; the others are returned."""
    kept: list[Any] = []
    own: list[str | None] = []
    for paragraph in paragraphs:
        if not is_see_also(paragraph) or paragraph.getparent() is None:
            kept.append(paragraph)
            continue
        href = next(paragraph.iter("a")).get("href")
        if not _another_page(href):
            kept.append(paragraph)
            continue
        host = _host(href)
        if host is not None:
            if not own:
                own.append(own_host(root) if root is not None else None)
            if not _same_site(host, own[0]):
                kept.append(paragraph)
                continue
        delete(paragraph)
    return kept


def is_see_also(paragraph: Any) -> bool:
    """Whether ``paragraph`` (an lxml element) is a label of :data:`LABEL_WORDS` words or
    fewer ending with a colon, one link of :data:`HEADLINE_WORDS` words or more, and
    nothing after it but punctuation."""
    links = []
    for link in paragraph.iter("a"):
        links.append(link)
        if len(links) > 1:
            return False
    if not links:
        return False
    node = links[0]  # nothing after the link but punctuation, before any text is read
    while node is not paragraph:
        if node.tail and not set(node.tail) <= _TRAILING:
            return False
        for after in node.itersiblings():
            shown = after.text_content() if isinstance(after.tag, str) else ""
            if not set(shown + (after.tail or "")) <= _TRAILING:
                return False
        node = node.getparent()
        if node is None:
            return False
    headline = links[0].text_content().strip()
    if len(headline.split()) < HEADLINE_WORDS:
        return False
    whole = paragraph.text_content()
    if len(whole) > MAX_CHARS:
        return False
    at = whole.rfind(headline)
    if at < 0:
        return False
    label = whole[:at].strip()
    if not label.endswith(":"):
        return False
    words = label[:-1].split()
    return 0 < len(words) <= LABEL_WORDS and "http" not in label


def own_host(root: Any) -> str | None:
    """The host of the page's canonical address (``<link rel="canonical">``, else
    ``og:url``) in the ``<head>`` of ``root``, without ``www.``; ``None`` when it names
    none."""
    head = root.find("head")
    if head is None:
        return None
    links = [e.get("href") for e in head.iter("link") if e.get("rel") == "canonical"]
    links += [e.get("content") for e in head.iter("meta") if e.get("property") == "og:url"]
    for address in links:
        host = _host(address)
        if host:
            return host
    return None


def _another_page(address: str | None) -> bool:
    """Whether ``address`` names a page: a web address or a relative path, not a place on
    the same page (``#methods``), an address to write to (``mailto:``) or a script."""
    try:
        parts = urlsplit((address or "").strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("", "http", "https") and bool(parts.netloc or parts.path)


def _host(address: str | None) -> str | None:
    """The host of ``address`` without ``www.``; ``None`` for a relative address."""
    try:
        host = urlsplit((address or "").strip()).hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else None


def _same_site(host: str, own: str | None) -> bool:
    """Whether ``host`` is ``own`` or one of them a subdomain of the other."""
    if not own:
        return False
    return host == own or host.endswith("." + own) or own.endswith("." + host)
