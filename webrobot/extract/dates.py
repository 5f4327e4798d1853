"""Dates as pages write them, made ISO 8601.

Pages give a publication date in many forms: ISO 8601 and its near misses
(``2019-11-19 08:30:00``, ``+0000`` offsets, ``Z``), RFC 2822 (``Tue, 19 Nov
2019 08:30:00 GMT``), written out (``November 19, 2019``, ``19 Nov 2019``),
numeric (``2019/11/19``, ``19.11.2019``) and Unix timestamps.
:func:`iso_date` gives ``YYYY-MM-DD`` when only a day is known, else
``YYYY-MM-DDTHH:MM:SS`` with the offset when one is given (``+00:00`` for
``Z`` and ``GMT``), and ``None`` for anything it cannot read for certain
(``03/04/2019`` is either April or March: ``None``).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from email.utils import parsedate_tz

#: Years a page's date may fall in; others are typos or placeholders (``0000-00-00``).
MIN_YEAR, MAX_YEAR = 1800, 2200

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            (
                "january",
                "jan",
                "janvier",
                "janv",
                "januar",
                "enero",
                "gennaio",
                "janeiro",
                "leden",
                "ledna",
            ),
            (
                "february",
                "feb",
                "février",
                "févr",
                "fevr",
                "fév",
                "fevrier",
                "februar",
                "febrero",
                "febbraio",
                "fevereiro",
                "únor",
                "února",
            ),
            (
                "march",
                "mar",
                "mars",
                "märz",
                "mär",
                "mrz",
                "marz",
                "marzo",
                "março",
                "marco",
                "březen",
                "března",
            ),
            ("april", "apr", "avril", "avr", "abril", "aprile", "duben", "dubna"),
            ("may", "mai", "mayo", "maggio", "maio", "květen", "května"),
            ("june", "jun", "juin", "juni", "junio", "giugno", "junho", "červen", "června"),
            (
                "july",
                "jul",
                "juillet",
                "juil",
                "juill",
                "juli",
                "julio",
                "luglio",
                "julho",
                "červenec",
                "července",
            ),
            ("august", "aug", "août", "aout", "agosto", "srpen", "srpna"),
            (
                "september",
                "sep",
                "sept",
                "septembre",
                "septiembre",
                "settembre",
                "setembro",
                "září",
            ),
            (
                "october",
                "oct",
                "octobre",
                "okt",
                "oktober",
                "octubre",
                "ottobre",
                "outubro",
                "říjen",
                "října",
            ),
            ("november", "nov", "novembre", "noviembre", "novembro", "listopad", "listopadu"),
            (
                "december",
                "dec",
                "décembre",
                "déc",
                "dez",
                "decembre",
                "dezember",
                "diciembre",
                "dicembre",
                "dezembro",
                "prosinec",
                "prosince",
            ),
        ],
        start=1,
    )
    for name in names
}
_MONTH = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))

_ISO = re.compile(
    r"(?P<y>\d{4})-?(?P<m>\d{2})-?(?P<d>\d{2})"
    r"(?:[T\s]+(?P<H>\d{1,2}):?(?P<M>\d{2})(?::?(?P<S>\d{2}|(?<=:)\d)(?:[.,]\d+)?)?"
    r"\s*(?P<tz>Z|UTC|GMT|[ECMP][SD]T|CES?T|BST|[+-]\d{2}(?::?\d{2})?)?)?$",
    re.IGNORECASE,
)
_YMD = re.compile(r"(?P<y>\d{4})[/.](?P<m>\d{1,2})[/.](?P<d>\d{1,2})(?P<rest>.*)$")
_DMY_DOTS = re.compile(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?P<rest>.*)$")
_SLASHED = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})(?P<rest>.*)$")
_NAMED_MDY = re.compile(
    rf"(?:[a-z]+,?\s+)?(?P<m>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})(?P<rest>.*)$",
    re.IGNORECASE,
)
_NAMED_DMY = re.compile(
    rf"(?:[a-z]+,?\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(?P<m>{_MONTH})\.?,?\s+(?:de\s+)?(?P<y>\d{{4}})(?P<rest>.*)$",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"^[\s,T@-]*(?:at\s+)?(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ampm>[ap]\.?m\.?)?"
    r"\s*(?P<tz>Z|UTC|GMT|[ECMP][SD]T|CES?T|BST|[+-]\d{2}:?\d{2})?\s*$",
    re.IGNORECASE,
)
_EPOCH = re.compile(r"\d{10}(?:\d{3})?$")


def iso_date(value: object) -> str | None:
    """``value`` (a string as a page writes it) as an ISO 8601 date or date-time, or ``None``."""
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())[:100]
    if not text:
        return None
    parsed = _parse(text)
    return parsed


def _parse(text: str) -> str | None:
    match = _ISO.match(text)
    if match:
        return _build(
            match["y"], match["m"], match["d"], match["H"], match["M"], match["S"], match["tz"]
        )
    if _EPOCH.match(text):
        seconds = int(text[:10])
        moment = datetime.fromtimestamp(seconds, UTC)
        return _checked(moment)
    for pattern in (_YMD, _DMY_DOTS):
        match = pattern.match(text)
        if match:
            return _with_time(match["y"], match["m"], match["d"], match["rest"])
    match = _SLASHED.match(text)
    if match:
        a, b = int(match["a"]), int(match["b"])
        if a > 12 >= b:
            return _with_time(match["y"], str(b), str(a), match["rest"])
        if b > 12 >= a or a == b:
            return _with_time(match["y"], str(a), str(b), match["rest"])
        return None  # 03/04/2019: March or April
    for pattern in (_NAMED_MDY, _NAMED_DMY):
        match = pattern.match(text)
        if match:
            named = str(_MONTHS[match["m"].lower()])
            return _with_time(match["y"], named, match["d"], match["rest"])
    rfc = parsedate_tz(text)
    if rfc is not None:
        year, month, day, hour, minute, second = rfc[:6]
        offset = rfc[9]
        zone = None if offset is None else timezone(timedelta(seconds=offset))
        try:
            moment = datetime(year, month, day, hour, minute, second, tzinfo=zone)
        except (ValueError, OverflowError):
            return None
        return _checked(moment)
    return None


def _with_time(y: str, m: str, d: str, rest: str) -> str | None:
    rest = rest.strip()
    if not rest:
        return _build(y, m, d, None, None, None, None)
    match = _TIME.match(rest)
    if not match:
        return _build(y, m, d, None, None, None, None) if _ignorable(rest) else None
    hour = int(match["H"])
    ampm = (match["ampm"] or "").replace(".", "").lower()
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    return _build(y, m, d, str(hour), match["M"], match["S"], match["tz"])


def _ignorable(rest: str) -> bool:
    """Words after a date that name no time (``| Updated``, ``(UTC)``): the date stands."""
    return not re.search(r"\d", rest)


def _build(
    y: str, m: str, d: str, hh: str | None, mm: str | None, ss: str | None, tz: str | None
) -> str | None:
    try:
        day = date(int(y), int(m), int(d))
    except ValueError:
        return None
    if not MIN_YEAR <= day.year <= MAX_YEAR:
        return None
    if hh is None:
        return day.isoformat()
    zone = _zone(tz)
    try:
        moment = datetime(
            day.year, day.month, day.day, int(hh), int(mm or 0), int(ss or 0), tzinfo=zone
        )
    except ValueError:
        return None
    return moment.isoformat()


#: Zone names pages use that mean one offset (hours).
_NAMED_ZONES = {
    "Z": 0, "UTC": 0, "GMT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7,
    "MDT": -6, "PST": -8, "PDT": -7, "CET": 1, "CEST": 2, "BST": 1,
}  # fmt: skip


def _zone(tz: str | None) -> timezone | None:
    if not tz:
        return None
    if tz.upper() in _NAMED_ZONES:
        hours = _NAMED_ZONES[tz.upper()]
        return UTC if hours == 0 else timezone(timedelta(hours=hours))
    sign = -1 if tz[0] == "-" else 1
    digits = tz[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _checked(moment: datetime) -> str | None:
    if not MIN_YEAR <= moment.year <= MAX_YEAR:
        return None
    return moment.isoformat()


def earlier(first: str, second: str) -> bool:
    """Whether the ISO 8601 moment ``first`` comes before ``second``: by their moments
    when both state a time and a zone (a post modified seconds before Ghost says it was
    published, the same day), else by their days."""
    if len(first) > 10 and len(second) > 10:
        try:
            one, two = datetime.fromisoformat(first), datetime.fromisoformat(second)
        except ValueError:
            return first[:10] < second[:10]
        if one.tzinfo is not None and two.tzinfo is not None:
            return one < two
    return first[:10] < second[:10]


#: A moment stated in UTC at this hour or later may be the next day where the site is
#: (zones east of Greenwich, to UTC+10), before :data:`WEST_BEFORE` the day before (the
#: Americas' zones, to UTC-10).
EAST_FROM, WEST_BEFORE = 14, 10


def local_neighbour(moment: str) -> str | None:
    """The day (``YYYY-MM-DD``) next to the ISO 8601 ``moment`` that the same moment may
    fall on in the site's own time zone, when the moment is stated in UTC near its day's
    edge (``2020-12-05T23:15:00+00:00``: the 6th in Italy); else ``None``: a moment
    stated in another zone is in the site's own, and a day alone says no hour."""
    try:
        parsed = datetime.fromisoformat(moment)
    except ValueError:
        return None
    if len(moment) <= 10 or parsed.utcoffset() != timedelta(0):
        return None
    if parsed.hour >= EAST_FROM:
        return (parsed.date() + timedelta(days=1)).isoformat()
    if parsed.hour < WEST_BEFORE:
        return (parsed.date() - timedelta(days=1)).isoformat()
    return None
