"""A page's publication and modification dates as a reader finds them.

The markup's own statements (schema.org, Open Graph, ``<meta>``, ``<time>``,
gathered by :mod:`webrobot.extract.metadata`) come in as candidates, best
first. On top of them:

- a full date in the URL (``/2021/03/04/``, ``2021-03-04-title``) is what the
  site filed the post under: it wins over a markup date of another day (a
  time zone's shift, an embedded video's upload date, a theme's placeholder),
  and a markup date of the same day keeps its time; a year and a month alone
  (``/2011/12/title/``, :mod:`webrobot.extract.urldates`) say the month: a day the
  text search finds in another (a sidebar's comment, an archive's link) gives way to
  the first day of that month the post's text writes (:func:`month_day`), else to none;
- the sanity rules of htmldate: no date before :data:`EARLIEST` and none in the
  future (a day's slack for time zones); a modification date earlier than the
  publication date (its day, or its moment when both state one: Ghost writes a
  post's modification seconds before its publication) is dropped;
- a post that prints under its headline the markup's modification day, within
  :data:`MAX_UPDATE` of the publication, and never shows the publication's day, is
  dated by the modification: the site shows its update as the post's date
  (:func:`shows_update`);
- when the markup states no date, a line of the post that says when it was
  published ("Posted on", "Veröffentlicht am", "Publié le"...), else the date
  printed just under the post's headline (a day the page writes only inside
  code, a sample's timestamp, is neither: :func:`code_only`);
- when neither is there, htmldate (the field's library for it:
  bylines and "posted on" / "veröffentlicht am" / "publié le" lines in many
  languages, ``<time>`` and ``<abbr>``, dates in the text) reads the page's
  tree, in its fast or its extensive mode, preferring the original date to an
  update; a day the text prints only after an update's label ("Updated
  2026-11-27 09:14") is refused, and so is a day it reads from an address's
  numbers ("渋谷2-19-15", a block and a building: :func:`street_number_only`) or
  only from code (a sample's timestamp in a ``<pre>`` block: :func:`code_only`),
  or the day the markup gives as the page's modification, printed once, in the
  update's own line (:func:`update_day_only`), a day after that modification
  (an update's "7/8/2022" read day first) or that day with its day and month
  swapped (:func:`swapped`: "8/2/2022" read as 8 February). Without htmldate
  installed (it comes with the ``mining`` extra) that step is skipped. htmldate's last resort, the 1st
  of January of the year a copyright notice names ("© 2025 The Review"), is
  refused: that year is the site's footer, on every page and changed on all of
  them each January, not the day a post was published (a page that does state
  that day keeps it); so is any 1st of January the page does not state as a full
  date in its text or markup (:func:`day_stated`: htmldate makes one of a year it
  finds alone, a year in a link's address).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any, Literal

from lxml import etree

from webrobot.extract.bylines import post_scope
from webrobot.extract.dates import earlier, iso_date, local_neighbour
from webrobot.extract.headlinetext import headline, text_after
from webrobot.extract.printeddays import (
    ANY_DATE,
    DATE_PATTERN,
    MAX_TEXT,
    ORDINAL,
    ends_of_text,
    on_a_line,
    shown_text,
    text_days,
    text_states,
)
from webrobot.extract.urldates import EARLIEST, plausible, url_date, url_month
from webrobot.optional import installed

#: How the page's text is searched when its markup states no date: htmldate's
#: ``extensive`` mode (free text too), its ``fast`` mode, or ``off``.
SearchMode = Literal["extensive", "fast", "off"]
SEARCH_MODES: tuple[SearchMode, ...] = ("extensive", "fast", "off")
#: Words before a publication date, in the languages pages are most written in (lower
#: case: the text is lowered once, and a case-sensitive search of it is many times faster).
_PUBLISHED_LABEL = re.compile(
    r"posted|published|released|created|veröffentlicht|erschienen|erstellt|publiziert"
    r"|datum|publié|mis en ligne|paru|publicad[oa]|pubblicato|gepubliceerd|geplaatst"
    r"|opublikowano|publicerad|publiceret|udgivet|julkaistu|yayınlanma|publicat|zveřejněno"
    r"|vložil(?:/a|a)?"
    r"|date|fecha|written:|geschrieben:|écrit le"
)
#: Words that make the date after them an update's, not the publication's.
_UPDATED = re.compile(r"updat|modif|aktualisiert|geändert|mis à jour|actualiz|aggiornat|bijgewerkt")
#: The same under a headline, where a byline prints an edit beside the publication (a
#: wiki's "last edited" line elsewhere is the only date the page has).
_UPDATED_NEAR_HEADLINE = re.compile(_UPDATED.pattern + r"|edited|revised|bearbeitet")
#: Markup dates compared for a disagreement, at most.
MAX_CANDIDATES = 12
#: Days apart within which two markup dates are one publication stated twice.
MAX_SHIFT = 7
#: Days after its publication within which a post may show its update as its date.
MAX_UPDATE = timedelta(days=60)
#: Characters of text after a headline where its date is looked for (half that before).
NEAR_HEADLINE = 300
#: The date right after a label ("on", a weekday allowed before it; a time after it ignored).
_DATE_SPAN = re.compile(
    rf"(?:\s*(?:on|am|le|el|il|op|den|the)\b)?\W*(?:[^\W\d_]+,?\s+)?({DATE_PATTERN})"
)
#: A copyright notice's year or years: "Copyright 2025", "(c) 2025", "© 2019–2025".
_COPYRIGHT_YEARS = re.compile(
    r"(?:©|\bcopyright\b|\(c\))\D{0,99}?(\d{4}(?:\s*[-–]\s*\d{4})?)(?!\d)"
)
#: Numbers joined by hyphens, at least three of them ("2-19-15", "4-2-19-15").
_NUMBER_RUN = re.compile(r"(?<![\d-])\d{1,4}(?:-\d{1,4}){2,}(?![\d-])")


def first_date(candidates: Iterable[Any], today: date | None) -> str | None:
    """The first candidate string that reads as a plausible date, ISO 8601."""
    for value in candidates:
        parsed = iso_date(value) if isinstance(value, str) else None
        if parsed and plausible(date.fromisoformat(parsed[:10]), today):
            return parsed
    return None


#: Among a page's date candidates, the mark that those after it cost a walk of the
#: page's body (its ``<time>`` elements): once a date is found, none after it is read.
COSTLY = object()


class GenericDate(str):
    """A date the markup states without saying which it is (``<meta name=date>``,
    ``dc.date``): content systems fill those with a record's creation or last change
    as often as with the post's publication."""

    __slots__ = ()


