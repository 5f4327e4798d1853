"""Authors as a page's bylines show them, and author names made clean.

A post names its author in its body even when its head does not: a link with
``rel="author"``, an element whose class says so (``p-author``, ``author-name``,
``byline``, ``post-author``...), or a line that starts with "By", "Von",
"Par", "Por", "Door", "Napsal", "Napisał", "Írta", "Scris de"..., or a line
labelled "Author:", "Autor:", "Szerző:" (not in a list or a table, where it is
a book's detail). Comments, sidebars, footers and navigation are left
out: the names there are readers', not the post's. One card beside the post
is the exception, read when the post itself names no one: the author's profile
that Minimal Mistakes and the Jekyll themes made from it (academicpages and
others) show in the sidebar of every post, its name in ``author__name``.

:func:`author_name` cleans one value from any source: the "By" and "Author:"
labels, the date, time or "| Twitter" that follows a name, handles, e-mail
addresses and URLs go; what is left must look like a name.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice
from typing import Any

#: Longest byline text read (a longer one is an author's biography, not a byline).
MAX_BYLINE = 120
#: "By" in the languages a byline is read in, as a regular expression: the word that
#: starts a byline ("By Jane Doe", "Von Max Muster", "Par Jean Dupont"), and a title's
#: byline part (:mod:`webrobot.extract.sitetitle`).
BY_WORDS = r"(?:by|von|par|por|door|di|av|af)"
_LABEL = re.compile(
    r"^(?:(?:written|posted|published|reported|words|photos?|text|story|"
    r"geschrieben|verfasst|veröffentlicht|gepostet|publié|écrit|rédigé|"
    r"escrito|publicado|scritto|pubblicato|geschreven|gepubliceerd)\s+)?"
    r"(?:by|von|vom|par|por|di|da|door|av|af|de|from)\s*:?\s+"
    r"|^(?:napsala?|napísala?|napisała?|írta|(?:scris|scrisă|publicat)\s+de)\s*:?\s+"
    r"|^(?:authors?|autor(?:in|en|ka|zy)?|auteurs?|autores?|autori|autore|verfasser(?:in)?|"
    r"szerzők?|redaktion|text|von|by)\s*:\s*",
    re.IGNORECASE,
)
#: Where the name ends: a date, a time, a separator, "on"/"am"/"le" and the like.
_TAIL = re.compile(
    r"\s*(?:[|•·—–/@]|\s-\s|,?\s+(?:on|am|le|el|il|op|den|updated|published|posted|"
    r"aktualisiert|veröffentlicht|mis à jour|publié|in|at|für|for|pour)\s"
    r"|,\s*[^\W\d_]*\.?\s*\d|(?<![^\W\d_])\d).*$"
)
#: A degree or title written after a name and a comma: "Ayush Kumar Shah, PhD".
_DEGREE = re.compile(
    r",\s*(?:Ph\.?\s?D|M\.?D|M\.?Sc|B\.?Sc|M\.?A|B\.?A|MBA|MPH|J\.?D)\.?\s*$",
    re.IGNORECASE,
)
_HANDLE = re.compile(r"@\w+|\S+@\S+\.\w+|https?://\S+|www\.\S+")
_LETTER = re.compile(r"[^\W\d_]")
_BYLINE_TEXT = re.compile(
    rf"^\s*(?:(?:posted|written)\s+)?{BY_WORDS}(?:\s+\S|\s*$)"
    # "wrote" in Czech, Slovak, Polish, Hungarian; "written by", "published by" in Romanian
    r"|^\s*(?:napsala?|napísala?|napisała?|írta|(?:scris|scrisă|publicat)\s+de)\s*:?(?:\s+\S|\s*$)",
    re.IGNORECASE,
)
#: A line labelled with the author ("Autor: Jan Novák", "Szerző: Kovács János"); read
#: outside lists and tables, where the label is a book's detail, not the page's byline.
_AUTHOR_LINE = re.compile(
    r"^\s*(?:authors?|autor(?:in|en|ka|zy)?|auteurs?|autores?|autori|autore|"
    r"verfasser(?:in)?|szerzők?)\s*:(?:\s*\S|\s*$)",
    re.IGNORECASE,
)
#: Where an author's label is a detail of the thing shown (a book's), not a byline.
_DETAILS = frozenset(("li", "dt", "dd", "td", "th", "table"))
#: "By" and a determiner starts a phrase ("By the digits", "By a landslide": a section's
#: heading), not a byline: a name follows "by" without one. So do "von" and "par".
_BY_PHRASE = re.compile(
    r"^\s*(?:(?:posted|written)\s+)?by\s+(?:the|a|an|this|that|these|those|our|your|my|its|their)\b"
    # German "von" and a determiner ("von jedem Pin", "Von dem Tag an"; "von der" is left:
    # it starts names, "von der Leyen"), or "from X to Y" ("Von BitKeeper zu Git")
    r"|^\s*von\s+(?:dem|den|des|die|das|ein|eine|einem|einer|eines|jede[mnrs]?|alle[mn]?|"
    r"diese[mnrs]?|meine[mnrs]?|unsere[mnrs]?|hier|dort|heute|außen|innen|oben|unten)\b"
    r"|^\s*von\s+\S+(?:\s+\S+){0,3}\s+(?:zu|zum|zur|bis|nach)\s"
    # French "par" and a determiner or an adverb ("Par la suite", "par exemple")
    r"|^\s*par\s+(?:le|la|les|l['’]|un|une|des|du|ce|cet|cette|ces|son|sa|ses|leurs?|"
    r"notre|nos|votre|vos|mon|ma|mes|exemple|ailleurs|contre|conséquent|défaut|rapport|"
    r"suite|ici|là)(?:\b|(?<=['’]))",
    re.IGNORECASE,
)
#: Elements whose names are not the post's author's.
_ELSEWHERE = re.compile(r"sidebar|widget|related|newsletter|share")


def _classes(*words: str) -> str:
    """An XPath test: the element's class holds one of ``words``."""
    return " or ".join(f"contains(@class, '{w}')" for w in words)


