"""A thread's posts found by their shape: sibling blocks that repeat, each naming its writer.

Forum software of every age writes a thread as one block per post, the blocks siblings
of one shape (the same tag and class: Hacker News's ``<tr class="athing comtr">``, Simple
Machines' ``<div class="windowbg">``, XenForo 1's ``<li class="message">``, a site's own
``<li class="DiscussionBoard-item">``), each linking its writer's name to the writer's
profile page (``user?id=``, ``action=profile;u=``, ``member.php?u=``, ``/members/``,
``/u/``). Where a page carries no microdata for its posts and no class name that forum
software is known by, :func:`posts` finds them by that shape alone, so that a thread of
software nobody looked at reads as its posts: :data:`MIN_POSTS` or more such siblings,
together holding :data:`PAGE_SHARE` of the page's text (the posts are the page; a side
bar's list of members is not). Each post's body is found by shape too
(:func:`_body_paths`): the element at the same place in most posts that holds the most of
their text (a comment's text, not its header of name, age and links).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from webrobot.extract.forumchrome import FURNITURE as _FURNITURE

#: A thread has at least this many posts that name their writer.
MIN_POSTS = 3
#: The posts hold at least this share of the page's text (characters, scripts left out).
PAGE_SHARE = 0.5
#: No one post holds more than this share of the posts' text: three blocks around one
#: that holds nearly all (a page's header, content and footer, each linking a profile or
#: a sign-in page) are no thread.
ONE_POST_SHARE = 0.8
#: A post's body holds at least this share of the posts' text, summed over them.
BODY_SHARE = 0.6
#: A writer's name is no shorter and no longer than these (characters): a link of one
#: letter is an avatar's initial.
MIN_NAME = 2
MAX_NAME = 60
#: The path or query of a link to a writer's profile: a part named for members, users or
#: profiles (``/members/x.12/``, ``member.php?u=``, ``user?id=``, ``action=profile;u=``,
#: Discourse's ``/u/x``; a ``u`` followed by a dot is an abbreviation, ``/u.s.-election``),
#: or a ``~name`` (Slashdot).
PROFILE_LINK = re.compile(
    r"(?:^|[/?&;.=])(?:(?:members?|memberlist|users?|profiles?|people|showuser)(?:$|[/?&;.=])"
    r"|u(?:$|[/?&;=]))|/~\w",
    re.IGNORECASE,
)
#: A post's shown date is no longer than this (characters).
MAX_DATE = 40
#: A shown date: a year and a day of the month or an hour beside it ("June 04, 2024,
#: 11:23:55 AM", "on Dec 26, 2023", "12-05-2008, 10:23 PM"); a month and a year alone
#: ("Joined Nov 2024") is a writer's card.
_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_DAY = re.compile(r"(?<!\d)(?:[0-2]?\d|3[01])(?!\d)")
_UNSHOWN = frozenset({"script", "style", "noscript", "template"})
_HEADINGS = "descendant::*[self::h1 or self::h2 or self::h3 or self::h4]"

#: A link's scheme and host, left out before its path and query are read.
_ORIGIN = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//[^/?#]*", re.IGNORECASE)
Post = tuple[Any, Any, str]
Path = tuple[tuple[str, str], ...]
#: A post's characters, and each element inside it with its path and its characters.
Measure = tuple[int, list[tuple[Path, Any, int]]]


def posts(root: Any) -> list[Post]:
    """``(post, body, writer)`` of each post of the page's thread found by its shape (see
    the module doc), in page order, or ``[]`` when the page holds none."""
    groups = _groups(root)
    if not groups:
        return []
    measured = sorted(
        ((_lengths(members), members) for members in groups), key=lambda pair: -sum(pair[0])
    )
    least = PAGE_SHARE * _shown_length(root)
    # the longest group that is no listing's teasers and no page's header, content and
    # footer, looked at longest first
    best = next(
        (
            members
            for lengths, members in measured
            if sum(lengths) >= least
            and max(lengths) <= ONE_POST_SHARE * sum(lengths)
            and not any(_teaser(post) for post, _ in members)
        ),
        None,
    )
    if best is None:
        return []
    best_measures = [_measure(post) for post, _ in best]
    paths = _body_paths(best_measures)
    return [
        (post, _body(post, elements, paths), name)
        for (post, name), (_, elements) in zip(best, best_measures, strict=True)
    ]


def shown_date(post: Any, body: Any) -> str | None:
    """The date ``post`` shows outside its ``body``: the first element's text that is
    short and says a year and a day or an hour (:data:`_DATE`, :data:`_DAY`), not a
    writer's card (:data:`~webrobot.extract.forumchrome.FURNITURE`); ``None`` when it
    shows none."""
    stack = [post]
    while stack:
        element = stack.pop()
        if element is body or not _FURNITURE.isdisjoint((element.get("class") or "").split()):
            continue
        text = " ".join(element.text_content().split())
        if len(text) <= MAX_DATE and _dated(text):
            inner = [c for c in element if isinstance(c.tag, str) and _dated(c.text_content())]
            if not inner:
                return text
        stack.extend(
            reversed([c for c in element if isinstance(c.tag, str) and c.tag not in _UNSHOWN])
        )
    return None


def _dated(text: str) -> bool:
    year = _DATE.search(text)
    return (
        year is not None
        and _DAY.search(text[: year.start()] + " " + text[year.end() :]) is not None
    )


def _groups(root: Any) -> list[list[tuple[Any, str]]]:
    """The groups of :data:`MIN_POSTS` or more siblings of one tag and first class that
    each hold a link to a writer's profile, each member with its first writer's name."""
    found: dict[tuple[Any, str, str], dict[Any, str]] = {}
    for link in root.iter("a"):
        if not _profile(link.get("href") or ""):
            continue
        name = " ".join(link.text_content().split())
        if not MIN_NAME <= len(name) <= MAX_NAME:
            continue  # an avatar's link (its initial, "J"), or no name
        child = link
        for parent in link.iterancestors():
            key = (parent, child.tag, _first_class(child))
            found.setdefault(key, {}).setdefault(child, name)
            child = parent
    return [list(members.items()) for members in found.values() if len(members) >= MIN_POSTS]


def _profile(href: str) -> bool:
    if not href or href.startswith(("#", "javascript:", "mailto:")):
        return False
    return PROFILE_LINK.search(_ORIGIN.sub("", href, count=1).partition("#")[0]) is not None


def _first_class(element: Any) -> str:
    classes = (element.get("class") or "").split()
    return classes[0] if classes else ""


def _teaser(post: Any) -> bool:
    """A heading that links to another page: a listing's teaser, not a post; a heading
    that links to its writer's profile or to a post's anchor (``#msg4172316``) is a
    post's."""
    for heading in post.xpath(_HEADINGS):
        for link in heading.xpath(".//a[@href] | ancestor::a[@href]"):
            href = link.get("href") or ""
            if "#" not in href and not _profile(href):
                return True
    return False


def _chars(text: str | None) -> int:
    return len("".join(text.split())) if text else 0


def _lengths(members: list[tuple[Any, str]]) -> list[int]:
    return [_shown_length(post) for post, _ in members]


def _shown_length(element: Any) -> int:
    """The characters of ``element``'s shown text, spaces and scripts left out."""
    length = _chars("".join(element.itertext()))
    for unshown in element.iter(*_UNSHOWN):
        length -= _chars("".join(unshown.itertext()))
    return length


def _measure(post: Any) -> Measure:
    """The characters of ``post``'s shown text (spaces and scripts left out), and each
    element inside it with its path from it (tag and first class a step) and its own
    characters, in one walk."""
    elements: list[tuple[Path, Any, int]] = []

    def visit(element: Any, path: Path) -> int:
        length = _chars(element.text)
        for child in element:
            if isinstance(child.tag, str) and child.tag not in _UNSHOWN:
                step = (*path, (child.tag, _first_class(child)))
                at = len(elements)
                elements.append((step, child, 0))
                inner = visit(child, step)
                elements[at] = (step, child, inner)
                length += inner
            length += _chars(child.tail)
        return length

    return visit(post, ()), elements


def _body_paths(measures: list[Measure]) -> list[Path]:
    """The paths (from a post) of the posts' bodies: the paths found once in a post and in
    at least half of the posts whose elements hold :data:`BODY_SHARE` of the posts' text,
    the deepest first (the body itself, not the post's cell around its header)."""
    whole = 0
    held: Counter[Path] = Counter()
    present: Counter[Path] = Counter()
    for total, elements in measures:
        whole += total
        once = Counter(path for path, _, _ in elements)
        for path, _, length in elements:
            if once[path] == 1:
                held[path] += length
                present[path] += 1
    fit = [
        path
        for path, length in held.items()
        if length >= BODY_SHARE * whole and 2 * present[path] >= len(measures)
    ]
    return sorted(fit, key=lambda path: (-len(path), -held[path]))


def _body(post: Any, elements: list[tuple[Path, Any, int]], paths: list[Path]) -> Any:
    """The post's element at the first of ``paths`` it holds, else the post itself."""
    at = {path: element for path, element, _ in elements}
    for path in paths:
        if path in at:
            return at[path]
    return post