def page_dates(
    url: str,
    root: Any,
    published: Iterable[Any],
    modified: Iterable[Any],
    *,
    today: date | None,
    search: SearchMode = "extensive",
) -> tuple[str | None, str | None]:
    """``(published, modified)`` of the page at ``url`` (its lxml tree ``root``),
    from the markup's candidates (each an iterable of strings, best first; a
    :class:`GenericDate` among them is one that does not say which date it is)."""
    stated = agreed_date(root, published, today)
    in_url = url_date(url, today)
    if in_url and (stated is None or stated[:10] != in_url):
        stated = in_url
    if stated is None and root is not None:
        stated = labelled_date(root, today) or headline_date(root, today)
    changed = first_date(modified, today)
    if stated and changed and not in_url and shows_update(root, stated, changed, today):
        stated = changed  # the page shows its update as its date, and never the first
    if stated is None and search != "off" and root is not None:
        stated = text_date(url, root, today, extensive=search == "extensive")
        month = url_month(url, today)
        if month and stated and stated[:7] != month:
            stated = month_day(root, month)
        if (
            stated
            and changed
            and (
                stated[:10] > changed[:10]
                or swapped(stated, changed)
                or (stated[:10] == changed[:10] and update_day_only(root, stated))
            )
        ):
            stated = None  # the update's own line, or a misreading of it
    if changed and stated and (changed[:10] < stated[:10] or earlier(changed, stated)):
        changed = None  # the day as printed, or the moment, before the publication
    return stated, changed