#: Every element that may hold a byline, found in one walk of the post.
_CANDIDATES = (
    ".//a[contains(concat(' ', normalize-space(@rel), ' '), ' author ')]"
    f" | .//*[{_classes('author', 'Author', 'byline', 'Byline', 'by-line', 'posted-by', 'submitted-by')}]"
)
#: Best first: explicit markup (``rel=author``, ``p-author``, ``author-name``), then a
#: byline's class, then any class naming an author.
_FIRST = re.compile(r"(?:^|\s)p-author(?:\s|$)|author-?name|author_name", re.IGNORECASE)
_SECOND = re.compile(
    r"byline|by-line|posted-by|submitted-by|post-author|entry-author|article-author|meta-author",
    re.IGNORECASE,
)
#: Elements a walk of the post looks at, at most: a byline is near its top.
MAX_ELEMENTS = 2_000
#: Classes of the third kind that hold no name: a picture, a biography, a box.
_NOT_A_NAME = re.compile(r"avatar|bio|image|img|photo|desc|about|box|title", re.IGNORECASE)
_BY_STARTS = (
    "by", "von ", "par ", "por ", "door ", "posted by", "written by", "napsal", "napísal",
    "napisał", "írta", "scris", "publicat d", "author", "autor", "auteur", "verfasser", "szerző",
)  # fmt: skip
#: The name on an author's profile card beside the post (Minimal Mistakes and its forks).
_PROFILE = ".//*[contains(concat(' ', normalize-space(@class), ' '), ' author__name ')]"
#: Text for screen readers only ("Posted by", "Author"), left out of a byline.
_HIDDEN = (
    ".//*[contains(@class, 'screen-reader') or contains(@class, 'sr-only')"
    " or contains(@class, 'visually-hidden')]"
)


def post_scope(root: Any) -> Any:
    """Where a page's post is: its first ``<article>``, else its ``<main>``, else its body."""
    for tag in ("article", "main", "body"):
        for element in root.iter(tag):
            return element
    return root


def short_texts(scope: Any, limit: int = 200) -> Iterator[tuple[Any, str]]:
    """``(element, text)`` for each text and tail shorter than ``limit`` in the first
    :data:`MAX_ELEMENTS` elements under ``scope`` (scripts and styles left out); a
    tail's element is its parent."""
    for element in islice(scope.iter(), MAX_ELEMENTS):
        tag = element.tag
        if not isinstance(tag, str):
            continue
        text = element.text
        if text and len(text) < limit and tag != "script" and tag != "style":
            yield element, text
        tail = element.tail
        if tail and len(tail) < limit and element is not scope:
            parent = element.getparent()
            if parent is not None:
                yield parent, tail


#: A byline's label standing alone ("By", "Publiziert am", "Replying to", "回答者："):
#: the name is in another element, or there is none.
_LABEL_ONLY = re.compile(
    r"^(?:(?:posted|published|written|geschrieben|publiziert|veröffentlicht|erstellt|"
    r"verfasst|publié|écrit|rédigé)(?:\s+(?:by|von|am|par|le|on))?|by|von|par|por|door|"
    r"authors?|autor(?:in)?|replying\s+to|link|publisher|am|on)$|[:：]$",
    re.IGNORECASE,
)
#: A picture's credit ("Foto: ...", "Фото: ..."): its photographer, not the post's author.
_CREDIT = re.compile(r"^(?:fotos?|photos?|bild(?:er)?|фото|image)\s*[:：]", re.IGNORECASE)
#: Labels before a name that :data:`_LABEL` does not know: "Erstellt von", "Artikel von:",
#: "Interview:", "Recueilli par".
_MORE_LABEL = re.compile(
    r"^(?:erstellt|artikel|beitrag|recueilli|interview)(?:\s+(?:von|par|by))?\s*:?\s+",
    re.IGNORECASE,
)
#: What follows a name and is no part of it: "For Mailonline", "Stand: 01.02.2022".
_ROLE = re.compile(r"\s+(?:For|Stand:)\s.*$")


