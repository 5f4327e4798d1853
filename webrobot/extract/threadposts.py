"""A forum thread's posts, read from the schema.org microdata its software writes.

Forum and question-and-answer software (XenForo, Discourse, vBulletin, Stack Exchange
and many more) marks each post as a schema.org item (``Comment``,
``DiscussionForumPosting``, ``Answer``, ``Question``) with its body as the item's
``text`` (or ``articleBody``) property and its writer as its ``author``. On a thread,
the posts are the page's content; a reading that looks for one block of article text
keeps the opening post alone, or a dialog or the side bar. :func:`thread_text` gives
the posts in page order, each as its writer's name on a line, the date the post shows
on the next (:func:`shown_date`), then its body one block a line. A thread whose software writes no microdata (a static archive of a forum) is read
from its sibling ``<article>`` posts (or ``<div class="post">``, as phpBB writes them),
each naming its writer in an element whose class says so (:func:`plain_posts`). :mod:`webrobot.extract.maintext` uses it on a page that declares no article (or
declares a discussion as well) and no product, when the page holds at least
:data:`MIN_POSTS` such posts with a writer (a page's questions and answers in an FAQ have
none), as :func:`thread_reading` decides.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import logging
import re
from itertools import pairwise
from typing import Any

from webrobot.extract import repeatedposts
from webrobot.extract.forumchrome import FURNITURE, QUOTE_LINKS
from webrobot.extract.shingles import share_kept

logger = logging.getLogger(__name__)
#: The schema.org types of a post.
POST_TYPES = ("Comment", "DiscussionForumPosting", "Answer", "Question", "SocialMediaPosting")
#: Items whose comments are remarks on them, not posts of the thread (Stack Exchange).
ANSWERED = frozenset({"Question", "Answer"})
#: The properties that hold a post's body.
BODY_PROPERTIES = frozenset({"text", "articleBody"})
#: The types of a thread's opening post: a page holding one is a thread.
OPENING_TYPES = frozenset({"DiscussionForumPosting", "Question"})
#: The posts replace a text that is this share of them (the opening post alone).
HELD_SHARE = 0.5
#: The characters of a reading's paragraph looked for in the page (its start).
ARTICLE_START = 80
_UNREAD = frozenset(("script", "style", "noscript", "template"))
#: A thread has at least this many posts with a body.
MIN_POSTS = 2
#: An author name longer than this (characters) is not a name.
MAX_NAME = 60
#: A post's shown date longer than this (characters) is not a date.
MAX_DATE = 40
_BLOCKS = frozenset(
    {"p", "div", "br", "li", "ul", "ol", "blockquote", "pre", "tr", "table", "section",
     "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "figure", "aside", "article", "hr"}
)  # fmt: skip
_SKIPPED = FURNITURE | QUOTE_LINKS
_UNSHOWN = frozenset({"script", "style", "noscript", "template", "button", "svg"})
_SPACES = re.compile(r"[^\S\n]+")
#: The elements that may be a post without microdata: an ``<article>``, or an element
#: whose class is ``post`` (phpBB's ``<div class="post">``).
_PLAIN_POSTS = "//article | //*[contains(concat(' ', normalize-space(@class), ' '), ' post ')]"
#: A class that names a post's writer, and one that names its body.
_WRITER_CLASS = re.compile(
    r"(?:^|\s|[-_])(?:author|poster|username|user-name)(?:$|\s|[-_])", re.IGNORECASE
)
_BODY_CLASS = re.compile(r"(?:^|\s|[-_]|post)(?:body|content|message|text)(?:$|\s)", re.IGNORECASE)


def posts(root: Any) -> list[tuple[Any, Any]]:
    """``(item, body)`` of each post of the page in page order: the post's item element
    and its body element, a body inside another post's body left out (a quote), and a
    comment on a question or an answer too; where the microdata marks fewer than
    :data:`MIN_POSTS`, the page's :func:`plain_posts`."""
    found = _marked_posts(root)
    return found if len(found) >= MIN_POSTS else plain_posts(root) or found


def plain_posts(root: Any) -> list[tuple[Any, Any]]:
    """``(post, body)`` of a thread whose software writes no microdata (a static forum
    archive, phpBB): :data:`MIN_POSTS` or more sibling ``<article>`` elements, or
    elements whose class is ``post``, each naming its writer in an element whose class
    says so (``post-author``, ``username``) and none headed by a link to another page (a
    listing's teasers are; phpBB's link to the post's own anchor is no teaser's); the body
    is the post's element whose class says body, content or message, the innermost such
    (else the whole post). The largest such group."""
    groups: dict[Any, list[Any]] = {}
    for element in root.xpath(_PLAIN_POSTS):
        groups.setdefault(element.getparent(), []).append(element)
    best: list[Any] = []
    for members in groups.values():
        if len(members) < max(MIN_POSTS, len(best) + 1):
            continue
        if all(_writer(m) is not None and not _linked_heading(m) for m in members):
            best = members
    return [(post, _body(post)) for post in best]


