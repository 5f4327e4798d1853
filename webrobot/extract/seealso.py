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
going to the page's own site: a relative address, or one on the host of the page's
canonical address (``<link rel="canonical">``, else ``og:url``). A link to another site
is a source the article cites ("Source: A Survey on …"), which stays. The language of
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


def without_see_also(paragraphs: Iterable[Any], own: str | None) -> int:
    """The paragraphs among ``paragraphs`` (a tree's ``<p>`` elements) that are a label,
    a colon and one link to a headline (:func:`is_see_also`) on the page's own site
    (relative, or on the host ``own``: :func:`own_host`), removed from their tree (their
    tails kept); the number removed."""
    removed = 0
    for paragraph in [paragraph for paragraph in paragraphs if is_see_also(paragraph)]:
        host = _host(next(paragraph.iter("a")).get("href"))
        if paragraph.getparent() is None or (host is not None and not _same_site(host, own)):
            continue
        delete(paragraph)
        removed += 1
    return removed


def own_host(root: Any, url: str | None = None) -> str | None:
    """The host of the page's canonical address (``<link rel="canonical">``, else
    ``og:url``) in the ``<head>`` of ``root``, else of ``url`` (the address it was
    fetched from), without ``www.``; ``None`` when none is known."""
    elements = root.find("head")
    if elements is None:
        return _host(url)
    links = [e.get("href") for e in elements.iter("link") if e.get("rel") == "canonical"]
    links += [e.get("content") for e in elements.iter("meta") if e.get("property") == "og:url"]
    for address in links:
        host = _host(address)
        if host:
            return host
    return _host(url)


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
