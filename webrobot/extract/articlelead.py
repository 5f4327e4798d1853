"""An article's lead (its standfirst), which the precise reading leaves out.

News articles and many posts open with a lead: a sentence or two set apart under the
headline, in the article's header or a teaser block (``<div class="lead">``,
``<p class="intro">``, an ``<h2>`` below the ``<h1>``), and the same words are what the
page gives as its description (``og:description``, ``<meta name="description">``). The
reading that favours precision drops it with the header it sits in. :func:`lead` finds
it: the page's description, when the text lacks it and an element of the body says it
(its text the description, give or take a kicker of a few words; the element of the
description's opening or the nearest one around it that holds the description), not inside a link
(a teaser of this page elsewhere) or a script. :mod:`webrobot.extract.maintext` puts
it before the text of a page read as an article.

Only on a page that declares a language other than English (``<html lang>``, else its
``og:locale`` or ``Content-Language`` meta tag). The German, French, Polish or
Scandinavian press writes the lead (Vorspann, chapeau, lead) as the article's opening
paragraph, which readers and trafilatura's evaluation count as its text; English-language
sites set a dek apart from the article, which schema.org's ``articleBody`` and the
English evaluation sets leave out (on the article benchmark, 24 of 25 English deks found
this way were not in the article's text). A page that declares no language is left as
it is.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from webrobot.extract.language import language_tag

logger = logging.getLogger(__name__)
_SPACES = re.compile(r"\s+")
_DESCRIPTION_META = ("og:description", "description", "twitter:description")
_LANGUAGE_META = ("og:locale", "content-language")
#: Languages whose pages set the lead apart from the article (see the module doc).
SET_APART = frozenset({"en"})
#: A description shorter than this (characters) is a tagline, not a lead.
MIN_LEAD = 60
#: The description's opening this long (characters) is what is looked for.
PROBE = 40
#: The element holding the lead may say this much more than it (a kicker, a date).
SLACK = 1.3
#: Elements whose text is never shown as the page's.
_UNSHOWN = frozenset({"script", "style", "noscript", "template", "textarea", "title"})


def description(root: Any) -> str | None:
    """The page's description (``og:description``, else the ``description`` meta tag,
    else ``twitter:description``), whitespace made one space."""
    found: dict[str, str] = {}
    head = root.find("head")
    for meta in (head if head is not None else root).iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if key in _DESCRIPTION_META and key not in found and (content := meta.get("content")):
            found[key] = _norm(content)
    return next((found[key] for key in _DESCRIPTION_META if found.get(key)), None)


def declared_language(root: Any) -> str | None:
    """The primary language the page declares (``de`` for ``de-AT``), lower case:
    ``<html lang>``, else its ``og:locale`` or ``Content-Language`` meta tag."""
    tag = language_tag(root.get("lang") or root.get("xml:lang"))
    if tag is None:
        head = root.find("head")
        for meta in (head if head is not None else root).iter("meta"):
            key = (meta.get("property") or meta.get("http-equiv") or "").strip().lower()
            if key in _LANGUAGE_META and (tag := language_tag(meta.get("content"))):
                break
    return tag.split("-")[0].lower() if tag else None


def lead(root: Any, text: str) -> str | None:
    """The lead the page shows and ``text`` lacks (see the module doc), or ``None``."""
    language = declared_language(root)
    if language is None or language in SET_APART:
        return None
    summary = description(root)
    if not summary or len(summary) < MIN_LEAD:
        return None
    probe = summary[:PROBE]
    if probe in _norm(text):
        return None
    body = root.find("body")
    if body is None:
        return None
    for element in body.iter():
        if not isinstance(element.tag, str) or element.tag in _UNSHOWN:
            continue
        if element.text and probe in _norm(element.text):
            holder = element
        elif element.tail and probe in _norm(element.tail):
            holder = element.getparent()
        else:
            continue
        said = _norm(holder.text_content())
        while summary[: 2 * PROBE] not in said and holder.tag != "body":
            holder = holder.getparent()  # the lead's opening is set apart (bold, a link)
            said = _norm(holder.text_content())
        if summary[: 2 * PROBE] not in said or len(said) > SLACK * len(summary) + PROBE:
            return None
        if any(a.tag == "a" for a in holder.iterancestors()) or holder.tag == "a":
            return None
        return said
    return None


def with_lead(root: Any, text: str, markdown: str | None) -> tuple[str, str | None]:
    """``text`` and its ``markdown`` with the page's :func:`lead` first, if they lack it."""
    try:
        found = lead(root, text)
    except Exception:  # a page must never break the crawl
        logger.debug("lead not read", exc_info=True)
        return text, markdown
    if not found:
        return text, markdown
    return f"{found}\n{text}", f"{found}\n\n{markdown}" if markdown else markdown


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