def _marked_posts(root: Any) -> list[tuple[Any, Any]]:
    found: list[tuple[Any, Any]] = []
    bodies: set[Any] = set()
    for element in root.xpath("//*[@itemprop]"):
        if not BODY_PROPERTIES.intersection(element.get("itemprop").split()):
            continue
        item = element if element.get("itemscope") is not None else _item_of(element)
        if item is None or not _is_post(item):
            continue
        if any(a in bodies for a in element.iterancestors()):
            continue
        if _kind(item) == "Comment" and any(
            _kind(a) in ANSWERED for a in item.iterancestors() if a.get("itemscope") is not None
        ):
            continue  # a comment on a question or an answer, not a post of the thread
        bodies.add(element)
        found.append((item, element))
    return found


def thread_text(root: Any, found: list[tuple[Any, Any]] | None = None) -> str | None:
    """The thread's posts (``found``, else :func:`posts`) as text (see the module doc),
    or ``None`` when the page holds fewer than :data:`MIN_POSTS`."""
    found = posts(root) if found is None else found
    if len(found) < MIN_POSTS:
        return None
    lines: list[str] = []
    for item, body in found:
        name = author(item)
        if name:
            lines.append(name)
        when = shown_date(item)
        if when:
            lines.append(when)
        lines.extend(block_lines(body))
    return "\n".join(lines) or None


def thread_reading(root: Any, text: str | None, discussion: bool = False) -> str | None:
    """The thread's posts (:func:`thread_text`) in place of ``text``, when they are more
    than it and either hold it (the reading kept the opening post alone) or the page
    says it is a thread (``discussion``: its JSON-LD, or a post of its own that is a
    ``DiscussionForumPosting`` or ``Question``); else ``None``: a blog post's comments
    never stand in for the post."""
    found = posts(root)
    if sum(1 for item, _ in found if author(item)) < MIN_POSTS:
        return None  # posts without writers: a page's questions and answers, not a thread
    thread = thread_text(root, found)
    if not thread or (text and len(thread) <= len(text)):
        return None
    opening = any(_kind(item) in OPENING_TYPES for item, _ in found)
    if discussion or opening or (text and share_kept(text, thread) >= HELD_SHARE):
        return thread
    return None


def in_place(
    root: Any, text: str | None, markdown: str | None, discussion: bool = False
) -> tuple[str | None, str | None]:
    """``text`` and its ``markdown``, or the thread's posts in place of both where
    :func:`thread_reading` says they are the page's content."""
    try:
        thread = thread_reading(root, text, discussion) or shaped_reading(root, text)
    except Exception:  # a page must never break the crawl
        logger.debug("thread not read", exc_info=True)
        thread = None
    return (thread, thread) if thread else (text, markdown)


def shaped_reading(root: Any, text: str | None) -> str | None:
    """The posts of a thread found by their shape
    (:func:`webrobot.extract.repeatedposts.posts`), each as its writer's name on a line
    and its body one block a line, in place of ``text`` when they are more than it; else
    ``None``. A reading the posts do not hold (:data:`HELD_SHARE`) whose longest
    paragraph is longer than every post's body and stands in the page before the first
    post is an article the posts comment on, and is kept: a blog post's comments never
    stand in for the post (a menu's short lines, or a dialog's terms after the posts,
    give way)."""
    lines: list[str] = []
    longest = 0
    found = repeatedposts.posts(root)
    for post, body, name in found:
        when = repeatedposts.shown_date(post, body)
        if not when or name not in when:  # "<writer> said on <day>" names the writer
            lines.append(name)
        if when:
            lines.append(when)
        said = block_lines(body)
        longest = max(longest, sum(map(len, said)))
        lines.extend(said)
    thread = "\n".join(lines)
    if not thread or len(thread) <= len(text or ""):
        return None
    paragraph = max((text or "").splitlines(), key=len, default="")
    if (
        len(paragraph) > longest
        and share_kept(text or "", thread) < HELD_SHARE
        and _stands_before(found[0][0], paragraph)
    ):
        return None  # an article its comments follow
    return thread


def _stands_before(first: Any, line: str) -> bool:
    """Whether the start of ``line`` stands in the page before ``first``, its first post:
    in the text of what precedes it (a paragraph, or text and line breaks in a block, as
    Blogger writes a post)."""
    start = " ".join(line.split())[:ARTICLE_START]
    chain = [first, *first.iterancestors()]
    chain.reverse()  # from the root down to the first post
    before: list[str] = []
    for parent, child in pairwise(chain):
        before.append(parent.text or "")
        for sibling in parent:
            if sibling is child:
                break
            if isinstance(sibling.tag, str) and sibling.tag not in _UNREAD:
                before.append(sibling.text_content())
            before.append(sibling.tail or "")
    return bool(start) and start in " ".join(" ".join(before).split())


