"""A post's meta line: when it was posted and edited, its category, its views, words
and reading time, printed under its headline.

Themes print it in many ways: "Posted on 2020-01-02 | Edited on 2021-03-04 | In
Linux | Views: 312" (Hexo's NexT, with dividers), the same items one after the other
without any (NexT's later versions), "发表于 2020-01-02 更新于 2021-03-04 分类于
Linux", "Jul 1, 2019 · 5 min read". Once the headline is dropped, a reading that keeps
it opens the post's text with it; it is the post's metadata (``published`` and
``modified`` read it), not its text.

It is told by what it holds, not by a theme's class: :func:`is_meta_line` says a
first line of the text is one when

- it holds the post's own day (the date the page prints under its headline or after
  its "published" label, :mod:`webrobot.extract.pagedates`), and
- one element of the page holds exactly that line (its words, white space aside),
  with no paragraph, heading, list or table inside it, and every piece of text in it
  is short (a label, a date, a category's name, a count: at most
  :data:`MAX_PIECE_WORDS` words), so that a sentence of the post that starts with
  its day is never one, and
- it does not end as a sentence ends (a word, then a full stop, a question or an
  exclamation mark; not a count's unit, NexT's "Reading time ≈ 1 mins."): a short
  sentence whose links and emphasis cut it into short pieces ("On 2020-01-02 we reset
  the USB hub of the lab.") is text.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.dates import iso_date
from webrobot.extract.pagedates import ANY_DATE, ORDINAL, headline_date, labelled_date

#: Longer than this, a first line is text, not a meta line.
MAX_META_LINE = 240
#: A piece of text longer than this (in words) is a sentence, not a meta item.
MAX_PIECE_WORDS = 5
#: Elements a meta line never holds.
_BLOCKS = frozenset(
    {"p", "li", "ul", "ol", "dl", "table", "pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
)
#: How far up from its date the element holding a line is looked for.
MAX_CLIMB = 6
#: The end of a sentence: a word, then a full stop, a question or an exclamation mark.
_SENTENCE_END = re.compile(r"[^\W\d_]+\s?[.!?。！？]$")


def line_days(line: str) -> list[tuple[str, str]]:
    """The full dates ``line`` writes, each as written and as an ISO day."""
    found = []
    for match in ANY_DATE.finditer(line.lower()):
        day = iso_date(ORDINAL.sub(r"\1", match[1]))
        if day:
            found.append((match[1], day[:10]))
    return found


def is_meta_line(line: str, root: Any) -> bool:
    """Whether ``line`` (a first line of the main text) is the post's meta line (see
    the module doc)."""
    if len(line) > MAX_META_LINE or _ends_as_sentence(line):
        return False
    days = line_days(line)
    if not days:
        return False
    own = {headline_date(root, None), labelled_date(root, None)} - {None}
    if not any(day in own for _, day in days):
        return False
    try:
        holder = _holder(root, line, [written for written, day in days if day in own])
        return holder is not None and _made_of_items(holder)
    except (AttributeError, ValueError, TypeError):
        return False


def _ends_as_sentence(line: str) -> bool:
    """Whether ``line`` ends with a word and a sentence's closing mark, the word not a
    count's unit ("1 mins.", "3 comments.")."""
    end = _SENTENCE_END.search(line.rstrip())
    if end is None:
        return False
    before = line[: end.start()].split()
    return not (before and any(c.isdigit() for c in before[-1]))


def _squeezed(text: str) -> str:
    return "".join(text.split()).lower()


def _holder(root: Any, line: str, written: list[str]) -> Any:
    """The element whose whole text is ``line``, found up from where its date is written."""
    wanted = _squeezed(line)
    dates = [_squeezed(w) for w in written]
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        own = _squeezed((element.text or "") + (element.tail or ""))
        if not any(d in own for d in dates):
            continue
        node = element if any(d in _squeezed(element.text or "") for d in dates) else None
        node = node if node is not None else element.getparent()
        for _ in range(MAX_CLIMB):
            if node is None:
                break
            text = _squeezed(node.text_content())
            if text == wanted:
                return node
            if len(text) > len(wanted):
                break
            node = node.getparent()
    return None


def _made_of_items(holder: Any) -> bool:
    """No block inside, every piece of text short."""
    inside = [element for element in holder.iterdescendants() if isinstance(element.tag, str)]
    if any(element.tag in _BLOCKS for element in inside):
        return False
    pieces = [holder.text] + [part for element in inside for part in (element.text, element.tail)]
    return all(len(piece.split()) <= MAX_PIECE_WORDS for piece in pieces if piece)
