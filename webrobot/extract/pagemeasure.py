"""trafilatura's choice to read a page again favouring recall, taken on the page as it
came, not on the copy the main text prunes first.

trafilatura's default (broad) reading retries a short text favouring recall when that
text covers little of the page: under 3,000 characters and under a fifth of the page's
text, measured by ``trafilatura.core.html2txt`` on the tree it was given (the page
without asides, footers, scripts and cookie banners). The main text gives it a copy
pruned of its chrome first (:func:`webrobot.extract.pagechrome.reading_tree`: the site's
navigation, footer, consent banners), so the page it measures is smaller than the page
trafilatura would measure unaided, and a short reading that covers a fifth of what is
left is not retried: on a service page whose navigation bar outweighs its text, the
reading kept its opening paragraph and lost its sections (F1 0.41, trafilatura alone
0.82); on a forum thread, the opening post without its replies (0.45 against 0.89).

During :func:`measured_on`, that measure is taken on the page as it came (the crawl's
tree, its navigation in), as trafilatura alone takes it; the reading itself is still
that of the pruned copy. The main text asks for it on pages that declare neither an
article (read favouring precision, where trafilatura never retries) nor a product (read
on a tree without buttons and option lists, as trafilatura's fallbacks must not see a
variant picker; on the development half of the product pages the page as it came made
one page retry into its size guide and sign-up form, 0.59 to 0.53): listings,
collections, service, documentation and forum pages
(:attr:`webrobot.extract.readingchoice.ReadingPlan.page_measure`). The measure costs a
copy and a text of the page's tree, and only on a short reading.

The private part used, ``trafilatura.core.html2txt`` as that module calls it, is checked
on the installed version by ``tests/test_pagemeasure.py``.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

from webrobot.extract.trafilaturacopies import stand_in

#: The tree whose text trafilatura's recall retry is measured against, in this thread.
_PAGE: ContextVar[Any] = ContextVar("webrobot_trafilatura_page", default=None)


class PageMeasure:
    """Stands in for ``trafilatura.core.html2txt(content, clean=True)``, which that
    module calls only to measure the page a short reading is compared with: inside
    :func:`measured_on` with a tree, the text of that tree; otherwise the text of
    ``content``, as trafilatura's own."""

    def __init__(self, html2txt: Callable[..., str]) -> None:
        self.html2txt = html2txt

    def __call__(self, content: Any, *args: Any, **kwargs: Any) -> str:
        page = _PAGE.get()
        return self.html2txt(content if page is None else page, *args, **kwargs)


@cache
def install() -> bool:
    """Puts a :class:`PageMeasure` in the place of trafilatura's page measure, once;
    whether one is in place (not when trafilatura has moved it)."""
    return stand_in("html2txt", PageMeasure, PageMeasure)


@contextmanager
def measured_on(page: Any) -> Iterator[None]:
    """While the block runs (in this thread), trafilatura measures the page a short
    reading is compared with on ``page`` (an lxml tree, which is copied, not changed);
    ``None`` leaves trafilatura's own measure."""
    if page is None or not install():
        yield
        return
    token = _PAGE.set(page)
    try:
        yield
    finally:
        _PAGE.reset(token)