def author(item: Any) -> str | None:
    """The name of the item's ``author`` (its ``name`` property, else its text); for a
    post without microdata (:func:`plain_posts`), its writer's element's text."""
    if item.get("itemscope") is None:
        writer = _writer(item)
        name = " ".join(writer.text_content().split()) if writer is not None else ""
        return name if 0 < len(name) <= MAX_NAME else None
    for element in item.iter():
        prop = element.get("itemprop") if isinstance(element.tag, str) else None
        if not prop or "author" not in prop.split():
            continue
        named = element.xpath(".//*[@itemprop='name']")
        source = named[0] if named else element
        name = source.get("content") or source.text_content()
        name = " ".join(name.split())
        return name if 0 < len(name) <= MAX_NAME else None
    return None


def shown_date(item: Any) -> str | None:
    """The date the post shows beside its writer: the text of its item's
    ``datePublished`` element (Discourse's and XenForo's ``<time>``, "Mar 27, 2025"),
    not of a post inside it; ``None`` when the date is only markup (a ``<meta>``)."""
    if item.get("itemscope") is None:
        return None
    for element in item.iter():
        prop = element.get("itemprop") if isinstance(element.tag, str) else None
        if not prop or "datePublished" not in prop.split() or _post_of(element) is not item:
            continue
        shown = " ".join(element.text_content().split())
        if 0 < len(shown) <= MAX_DATE:
            return shown
    return None


def _post_of(element: Any) -> Any:
    for ancestor in element.iterancestors():
        if ancestor.get("itemscope") is not None and _is_post(ancestor):
            return ancestor
    return None


def block_lines(element: Any) -> list[str]:
    """``element``'s text, one block (paragraph, list item, quote, line break) a line,
    without a post's furniture (:data:`~webrobot.extract.forumchrome.FURNITURE`) or a
    quote's "Click to expand..." (:data:`~webrobot.extract.forumchrome.QUOTE_LINKS`)."""
    parts: list[str] = []
    _walk(element, parts)
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(parts).split("\n"))
    return [line for line in lines if line]


def _walk(element: Any, parts: list[str]) -> None:
    if not isinstance(element.tag, str) or element.tag in _UNSHOWN:
        return
    if not _SKIPPED.isdisjoint((element.get("class") or "").split()):
        return  # a post's furniture, a quote's "Click to expand..."
    block = element.tag in _BLOCKS
    if block:
        parts.append("\n")
    if element.text:
        parts.append(element.text)
    for child in element:
        _walk(child, parts)
        if child.tail:
            parts.append(child.tail)
    if block:
        parts.append("\n")


def _writer(post: Any) -> Any:
    """The first element of ``post`` whose class names the writer (``post-author``) and
    that holds a text (not the writer's avatar, ``author-avatar``)."""
    for element in post.iter():
        if (
            isinstance(element.tag, str)
            and _WRITER_CLASS.search(element.get("class") or "")
            and element.text_content().strip()
        ):
            return element
    return None


def _linked_heading(post: Any) -> bool:
    """A heading that links, or a link around a heading: a teaser's title; not a link to
    the post itself (phpBB heads a post with a link to its own anchor, ``#p550447``)."""
    own = {f"#{i}" for i in post.xpath("descendant-or-self::*/@id")}
    for heading in post.xpath(".//*[self::h1 or self::h2 or self::h3 or self::h4]"):
        links = heading.xpath(".//a[@href] | ancestor::a[@href]")
        if any("#" + (link.get("href") or "").partition("#")[2] not in own for link in links):
            return True
    return False


def _body(post: Any) -> Any:
    """The post's first element whose class says body, content or message, or the one
    such inside it (phpBB's ``content`` in its ``postbody``, which holds the post's
    header and signature too); else the whole post."""
    body = post
    while (inner := _first_body(body)) is not None:
        body = inner
    return body


def _first_body(post: Any) -> Any:
    for element in post.iter():
        if (
            element is not post
            and isinstance(element.tag, str)
            and _BODY_CLASS.search(element.get("class") or "")
        ):
            return element
    return None


def _item_of(element: Any) -> Any:
    for ancestor in element.iterancestors():
        if ancestor.get("itemscope") is not None:
            return ancestor
    return None


def _kind(item: Any) -> str:
    """The item's (first) schema.org type's name."""
    types = (item.get("itemtype") or "").split()
    return types[0].rstrip("/").rsplit("/", 1)[-1] if types else ""


def _is_post(item: Any) -> bool:
    return _kind(item) in POST_TYPES
