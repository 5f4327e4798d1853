"""A product page's specification lists, which the reading of its description leaves out.

A shop prints a product's details as label and value pairs ("ISBN: 9789724084985",
"Material: Stainless steel"), in a list (``<li><b>Pages:</b> 1204</li>``) or a
definition list (``<dt>Material:</dt><dd>metal</dd>``), often in a column beside the
description or under a tab of its own. trafilatura takes the description's block and
leaves the list out (its values are links to the shop's categories, publishers and
brands, so it reads as a link list). :func:`with_specifications` adds to the text of a
page that declares a product the lines of each such list the text does not hold.

A specification list: :data:`MIN_PAIRS` to :data:`MAX_PAIRS` pairs under one parent (a list, a
definition list, or a block of one-pair definition lists), each a label of at most
:data:`MAX_LABEL` characters ending in a colon (or a ``<dt>``) and a value, the colon not
inside a link (a product card's title, ``Clear Quran : A Thematic Translation``); none
labelled with a field's name (``retail_price_tier1``, ``product-high-res-img``: a feed's or
a theme's fields dumped into the page, as a BigCommerce theme hides its custom fields); none
labelled with who wrote a review (``Reviewer: Jana``, ``Rated by``: a review's header, its
date and stars, is no fact of the product); not inside navigation, a header, a footer, an
aside, a form, a hidden node or a review or comment (``itemprop="review"``, a schema.org
``Review``, a class or id such as ``review-item`` or ``comments``); and not one of
:data:`MIN_CARDS` or more lists of the same labels (a listing's cards). A list of which the
text holds at least :data:`HELD_SHARE` of the lines (their words, whether it writes
``Label: value`` or the label and the value as lines of their own) is read already, and
left as it is.

It reads what the real shop pages of ``python -m benchmarks.quality.realshops`` lost
(a bookshop's details, a marketplace's "Quick Details"); its figures there and on the
unseen product pages are in docs/benchmarks.md.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from webrobot.extract.shown import hidden_by_markup

#: A specification list has at least this many label and value pairs.
MIN_PAIRS = 3
#: A label is at most this long (characters).
MAX_LABEL = 40
#: A value is at most this long (characters): a longer one is a paragraph.
MAX_VALUE = 200
#: A list whose lines the text holds this share of is read already.
HELD_SHARE = 0.5
#: ...and at most this many: a longer one is a data dump (a product feed's fields).
MAX_PAIRS = 60
#: This many lists of the same labels are a listing's cards (each product's colour,
#: size...), not one product's specification.
MIN_CARDS = 3
_PAIR = re.compile(rf"^([^:\n]{{1,{MAX_LABEL}}}):\s*(\S.{{0,{MAX_VALUE}}})$")
#: A field's name, not words (``retail_price_tier1``, ``product-high-res-img``): a list
#: with one is a feed's or a theme's fields dumped into the page, never a specification.
_FIELD_NAME = re.compile(r"\w+(?:_\w+)+|[a-z0-9]+(?:-[a-z0-9]+)+")
#: A label that names who wrote a review: the list is a review's header, not a specification.
_REVIEWER = re.compile(
    r"^(?:reviewers?|reviewed by|review by|rated by|rezensent(?:in)?|bewertet von|"
    r"rezension von|avis de|évalué par|evaluado por|reseña de|recensione di|recensito da|"
    r"beoordeeld door|recenzent(?:ka)?|hodnotil(?:a)?|ocenił(?:a)?)$",
    re.IGNORECASE,
)
#: A class or id word that marks a review or a comment (``review``, ``review-item``,
#: ``comments``, ``commentlist``).
_REVIEW_MARK = re.compile(
    r"(?:^|[\s_-])(?:reviews?|comments?|commentlist)(?:$|[\s_-])", re.IGNORECASE
)
#: How far above a list's item a review's mark is looked for: a review wraps its header
#: closely, and a page-wide class (``<body class="reviews-enabled">``) is not a review.
REVIEW_DEPTH = 4
_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"[\W_]+")
_NEVER = frozenset(("nav", "header", "footer", "aside", "form", "script", "style", "template"))


def specification_lists(root: Any) -> list[list[str]]:
    """The page's specification lists, each as its ``Label: value`` lines."""
    groups: dict[Any, list[str]] = {}
    for item in root.iter("li"):
        line = _line(item.text_content())
        if _PAIR.match(line) and not _excluded(item) and not _label_linked(item):
            groups.setdefault(item.getparent(), []).append(line)
    for term in root.iter("dt"):
        value = term.getnext()
        if value is None or value.tag != "dd" or _excluded(term):
            continue
        label = _line(term.text_content()).rstrip(":").strip()
        line = f"{label}: {_line(value.text_content())}"
        if not label or len(label) > MAX_LABEL or not _PAIR.match(line):
            continue
        parent = term.getparent()
        if sum(1 for child in parent if child.tag == "dt") == 1:
            parent = parent.getparent()  # a block of one-pair definition lists
        groups.setdefault(parent, []).append(line)
    found = [
        lines
        for lines in groups.values()
        if MIN_PAIRS <= len(lines) <= MAX_PAIRS
        and not any(_FIELD_NAME.fullmatch(line.partition(":")[0]) for line in lines)
        and not any(_REVIEWER.match(line.partition(":")[0].strip()) for line in lines)
    ]
    shapes = Counter(_labels(lines) for lines in found)
    return [lines for lines in found if shapes[_labels(lines)] < MIN_CARDS]


def _labels(lines: list[str]) -> tuple[str, ...]:
    return tuple(line.partition(":")[0].lower() for line in lines)


def with_specifications(
    text: str | None, markdown: str | None, root: Any
) -> tuple[str | None, str | None]:
    """``text`` and ``markdown`` with the lines of each specification list the text holds
    under :data:`HELD_SHARE` of added at their end (as a Markdown list)."""
    if not text:
        return text, markdown
    held = _words(text)
    added: list[str] = []
    for lines in specification_lists(root):
        missing = [line for line in lines if _words(line) not in held]
        if len(missing) > (1 - HELD_SHARE) * len(lines):
            added.extend(line for line in lines if line not in added)
    if not added:
        return text, markdown
    plain = text + "\n" + "\n".join(added)
    listed = "\n".join(f"- {line}" for line in added)
    return plain, (f"{markdown}\n\n{listed}" if markdown else markdown)


def _line(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _words(text: str) -> str:
    """``text``'s words alone, in small letters: a pair is held whether the text writes it
    ``Label: value`` or the label and the value as lines (or list items) of their own."""
    return " " + _PUNCTUATION.sub(" ", text).strip().lower() + " "


def _label_linked(item: Any) -> bool:
    """Whether a link in ``item`` holds a colon: a product card's title (``Clear Quran :
    A Thematic English Translation``), whose colon is a subtitle's, not a label's."""
    return any(":" in link.text_content() for link in item.iter("a"))


def _excluded(element: Any) -> bool:
    node = element
    depth = 0
    while node is not None:
        if (
            node.tag in _NEVER
            or (node.get("role") or "") in ("navigation", "contentinfo")
            or hidden_by_markup(node)
            or (depth <= REVIEW_DEPTH and _in_review(node))
        ):
            return True
        node = node.getparent()
        depth += 1
    return False


def _in_review(node: Any) -> bool:
    """Whether ``node`` is a review or a comment, as its markup says."""
    prop = node.get("itemprop") or ""
    if "review" in prop.lower() or "Review" in (node.get("itemtype") or ""):
        return True
    marks = f"{node.get('class') or ''} {node.get('id') or ''}"
    return bool(marks.strip()) and _REVIEW_MARK.search(marks) is not None
