"""Pages that list posts: a blog's front page, its tag, category and archive pages.

Such a page shows each post it lists with the post's date and authors, often marked
up as the post's own (Docusaurus marks each as a schema.org ``blogPost`` of a
``Blog``, with ``datePublished`` and ``author``; WordPress and Hugo themes give each
an ``<article>`` with its ``<time>``, or a card that is one link to the post). Those are the listed posts' dates and authors,
not the page's: a page that lists posts has no single publication date or author of
its own, and taking the first post's would date the page by whatever was posted last.

:func:`lists_posts` decides from what the page says: its posts are the elements
marked as one (microdata of a ``BlogPosting``, ``Article``... type, or
``itemprop=blogPost``), and the ``<article>`` elements and the links around a heading
(a card that is one link) that hold a date (a ``<time>``, or a full date printed in
a card's short text, as Ghost's Casper prints "Monday January 07 2019"), outside
comments, sidebars, related posts, the navigation and the footer;
a post *names another page* when its heading is a link (or stands in one) to another
address than the page's, or its ``itemprop=url`` is. The page lists posts when

- two or more of them are there and every one names another page, or
- one is there, marked as one of a blog's posts (``itemprop=blogPost``), it names
  another page, and the page's titles do not carry its headline (a tag page listing
  one post; a post whose title links to a shorter address of itself keeps its date
  by its title).

A page whose headline (its first ``<h1>`` of some length outside the posts) has a
date printed just before it, or after it before the first post, is a post with teasers
of others, not a list; so is a page whose paragraphs before the first post hold an
article's text (:data:`MIN_ARTICLE_TEXT`); so is a page whose first line that says when it was posted
("This entry was posted on March 4th, 2021") gives a day no post prints. A page that names or declares an article of its own (JSON-LD, microdata,
``og:type``), or sells something (a shop's page lists products, not posts), lists
none: its metadata caller does not ask (:func:`webrobot.extract.metadata.metadata`).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from webrobot.extract.dates import iso_date
from webrobot.extract.pagedates import ANY_DATE, NEAR_HEADLINE, ORDINAL, labelled_date

#: Elements a post may be: microdata items, ``<article>`` elements and links that hold a
#: heading (a card that is one link to the post).
_CANDIDATES = etree.XPath(
    "//*[@itemtype or @itemprop='blogPost' or self::article]"
    " | (//h1 | //h2 | //h3)/ancestor::a[@href]"
)
#: A microdata type of a post.
_POST_TYPE = re.compile(r"(?:Posting|Article)/?$")
#: A dated element inside a post.
_DATED = etree.XPath(".//time | .//*[@itemprop='datePublished']")
#: The post's heading: its first ``<h1>``-``<h3>`` (a forum post's ``<h4>`` is its
#: poster's name).
_HEADING = etree.XPath("(.//h1 | .//h2 | .//h3)[1]")
#: The address an item names as its own.
_ITEM_URL = etree.XPath(".//*[@itemprop='url'][self::a or self::link]")
#: Classes of a region beside the page's own content.
_AWAY = re.compile(r"comment|respond|sidebar|widget|related|footer")
#: A headline shorter than this is a site's name or a section's.
MIN_HEADLINE = 10
#: An ``<article>`` without a ``<time>`` is a post's card when its text, shorter than
#: this, prints a full date ("Monday January 07 2019").
MAX_CARD_TEXT = 2_000
#: Characters of paragraphs before the first listed post that make the page an article
#: with teasers after it (a column, then cards of the other columns), not a list.
MIN_ARTICLE_TEXT = 1_000
#: Candidates read, at most (a long archive lists hundreds of posts).
MAX_CANDIDATES = 200


def lists_posts(root: Any, urls: Iterable[str], titles: Iterable[str | None]) -> bool:
    """Whether the page (its tree ``root``, its own addresses ``urls``, its titles:
    ``<title>``, ``og:title``) lists posts (see the module doc)."""
    if root is None:
        return False
    try:
        posts = _posts(root)
        if not posts:
            return False
        paths = {_path(u) for u in urls} - {None}
        base = next(iter(urls), "")
        named = [_named(post, base) for post in posts]
        if any(not n or n & paths for n in named) or _dated_headline(root, posts):
            return False
        if _text_before(posts[0]) >= MIN_ARTICLE_TEXT:
            return False
        if _labelled_outside(root, posts):
            return False
        if len(posts) >= 2:
            return True
        if "blogPost" not in (posts[0].get("itemprop") or "").split():
            return False
        headline = _heading_text(posts[0])
        said = [" ".join(t.split()).casefold() for t in titles if t]
        return bool(headline) and bool(said) and not any(headline in t for t in said)
    except (AttributeError, ValueError, TypeError, etree.LxmlError):
        return False


def _dated_headline(root: Any, posts: list[Any]) -> bool:
    """Whether the page's headline (its first ``<h1>`` of some length outside the
    posts) has a date of its own printed just before it, or after it before the first
    post: a post with teasers of others, not a list."""
    for h1 in root.iter("h1"):
        if len(h1.text_content().strip()) < MIN_HEADLINE or any(
            _inside(h1, post) for post in posts
        ):
            continue
        after = " ".join(_text_near(h1.xpath("following::text()"), posts, NEAR_HEADLINE))
        near = _text_near(h1.xpath("preceding::text()")[::-1], posts, NEAR_HEADLINE // 2)
        before = " ".join(near[::-1])[-(NEAR_HEADLINE // 2) :]
        return any(ANY_DATE.search(text.lower()) for text in (after, before))
    return False


def _text_before(post: Any) -> int:
    """Characters of the paragraphs before ``post``, outside comments, sidebars and the
    navigation, read until :data:`MIN_ARTICLE_TEXT`."""
    count = 0
    for paragraph in post.xpath("preceding::p"):
        if not _away(paragraph):
            count += len(" ".join(paragraph.text_content().split()))
            if count >= MIN_ARTICLE_TEXT:
                break
    return count


def _labelled_outside(root: Any, posts: list[Any]) -> bool:
    """Whether the page's first line that says when it was posted ("This entry was
    posted on March 4th, 2021", :func:`webrobot.extract.pagedates.labelled_date`) gives a
    day no post prints: the page's own, a post with teasers of others after it."""
    day = labelled_date(root, None)
    return day is not None and not any(_prints(post, day) for post in posts)


