"""Authors' names from the values pages give for them (schema.org, ``<meta name=author>``,
bylines): labels, dates, handles and URLs dropped, several names split, each once.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re

from webrobot.extract.bylines import BY_WORDS, author_name

_BY = re.compile(rf"^{BY_WORDS}\s+", re.IGNORECASE)
#: A place and a country after a name, as an address gives them ("hessenschau.de,
#: Frankfurt, Germany"): no part of the name.
_PLACE = re.compile(
    r",\s*[^,\d]{2,40},\s*(?:Germany|Deutschland|Austria|Österreich|Switzerland|Schweiz|"
    r"Suisse|Svizzera|France|Italy|Italia|Spain|España|Netherlands|Nederland|Belgium|"
    r"Belgique|USA|United States|UK|United Kingdom)\s*$"
)
#: What always parts names: a semicolon or a bar (a word such as "und" may join one name).
_HARD = re.compile(r"[;|]")
_AUTHOR_SPLIT = re.compile(r"\s*(?:;|\||\band\b|&|\bund\b|\bet\b)\s*", re.IGNORECASE)


def author_names(values: list[str]) -> list[str]:
    """Person names from author values: URLs and handles dropped, ``By`` and dates
    dropped (:func:`~webrobot.extract.bylines.author_name`), ``A and B`` split,
    each once."""
    names: list[str] = []
    for value in values:
        value = _PLACE.sub("", _BY.sub("", value.strip()))
        if not value or "://" in value or value.startswith(("@", "www.")):
            continue
        parts = [p for p in _AUTHOR_SPLIT.split(value) if p]
        if len(parts) > 1 and all(len(p.split()) < 2 for p in parts) and not _HARD.search(value):
            parts = [value]  # "Kirche und Leben": one name, not two; "dpa; AFP" two
        if "," in value and all(" " in p.strip() for p in value.split(",") if p.strip()):
            parts = [q for p in parts for q in p.split(",")]
        for part in parts:
            name = author_name(part)
            if name and name.lower() not in {n.lower() for n in names}:
                names.append(name)
    return names[:20]