def agreed_date(root: Any, candidates: Iterable[Any], today: date | None) -> str | None:
    """The first of the markup's plausible ``candidates``, unless the post says
    otherwise:

    - when the first is a :class:`GenericDate`, a line of the post labelled as the
      publication's date ("Erschienen am: 13.10.2021") of another day wins;
    - when other candidates put the date on another day within :data:`MAX_SHIFT` days
      of it, the one whose day the post prints as its date (a labelled line, else the
      date under the headline) wins. Markup often states one moment twice, in UTC and
      in the site's time zone (a day apart near midnight), or a draft's day beside the
      day the post went out; the day a reader sees settles it. Dates further apart
      are an original and its republication: the original stands;
    - when the first is a moment in UTC near midnight, the day next to it that the post
      prints as its date (:func:`~webrobot.extract.dates.local_neighbour`), on a line of
      its own and not only in a sentence (:func:`~webrobot.extract.printeddays.on_a_line`),
      wins.

    The first :data:`MAX_CANDIDATES` plausible candidates before :data:`COSTLY` are
    compared (the JSON-LD's and ``<meta>`` tags'; the body's ``<time>`` elements only
    when those state no date)."""
    days: list[str] = []
    loose = False
    for value in candidates:
        if value is COSTLY and days:
            break
        parsed = iso_date(value) if isinstance(value, str) else None
        if parsed and plausible(date.fromisoformat(parsed[:10]), today):
            loose = loose or (not days and isinstance(value, GenericDate))
            days.append(parsed)
            if len(days) >= MAX_CANDIDATES:
                break
    if not days or root is None:
        return days[0] if days else None
    first = date.fromisoformat(days[0][:10])
    near = {
        d[:10] for d in days if abs(date.fromisoformat(d[:10]) - first) <= timedelta(MAX_SHIFT)
    } - {days[0][:10]}
    shown = None
    if loose or near:
        said = labelled_date(root, today)
        if loose and said and said != days[0][:10]:
            return said
        shown = said or headline_date(root, today)
        if shown in near:
            return next(d for d in days if d[:10] == shown)
    elsewhere = local_neighbour(days[0])
    if (
        elsewhere
        and (shown or labelled_date(root, today) or headline_date(root, today)) == elsewhere
        and on_a_line(root, elsewhere)
    ):
        return elsewhere  # a UTC moment near midnight, printed on the site's own day
    return days[0]


def shows_update(root: Any, stated: str, changed: str, today: date | None) -> bool:
    """Whether the page prints under its headline the day of the markup's modification
    ``changed``, a few weeks at most after its publication ``stated`` (:data:`MAX_UPDATE`;
    later, it is a republication), and never shows ``stated``."""
    late = date.fromisoformat(changed[:10]) - date.fromisoformat(stated[:10])
    if root is None or not timedelta(0) < late <= MAX_UPDATE:
        return False
    if headline_date(root, today) != changed[:10]:
        return False
    return not text_states(shown_text(root), stated)


def dated_scope(root: Any) -> Any:
    """Where a post's date is looked for: the post
    (:func:`~webrobot.extract.bylines.post_scope`) when it holds the post's headline
    (its first ``<h1>`` of some length) or there is none; else the ``<article>`` that
    holds the headline, else the ``<main>`` or the body around it. A page's first
    ``<article>`` is often a teaser above or beside the post, and a post's headline and
    date line often stand above its ``<article>``."""
    scope = post_scope(root)
    head = next((h for h in root.iter("h1") if len(h.text_content().strip()) >= 10), None)
    if head is None or scope is root:
        return scope
    around = list(head.iterancestors())
    if any(node is scope for node in around):
        return scope
    for tag in ("article", "main", "body"):
        for node in around:
            if node.tag == tag:
                return node
    return scope


def labelled_date(root: Any, today: date | None) -> str | None:
    """The date of the first line of the post that says it was published ("Posted on
    March 4, 2021", "Veröffentlicht am 14.01.2022", "Publié le 12 mars 2022 à
    10h30", "Publicado el 5 de abril de 2021"...); an update's line does not count."""
    try:
        scope = dated_scope(root)
        text = etree.tostring(scope, method="text", encoding="unicode", with_tail=False)
    except (AttributeError, ValueError, TypeError, etree.LxmlError):
        return None
    text = text[:MAX_TEXT].lower()
    codes = CodeDays(root)
    for count, label in enumerate(_PUBLISHED_LABEL.finditer(text)):
        if count >= 30:
            break
        start = label.start()
        if (start and text[start - 1].isalpha()) or _UPDATED.search(
            text, max(0, start - 16), start
        ):
            continue
        found = _DATE_SPAN.match(text, label.end())
        day = _printed_day(found[1], today, codes) if found else None
        if day:
            return day
    return None


