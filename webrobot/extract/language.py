"""A page's language as a BCP 47 tag (``en``, ``pt-BR``, ``zh-Hant-TW``), from what
its markup and its server declare, and any one such value read as a tag.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webrobot.extract.headtags import HeadTags
    from webrobot.extract.page import SourcePage

_LANG_NAMES = {
    "english": "en", "french": "fr", "français": "fr", "german": "de", "deutsch": "de",
    "spanish": "es", "español": "es", "portuguese": "pt", "português": "pt", "italian": "it",
    "italiano": "it", "dutch": "nl", "nederlands": "nl", "russian": "ru", "japanese": "ja",
    "chinese": "zh", "arabic": "ar", "polish": "pl", "polski": "pl", "turkish": "tr",
    "swedish": "sv", "danish": "da", "norwegian": "no", "finnish": "fi", "korean": "ko",
}  # fmt: skip
_LANG = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$", re.IGNORECASE)


def language_tag(value: object) -> str | None:
    """``value`` as a BCP 47 tag (``en``, ``pt-BR``, ``zh-Hant-TW``), or ``None``."""
    if not isinstance(value, str):
        return None
    text = value.split(",")[0].split(";")[0].strip().replace("_", "-")
    if not text:
        return None
    named = _LANG_NAMES.get(text.lower())
    if named:
        return named
    if not _LANG.match(text):
        return None
    parts = text.split("-")
    primary = parts[0].lower()
    if primary in ("und", "mul", "zxx", "xx"):
        return None
    out = [primary]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())
        else:
            out.append(part.lower())
    return "-".join(out)


def page_language(page: SourcePage, root: Any, tags: HeadTags, declared: list[str]) -> str | None:
    """The page's language: ``<html lang>`` first (what its own markup declares for
    all of its text), then ``declared`` (its schema.org ``inLanguage``), the
    ``<meta>`` tags, ``og:locale`` and last the ``Content-Language`` header."""
    html_lang = None
    if root is not None:
        try:
            html_element = root.getroottree().getroot()
            html_lang = (
                html_element.get("lang")
                or html_element.get("{http://www.w3.org/XML/1998/namespace}lang")
                or html_element.get("xml:lang")
            )
        except (AttributeError, ValueError):
            html_lang = None
    for candidate in (
        [html_lang],
        declared,
        tags.all(
            "http-equiv:content-language",
            "content-language",
            "language",
            "dc.language",
            "dcterms.language",
        ),
        tags.all("og:locale"),
        [page.header("content-language")],
    ):
        for value in candidate:
            tag = language_tag(value)
            if tag:
                return tag
    return None
