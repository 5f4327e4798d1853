"""A forum post's furniture, which is never the thread's text: the writer's card (rank,
post count, join date, profile fields), their signature and the note that the post was
edited.

Forum software draws the same furniture around every post, and names it the same way on
every forum it runs: phpBB's ``postprofile`` fields (``profile-posts``,
``profile-joined``, ``profile-custom-field``) and ``signature``; vBulletin's
``userinfo_extra`` and ``userstats``, ``usertitle``, ``signaturecontainer`` and
``lastedited``; XenForo's ``message-signature`` and ``message-lastEdit``
(``extraUserInfo`` and ``editDate`` in its first version, ``MessageCard__post-count``
and ``MessageCard__join-date`` in the theme of a large network of XenForo forums); Invision Community's ``cAuthorPane_info``,
``cSignature`` and ``ipsEntry__signature``; FluxBB's ``postsignature`` and
``postedit``; Simple Machines' ``postcount``. On a thread read broadly they stand between
the posts as lines of their own ("Join Date / Nov 2024 / Posts / 3", "2,994 posts ·
Joined 2021", "Last edited by …", a signature's slogan under every post of its writer).
:func:`without_forum_chrome` removes them from the copy of the tree the main text is
read from.

Only those exact class names count (a class is a fact of the software, not of a site),
and only on a page that has at least :data:`MIN_MARKED` of them: a thread repeats its
furniture for every post, a lone ``signature`` on another page (a letter's signed name)
stays. Stack Exchange's ``post-signature`` is its writer's name and reputation, which
the thread's text holds, and is not among them. Nor is XenForo 2's card
(``message-userExtras``, ``message-userTitle``): its few lines, gone from a page, can
turn trafilatura's choice between the opening post and the whole thread (its
comparison with its fallback readings), which the rest of this does not. An element holding the page's ``<h1>``,
``<main>`` or ``<article>`` is never removed, nor one that holds a heading: a post's
furniture is a few lines, never a section of its own (a restaurant's ``<section
class="signature">`` of "Signature dishes" is the page's text).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

import lxml.etree

from webrobot.extract.htmltree import delete

#: The class names of a post's furniture, as the forum software writes them.
FURNITURE = frozenset(
    {
        # the writer's card: rank, post count, join date, profile fields
        "profile-posts", "profile-joined", "profile-rank", "profile-custom-field",
        "userinfo_extra", "userstats", "usertitle", "postcount",
        "extraUserInfo",
        "MessageCard__post-count", "MessageCard__join-date", "cAuthorPane_info",
        # signatures
        "signature", "signaturecontainer", "message-signature", "postsignature",
        "cSignature", "ipsEntry__signature",
        # edit notes
        "message-lastEdit", "editDate", "lastedited", "postedit",
    }
)  # fmt: skip
#: The links that open and close a long quote in a post (XenForo's "Click to expand...",
#: "Click to shrink..."): left out of a post's text, not of the tree a page is read from
#: (there, on two dev threads, trafilatura then chose another block to read).
QUOTE_LINKS = frozenset({"bbCodeBlock-expandLink", "bbCodeBlock-shrinkLink"})
#: A thread repeats its furniture: a page with fewer marked elements is left alone.
MIN_MARKED = 2
_KEPT = frozenset(("html", "body", "main", "article", "h1"))
#: A heading inside an element makes it a section, not a post's furniture.
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
#: The owners' classes that may be furniture, found in one walk of the class attributes.
_MARKED = lxml.etree.XPath(
    "//@class[contains(., 'ignature') or contains(., 'rofile-') or contains(., 'ser')"
    " or contains(., 'ount') or contains(., 'dit') or contains(., 'AuthorPane_info')]"
)


def furniture(root: Any) -> list[Any]:
    """The elements of ``root`` whose class is one of :data:`FURNITURE`, outermost only,
    when there are at least :data:`MIN_MARKED` of them; else none."""
    found: list[Any] = []
    for value in _MARKED(root):
        if FURNITURE.isdisjoint(value.split()):
            continue
        element = value.getparent()
        if element.tag in _KEPT or any(True for _ in element.iter(*_KEPT)):
            continue
        if any(True for _ in element.iterdescendants(*_HEADINGS)):
            continue
        found.append(element)
    if len(found) < MIN_MARKED:
        return []
    chosen = set(found)
    return [e for e in found if not any(a in chosen for a in e.iterancestors())]


def without_forum_chrome(root: Any) -> None:
    """Remove a thread's post furniture (:func:`furniture`) from ``root``, in place, each
    element's tail kept."""
    for element in furniture(root):
        delete(element)