def _label_or_credit(text: str) -> bool:
    """Whether ``text`` (one author value, spaces collapsed) names no author: a label
    alone (:data:`_LABEL_ONLY`) or a picture's credit (:data:`_CREDIT`)."""
    return bool(_CREDIT.match(text) or _LABEL_ONLY.search(text.strip(" ,.;-–—|•·()[]")))


def author_name(value: str) -> str | None:
    """``value`` as one author's name, or ``None`` when nothing name-like is left."""
    text = " ".join(value.split())
    if _label_or_credit(text):
        return None
    text = _ROLE.sub("", _MORE_LABEL.sub("", text))
    for _ in range(2):
        text = _LABEL.sub("", text)
    text = _HANDLE.sub(" ", text)
    text = _DEGREE.sub("", " ".join(text.split()))
    text = _TAIL.sub("", text)
    text = text.strip(" ,.:;-–—|•·()[]@")
    if (
        not text
        or _LABEL_ONLY.match(text)
        or len(text) > 60
        or len(text.split()) > 6
        or not _LETTER.search(text)
    ):
        return None
    return text


def byline_texts(root: Any) -> list[str]:
    """The texts of the page's bylines, best first."""
    if root is None:
        return []
    found: list[str] = []
    try:
        scope = post_scope(root)
        tiers: list[list[Any]] = [[], [], []]
        for element in scope.xpath(_CANDIDATES)[:60]:
            marks = element.get("class") or ""
            if (
                element.tag == "a"
                and "author" in (element.get("rel") or "").split()
                or _FIRST.search(marks)
            ):
                tiers[0].append(element)
            elif _SECOND.search(marks):
                tiers[1].append(element)
            elif not _NOT_A_NAME.search(marks):
                tiers[2].append(element)
        for tier in tiers:
            found.extend(_texts(tier[:20]))
            if found:
                return found
        lines = []
        for element, text in short_texts(scope, 100):
            if not text.lstrip()[:10].lower().startswith(_BY_STARTS):
                continue
            if (
                (
                    _BYLINE_TEXT.match(text)
                    and not _BY_PHRASE.match(text)
                    # the line starts with it: not "... set by adding this line:" mid-sentence
                    and _BYLINE_TEXT.match(element.text_content()[:MAX_BYLINE])
                )
                or (
                    _AUTHOR_LINE.match(text)
                    and _AUTHOR_LINE.match(element.text_content()[:MAX_BYLINE])
                    and not any(node.tag in _DETAILS for node in element.iterancestors())
                    and element.tag not in _DETAILS
                )
            ):
                lines.append(element)
                if len(lines) >= 10:
                    break
        found.extend(_texts(lines))
        if not found:
            found.extend(profile_names(root))
    except (AttributeError, ValueError, TypeError):
        return found
    return found


def profile_names(root: Any) -> list[str]:
    """The name on the author's profile card beside the post (``author__name``,
    in a sidebar): not one in comments or the page's footer."""
    out = []
    for element in root.xpath(_PROFILE)[:5]:
        if any(_in_comments_or_footer(node) for node in element.iterancestors()):
            continue
        text = " ".join(element.text_content().split())
        if text and len(text) <= MAX_BYLINE:
            out.append(text)
    return out


def _in_comments_or_footer(node: Any) -> bool:
    marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
    return node.tag == "footer" or "comment" in marks or "footer" in marks


def _texts(elements: list[Any]) -> list[str]:
    out = []
    for element in elements:
        if not hasattr(element, "text_content") or elsewhere(element):
            continue
        text = element.text_content()
        for hidden in element.xpath(_HIDDEN):
            text = text.replace(hidden.text_content(), " ", 1)
        text = " ".join(text.split())
        if text and len(text) <= MAX_BYLINE:
            out.append(text)
    return out


def elsewhere(element: Any) -> bool:
    """Whether the element sits in comments, a sidebar, related posts, the page's
    footer or the navigation. An article's own footer, where themes put the
    byline, is the article's."""
    away = footer = False
    for node in element.iterancestors():
        marks = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
        if "comment" in marks or "respond" in marks:
            return True
        if node.tag == "article":
            return away
        if node.tag == "header":  # a header's classes may name the footer it looks like
            continue
        if node.tag == "footer" or "footer" in marks:
            footer = True
        elif node.tag in ("aside", "nav") or (marks.strip() and _ELSEWHERE.search(marks)):
            away = True
    return away or footer