def _prints(post: Any, day: str) -> bool:
    """Whether ``post`` states the day ``day`` (``YYYY-MM-DD``): in a date element's
    ``datetime`` or as a full date in its text."""
    if any((e.get("datetime") or e.get("content") or "")[:10] == day for e in _DATED(post)):
        return True
    text = " ".join(post.text_content()[:MAX_CARD_TEXT].split()).lower()
    for match in ANY_DATE.finditer(text):
        found = iso_date(ORDINAL.sub(r"\1", match[1]))
        if found and found[:10] == day:
            return True
    return False


def _text_near(texts: list[Any], posts: list[Any], limit: int) -> list[str]:
    """The pieces of ``texts`` (a headline's following or, nearest first, preceding
    text nodes) read until a post or a little more than ``limit`` characters, as
    :func:`webrobot.extract.pagedates.headline_date` reads around a headline."""
    parts: list[str] = []
    for text in texts:
        parent = text.getparent()
        if parent is None or parent.tag in ("script", "style", "title"):
            continue
        if any(parent is post or _inside(parent, post) for post in posts):
            break
        parts.append(str(text))
        if sum(map(len, parts)) > limit:
            break
    return parts


def _posts(root: Any) -> list[Any]:
    """The outermost elements that are posts, outside comments and sidebars."""
    found: list[Any] = []
    for element in _CANDIDATES(root)[:MAX_CANDIDATES]:
        if not _is_post(element):
            continue
        if any(_inside(element, post) for post in found):
            continue
        if _away(element):
            continue
        found.append(element)
    return found


def _away(element: Any) -> bool:
    """Whether ``element`` stands in comments, a sidebar, related posts, the navigation
    or the page's footer, up to the ``<main>`` that holds it (a theme's classes around
    the whole page, "sidebar-position-left", say nothing of the posts)."""
    for node in element.iterancestors():
        if node.tag in ("main", "body"):
            return False
        if node.tag in ("aside", "nav", "footer"):
            return True
        marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
        if marks.strip() and _AWAY.search(marks):
            return True
    return False


def _is_post(element: Any) -> bool:
    if "blogPost" in (element.get("itemprop") or "").split():
        return True
    kind = element.get("itemtype") or ""
    if kind and any(_POST_TYPE.search(k) for k in kind.split()):
        return True
    if element.tag not in ("article", "a"):
        return False
    if _DATED(element):
        return True
    text = " ".join(element.text_content()[:MAX_CARD_TEXT].split()).lower()
    return len(text) < MAX_CARD_TEXT and ANY_DATE.search(text) is not None


def _inside(element: Any, post: Any) -> bool:
    return any(node is post for node in element.iterancestors())


def _named(post: Any, base: str) -> set[str | None]:
    """The paths of the addresses ``post`` names as its own: its heading's links, its
    ``itemprop=url``."""
    hrefs: list[str] = []
    heading = _HEADING(post)
    if heading:
        hrefs.extend(str(a.get("href")) for a in heading[0].iter("a") if a.get("href"))
        around = next(heading[0].iterancestors("a"), None)  # a card's link around its title
        if around is not None and around.get("href") and (around is post or _inside(around, post)):
            hrefs.append(str(around.get("href")))
    hrefs.extend(
        str(e.get("href")) for e in _ITEM_URL(post) if e.get("href") and not _in_author(e, post)
    )
    return {_path(urljoin(base, h)) for h in hrefs if not h.startswith("#")} - {None}


def _in_author(element: Any, post: Any) -> bool:
    """Whether ``element`` belongs to an item inside ``post`` (an author's link)."""
    for node in element.iterancestors():
        if node is post:
            return False
        if node.get("itemscope") is not None:
            return True
    return False


def _heading_text(post: Any) -> str:
    heading = _HEADING(post)
    return " ".join(heading[0].text_content().split()).casefold() if heading else ""


def _path(url: str | None) -> str | None:
    """The path of ``url`` without a trailing ``index.html`` or slash."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    return path.removesuffix("index.html").rstrip("/") or "/"
