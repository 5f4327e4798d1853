"""The days a page prints in its text, as a reader sees them.

A full date as pages write it (:data:`ANY_DATE`: "4 March 2021", "March 4th, 2021",
"4. März 2021", "5 de abril de 2021", "14.01.2022", "2021-03-04", "2021/03/04"), how
often a text writes each day, and whether it states one.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from webrobot.extract.dates import iso_date

#: Characters of a page's text read for its days, at most.
MAX_TEXT = 50_000
#: Characters of a text, at most, that is a line of its own (a date line, a byline:
#: "Posted on 6 December 2020 by Ann") rather than a sentence of the post's prose.
MAX_LINE = 80
#: A full date as pages write it: "4 March 2021", "March 4th, 2021", "4. März 2021",
#: "5 de abril de 2021", "14.01.2022", "2021-03-04", "2021/03/04".
#: (a regular expression's source, for patterns that embed it)
DATE_PATTERN = (
    r"\d{1,2}(?:st|nd|rd|th|er|\.)?\s+(?:de\s+)?[^\W\d_]+\.?,?\s+(?:de\s+)?\d{4}"
    r"|[^\W\d_]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}\.\s?\d{1,2}\.\s?\d{4}|\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2}"
)
#: A full date anywhere, not inside a longer number.
ANY_DATE = re.compile(rf"(?<![\d.])({DATE_PATTERN})(?!\d)")
ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th|er)\b")


def text_days(text: str) -> Counter[str]:
    """How often ``text`` (in small letters) writes each day, as a full date of
    :data:`ANY_DATE`'s forms (``2023-10-06``, ``2023/10/06``, ``6 october 2023``...)."""
    days: Counter[str] = Counter()
    for match in ANY_DATE.finditer(text):
        parsed = iso_date(ORDINAL.sub(r"\1", match[1]))
        if parsed is not None:
            days[parsed[:10]] += 1
    return days


def ends_of_text(root: Any) -> str:
    """The page's text in small letters, its first and its last :data:`MAX_TEXT`
    characters when it is longer than twice that."""
    text = " ".join(root.itertext())
    if len(text) > 2 * MAX_TEXT:
        text = text[:MAX_TEXT] + " " + text[-MAX_TEXT:]
    return text.lower()


def text_states(text: str, found: str) -> bool:
    """Whether ``text`` (in small letters) states the day ``found`` as a full date."""
    for match in ANY_DATE.finditer(text):
        day = iso_date(ORDINAL.sub(r"\1", match[1]))
        if day is not None and day[:10] == found[:10]:
            return True
    return False


def shown_text(root: Any) -> str:
    """The text of the page's body a reader is shown (no script's or style's), its
    first :data:`MAX_TEXT` characters in small letters."""
    texts = root.xpath("//body//text()[not(parent::script or parent::style)]")
    return " ".join(texts)[:MAX_TEXT].lower()


def on_a_line(root: Any, day: str) -> bool:
    """Whether the body of the page under ``root`` prints ``day`` in a text of its own
    of :data:`MAX_LINE` characters at most (a date line, a byline), not only inside a
    sentence of its prose (a report naming the day of the event it reports)."""
    for text in root.xpath("//body//text()[not(parent::script or parent::style)]"):
        line = " ".join(text.split()).lower()
        if len(line) <= MAX_LINE and text_states(line, day):
            return True
    return False
