"""Dates a page's address holds, and the plausible range of a page's dates.

A full date in the path (``/2021/03/04/``, ``2021-03-04-title``) is the day the site
filed the post under (:func:`url_date`). A year and a month alone (``/2011/12/title/``,
WordPress' "month and name" permalinks) say in which month it was filed
(:func:`url_month`): a day the text search finds in another month is not the post's.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

#: htmldate's earliest plausible date of a web page.
EARLIEST = date(1995, 1, 1)
_URL_DATE = re.compile(
    r"(?:^|\D)((?:19|20)\d{2})[/_.-](0?[1-9]|1[0-2])[/_.-](0?[1-9]|[12]\d|3[01])(?:\D|$)"
)
#: A year and a month as two parts of the path, no day after them.
_URL_MONTH = re.compile(r"/((?:19|20)\d{2})/(0[1-9]|1[0-2])/(?!\d)")


def _path(url: str) -> str:
    return "/" + url.split("://", 1)[-1].partition("/")[2].split("?")[0]


def url_date(url: str, today: date | None) -> str | None:
    """The full date a URL's path holds (``YYYY-MM-DD``), when plausible."""
    match = _URL_DATE.search(_path(url))
    if not match:
        return None
    try:
        day = date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
    return day.isoformat() if plausible(day, today) else None


def url_month(url: str, today: date | None) -> str | None:
    """The year and month (``YYYY-MM``) a URL's path holds as two parts of their own,
    without a day, when plausible."""
    match = _URL_MONTH.search(_path(url))
    if not match or url_date(url, None):
        return None
    first = date(int(match[1]), int(match[2]), 1)
    return first.isoformat()[:7] if plausible(first, today) else None


def plausible(day: date, today: date | None) -> bool:
    """Not before :data:`EARLIEST`, and not after ``today`` (a day's slack for time
    zones); without ``today`` (no clock given) only the first rule holds."""
    return EARLIEST <= day and (today is None or day <= today + timedelta(days=1))