def headline_date(root: Any, today: date | None) -> str | None:
    """The first full date in the few lines under the post's headline (its first
    ``<h1>`` of some length, else the ``<h2>`` the ``<title>`` starts with:
    :func:`~webrobot.extract.headlinetext.headline`), where themes print the byline and
    the date, read in the text after the headline's words and in the text after its
    element (:func:`~webrobot.extract.headlinetext.text_after`); else the last one just
    above it."""
    try:
        scope = dated_scope(root)
        element = headline(scope, root)
        if element is None:
            return None
        head = " ".join(element.text_content().split()).lower()
        text = " ".join(
            etree.tostring(scope, method="text", encoding="unicode", with_tail=False)[
                :MAX_TEXT
            ].split()
        ).lower()
        after = text_after(element, NEAR_HEADLINE).lower()
    except (AttributeError, ValueError, TypeError, etree.LxmlError):
        return None
    at = text.find(head)
    codes = CodeDays(root)
    first = text[at + len(head) : at + len(head) + NEAR_HEADLINE] if at >= 0 else ""
    before = text[max(0, at - NEAR_HEADLINE // 2) : at] if at > 0 else ""
    windows = ((first, ANY_DATE.finditer(first)), (after, ANY_DATE.finditer(after)))
    for window, found in (*windows, (before, None)):
        matches = list(found) if found is not None else list(ANY_DATE.finditer(window))[::-1]
        for match in matches:
            if _UPDATED_NEAR_HEADLINE.search(window, max(0, match.start() - 24), match.start()):
                continue
            day = _printed_day(match[1], today, codes)
            if day:
                return day
    return None


def _printed_day(written: str, today: date | None, codes: CodeDays) -> str | None:
    """The day (``YYYY-MM-DD``) a date the text prints stands for ("4th march 2021"),
    when it is plausible and the page writes it outside code too; else ``None``."""
    parsed = iso_date(ORDINAL.sub(r"\1", written))
    if (
        parsed
        and plausible(date.fromisoformat(parsed[:10]), today)
        and not codes.only_in_code(parsed)
    ):
        return parsed[:10]
    return None


def text_date(url: str, root: Any, today: date | None, *, extensive: bool) -> str | None:
    """htmldate's original date of the page, ``None`` without htmldate or a date."""
    if not installed("htmldate"):
        return None
    from htmldate import find_date

    try:
        found = find_date(
            root,
            extensive_search=extensive,
            original_date=True,
            url=url or None,
            min_date=EARLIEST.isoformat(),
            max_date=None if today is None else (today + timedelta(days=1)).isoformat(),
        )
    except (ValueError, TypeError, AttributeError, RecursionError):
        return None
    if not isinstance(found, str):
        return None
    if update_only(root, found) or street_number_only(root, found) or code_only(root, found):
        return None
    if found.endswith("-01-01") and (
        copyright_year_only(root, found) or not day_stated(root, found)
    ):
        return None
    return found


def month_day(root: Any, month: str) -> str | None:
    """The first day of ``month`` (``YYYY-MM``) the post's text writes."""
    try:
        scope = dated_scope(root)
        text = etree.tostring(scope, method="text", encoding="unicode", with_tail=False)
    except (AttributeError, ValueError, TypeError, etree.LxmlError):
        return None
    return next((day for day in text_days(text[:MAX_TEXT].lower()) if day[:7] == month), None)


def update_only(root: Any, found: str) -> bool:
    """Whether the text prints the day ``found`` only after an update's label ("Updated
    2026-11-27 09:14", "Aktualisiert am 14.01.2022"): that is when the page last
    changed, not when it was published (htmldate takes the only date it finds). A day
    the text does not print (from the markup) stands. The first :data:`MAX_TEXT`
    characters of the text are read."""
    text = " ".join(root.itertext())[:MAX_TEXT].lower()
    seen = False
    for match in ANY_DATE.finditer(text):
        day = iso_date(ORDINAL.sub(r"\1", match[1]))
        if day is None or day[:10] != found[:10]:
            continue
        if not _UPDATED.search(text, max(0, match.start() - 24), match.start()):
            return False
        seen = True
    return seen


def swapped(found: str, changed: str) -> bool:
    """Whether the day ``found`` is the day ``changed`` with its day and month swapped
    (both ``YYYY-MM-DD...``): an update's "8/2/2022" (August 2) read day first."""
    return (
        found[:4] == changed[:4]
        and found[5:7] == changed[8:10]
        and found[8:10] == changed[5:7]
        and found[5:7] != found[8:10]
    )


def update_day_only(root: Any, found: str) -> bool:
    """Whether the text prints the day ``found``, which the markup states as the page's
    modification, at most once: that is the update's own line ("最后由 liyao 于 2022/6/1
    更新", "Last updated on ..."), whatever its words' order, not a publication."""
    return text_days(ends_of_text(root))[found[:10]] <= 1


def code_only(root: Any, found: str) -> bool:
    """Whether the page writes the day ``found`` only inside code (``<pre>``, ``<code>``):
    a sample's timestamp ("startTime": "2023-10-06T16:00:00Z"), not when the post was
    published (htmldate reads the text of code blocks too). Every mention counts, in the
    text and in the markup."""
    return CodeDays(root).only_in_code(found)


class CodeDays:
    """:func:`code_only` for several days of one page: the days its code blocks and its
    markup write are counted once, the first time a day is asked about."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._code: Counter[str] | None = None
        self._page: Counter[str] | None = None

    def only_in_code(self, found: str) -> bool:
        if self._code is None:
            self._code = Counter()
            for element in self.root.iter("pre", "code"):
                if not any(node.tag in ("pre", "code") for node in element.iterancestors()):
                    self._code.update(text_days(_markup(element)))
        day = found[:10]
        if not self._code[day]:
            return False
        if self._page is None:
            self._page = text_days(_markup(self.root))
        return self._page[day] <= self._code[day]


def _markup(element: Any) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False).lower()


def street_number_only(root: Any, found: str) -> bool:
    """Whether the text writes the day ``found`` only as numbers of an address: a run of
    numbers joined by hyphens glued to the word before it ("渋谷2-19-15", a Japanese
    block and building) or of four numbers and more ("4-2-19-15"), which htmldate's
    search reads as a day, month and two-digit year. A run of three on its own ("Posted
    2-19-15"), a full date of the text or the day in the markup stands."""
    text = ends_of_text(root)
    address = False
    for run in _NUMBER_RUN.finditer(text):
        numbers = [int(n) for n in run[0].split("-")]
        if not any(_reads_as(numbers[i : i + 3], found) for i in range(len(numbers) - 2)):
            continue
        start = run.start()
        if len(numbers) == 3 and not (start and text[start - 1].isalpha()):
            return False
        address = True
    return address and not day_stated(root, found)


def _reads_as(numbers: list[int], found: str) -> bool:
    """Whether three numbers read as the day ``found`` (``YYYY-MM-DD``), a two-digit year
    last, day and month in either order."""
    first, second, year = numbers
    if year >= 100 or year != int(found[2:4]):
        return False
    month, day = int(found[5:7]), int(found[8:10])
    return (first, second) in ((day, month), (month, day))


def day_stated(root: Any, found: str) -> bool:
    """Whether the page states the day ``found`` (``YYYY-MM-DD``) as a full date: in its
    text (read as :func:`copyright_year_only` reads it), or in its markup as
    ``YYYY-MM-DD`` or ``YYYY/MM/DD`` (a ``<time datetime>``, an attribute). htmldate's
    extensive search makes the 1st of January of a year it finds alone (a year in a
    link's address: "stateofjs.com/2016/"), a day the page never states."""
    markup = etree.tostring(root, encoding="unicode")
    if found[:10] in markup or found[:10].replace("-", "/") in markup:
        return True
    return text_states(ends_of_text(root), found)


def copyright_year_only(root: Any, found: str) -> bool:
    """Whether ``found`` (a 1st of January) is only the year of the page's copyright
    notice: a notice names that year and no full date of the text is that day. The text
    is read at its first and its last :data:`MAX_TEXT` characters (a footer's notice is
    last)."""
    text = ends_of_text(root)
    year = found[:4]
    if not any(year in re.findall(r"\d{4}", m[1]) for m in _COPYRIGHT_YEARS.finditer(text)):
        return False
    return not text_states(text, found)
