"""What a page said, and what changed since: the monitor's comparison rules.

Pure: no Scrapy, no I/O. A :class:`Snapshot` keeps a page's main text as
sentences and its typed fields (title, price, availability, per-site fields...)
as normalised strings; :func:`changes` compares two of them on what a reader
sees, never on bytes: numbers that look like timestamps, counters or tokens
are normalised away, and sentences are compared as multisets, so re-ordered
or rotated blocks are no change.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

#: Metadata keys compared as typed fields (``modified`` moves with every edit and
#: ``image`` URLs carry cache-busting tokens: neither is compared).
METADATA_FIELDS = (
    "title",
    "description",
    "authors",
    "published",
    "language",
    "site_name",
    "canonical",
)
#: Product keys compared as typed fields.
PRODUCT_FIELDS = (
    "name",
    "price",
    "currency",
    "availability",
    "sku",
    "gtin",
    "mpn",
    "brand",
)
#: Longest value kept for one typed field: a snapshot stays small.
MAX_FIELD_CHARS = 200
#: Most per-site fields kept.
MAX_SITE_FIELDS = 32

_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DAYS = r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
_UNITS = r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?"
_COUNTED = (
    r"views?|visits?|visitors?|reads?|comments?|replies|likes?|shares?|followers?|"
    r"downloads?|votes?|clicks?|hits|impressions|online|watching|users online|people online"
)
_NUMBER = r"\d[\d,.\u00a0\u202f]*"

_DAY = rf"(?:(?:{_DAYS})\.?,?\s+)?"

#: (pattern, replacement, only where a digit is), applied in order to a lower-cased sentence.
_NOISE: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    # Tokens: long runs of letters and digits mixed (CSRF, session, cache keys), long hex.
    (re.compile(r"\b(?=[a-z0-9_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9_-]{16,}\b"), "<token>", True),
    (re.compile(r"\b[0-9a-f]{12,}\b"), "<token>", False),
    # ISO and numeric dates and times.
    (
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b"
        ),
        "<time>",
        True,
    ),
    (re.compile(r"\b\d{1,4}[/.]\d{1,2}[/.]\d{1,4}\b"), "<time>", True),
    (
        re.compile(
            r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:\s*[ap]\.?m\.?)?(?:\s*(?:utc|gmt|z))?\b"
        ),
        "<time>",
        True,
    ),
    # Dates in words: "27 November 2026", "Friday, Nov 27, 2026" (a day name alone is no date).
    (
        re.compile(
            rf"\b{_DAY}\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\.?(?:,?\s+\d{{4}})?\b"
        ),
        "<time>",
        True,
    ),
    (
        re.compile(rf"\b{_DAY}(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"),
        "<time>",
        True,
    ),
    # Epoch seconds or milliseconds.
    (re.compile(r"\b1\d{9}(?:\d{3})?\b"), "<time>", True),
    # Relative times and counters.
    (re.compile(rf"\b(?:{_NUMBER}|an?|one)\s*(?:{_UNITS})\s+ago\b"), "<ago>", False),
    (re.compile(r"\b(?:yesterday|just now|moments ago)\b"), "<ago>", False),
    (re.compile(rf"(?<![\w$€£¥]){_NUMBER}[km]?\s*(?:{_COUNTED})\b"), "<n> counted", True),
    (re.compile(rf"\b(?:{_COUNTED})\s*[:=(]?\s*{_NUMBER}[km]?(?![\w%])"), "counted <n>", True),
    (
        re.compile(rf"\b(?:viewed|read|seen|played|downloaded)\s+{_NUMBER}[km]?\s+times\b"),
        "counted <n>",
        True,
    ),
)
_DIGIT = re.compile(r"\d")
_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)
#: A sentence ends at ., ! or ? (and a closing quote or bracket, which stay with it)
#: followed by space and a capital, a digit or an opening quote.
_SENTENCE_END = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019\u00bb)\]]))\s+(?=[\"'(\[\u201c\u2018\u00abA-Z0-9\u00c0-\u00de])"
)
_WORDLESS = re.compile(r"^[\W_<>]*$")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """The form of a sentence that is compared: lower case, one space, typographic
    quotes plain, timestamps, counters and tokens replaced by placeholders."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).lower()
    text = _SPACES.sub(" ", text).strip()
    digits = _DIGIT.search(text) is not None
    for pattern, replacement, needs_digit in _NOISE:
        if digits or not needs_digit:
            text = pattern.sub(replacement, text)
    return text


def sentences(main_text: str) -> list[str]:
    """``main_text`` (paragraphs as lines) cut into sentences, spaces collapsed; lines
    with no word (rules, bullets, lone numbers) are left out."""
    out = []
    for line in main_text.splitlines():
        line = _SPACES.sub(" ", line).strip()
        if not line:
            continue
        for sentence in _SENTENCE_END.split(line):
            sentence = sentence.strip()
            if sentence and not _WORDLESS.match(normalise(sentence)):
                out.append(sentence)
    return out


def _plain(value: Any) -> str | None:
    """A typed field's value as one line of text, or None when empty."""
    if value is None or value == "" or value == [] or value == {}:
        return None
    if isinstance(value, list | tuple):
        parts = [p for p in (_plain(v) for v in value) if p]
        text = "; ".join(parts)
    elif isinstance(value, Mapping):
        text = "; ".join(f"{k}={_plain(v)}" for k, v in sorted(value.items()) if _plain(v))
    else:
        text = str(value)
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()
    return text[:MAX_FIELD_CHARS] or None


def _price(value: str) -> str:
    """``"1,299.00"`` and ``"1299"`` are one price."""
    try:
        number = Decimal(value.replace(",", "").replace(" ", ""))
    except InvalidOperation:
        return value
    return format(number.normalize(), "f") if number == number.to_integral() else str(number)


def _availability(value: str) -> str:
    """``https://schema.org/InStock``, ``InStock`` and ``in stock`` are one value."""
    value = value.rsplit("/", 1)[-1]
    return re.sub(r"[\s_-]+", "", value).lower()


def typed_fields(item: Mapping[str, Any]) -> dict[str, str]:
    """The typed fields of an item's ``metadata``, ``product`` and ``fields``, flat:
    ``title``, ``price``, ``fields.colour``... Empty values are left out."""
    out: dict[str, str] = {}
    metadata = item.get("metadata") or {}
    if isinstance(metadata, Mapping):
        for key in METADATA_FIELDS:
            value = _plain(metadata.get(key))
            if value:
                out[key] = value
    if "title" not in out and isinstance(item.get("title"), str):
        value = _plain(item["title"])
        if value:
            out["title"] = value
    product = item.get("product") or {}
    if isinstance(product, Mapping):
        for key in PRODUCT_FIELDS:
            value = _plain(product.get(key))
            if value:
                out[key if key not in out else f"product.{key}"] = value
    site_fields = item.get("fields") or {}
    if isinstance(site_fields, Mapping):
        for key in sorted(site_fields, key=str)[:MAX_SITE_FIELDS]:
            value = _plain(site_fields[key])
            if value:
                out[f"fields.{key}"] = value
    return out


def _field_form(name: str, value: str) -> str:
    """The form of a typed field that is compared."""
    if name in {"price", "product.price"}:
        return _price(value)
    if name == "availability":
        return _availability(value)
    return _SPACES.sub(" ", value).strip().casefold()


#: Most characters a snapshot keeps of the sentences its rules left out.
MAX_IGNORED_CHARS = 4000


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(s for s in value if isinstance(s, str)) if isinstance(value, list) else ()


@dataclass(frozen=True)
class Snapshot:
    """What a page said: its main text as sentences, its typed fields; and the
    baseline it was taken under: the sentences its noise rules left out
    (``ignored``), the fingerprint of those rules (``rules``,
    :func:`webrobot.monitor.baseline.rules_fingerprint`) and the extractors'
    version (``reader``). Empty strings for a snapshot kept before these were."""

    text: tuple[str, ...] = ()
    fields: Mapping[str, str] = field(default_factory=dict)
    ignored: tuple[str, ...] = ()
    rules: str = ""
    reader: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": list(self.text), "f": dict(self.fields)}
        if self.ignored:
            out["x"] = list(self.ignored)
        if self.rules:
            out["r"] = self.rules
        if self.reader:
            out["v"] = self.reader
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Snapshot:
        fields = data.get("f") or {}
        return cls(
            _strings(data.get("t") or []),
            {str(k): str(v) for k, v in fields.items()} if isinstance(fields, Mapping) else {},
            _strings(data.get("x") or []),
            str(data.get("r") or ""),
            str(data.get("v") or ""),
        )

    def under(self, rules: str, reader: str) -> Snapshot:
        """The same snapshot, marked as taken under ``rules`` by ``reader``."""
        return Snapshot(self.text, self.fields, self.ignored, rules, reader)


@dataclass(frozen=True)
class Ignore:
    """What the defaults miss, per site: sentences matching one of ``patterns``
    (regular expressions, searched case-insensitively) and typed ``fields`` by name."""

    patterns: tuple[re.Pattern[str], ...] = ()
    fields: frozenset[str] = frozenset()

    @classmethod
    def of(cls, patterns: Iterable[str] = (), fields: Iterable[str] = ()) -> Ignore:
        """:class:`re.error` for a pattern that does not compile."""
        return cls(tuple(re.compile(p, re.IGNORECASE) for p in patterns), frozenset(fields))

    def keeps(self, sentence: str) -> bool:
        return not any(p.search(sentence) for p in self.patterns)


NOTHING_IGNORED = Ignore()


def snapshot_of(
    item: Mapping[str, Any], ignore: Ignore = NOTHING_IGNORED, ignored_text: Iterable[str] = ()
) -> Snapshot:
    """The snapshot of an item carrying ``main_text`` and typed fields; sentences of
    ``ignored_text`` (the text of a site's ignore selectors) are left out."""
    main_text = item.get("main_text") or ""
    if not isinstance(main_text, str):
        main_text = ""
    skip = {normalise(s) for chunk in ignored_text for s in sentences(chunk)}
    text: list[str] = []
    left_out: list[str] = []
    room = MAX_IGNORED_CHARS
    for sentence in sentences(main_text):
        if ignore.keeps(sentence) and not (skip and normalise(sentence) in skip):
            text.append(sentence)
        elif len(sentence) <= room:
            left_out.append(sentence)
            room -= len(sentence)
    fields = {k: v for k, v in typed_fields(item).items() if k not in ignore.fields}
    return Snapshot(tuple(text), fields, tuple(left_out))


def _by_form(text: Iterable[str]) -> tuple[Counter[str], dict[str, str]]:
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for sentence in text:
        form = normalise(sentence)
        counts[form] += 1
        first.setdefault(form, sentence)
    return counts, first


def changes(
    old: Snapshot,
    new: Snapshot,
    ignore: Ignore = NOTHING_IGNORED,
    template: Collection[str] = (),
    rules_changed: bool = False,
) -> list[dict[str, Any]]:
    """What changed from ``old`` to ``new``: one ``{"field", "old", "new"}`` per typed
    field (sorted by name; ``None`` where absent), then one
    ``{"field": "main_text", "added", "removed"}`` with the sentences added and removed
    (compared as multisets of normalised sentences, so order does not count).

    Sentences whose normalised form is in ``template`` (the site's template,
    :mod:`webrobot.monitor.template`) are left out. With ``rules_changed`` (the two
    were taken under different noise rules, by the same extractors) both are judged
    under the new rules: a sentence counts as added only if the old page did not
    hold it at all, kept or left out by its rules, and as removed only if the new
    page does not; a typed field counts only where both snapshots have it."""
    out: list[dict[str, Any]] = []
    names = (
        set(old.fields) & set(new.fields) if rules_changed else set(old.fields) | set(new.fields)
    )
    for name in sorted(names):
        if name in ignore.fields:
            continue
        before, after = old.fields.get(name), new.fields.get(name)
        if (before and _field_form(name, before)) != (after and _field_form(name, after)):
            out.append({"field": name, "old": before, "new": after})
    skip = frozenset(template)
    old_counts, old_first = _by_form(s for s in old.text if ignore.keeps(s))
    new_counts, new_first = _by_form(s for s in new.text if ignore.keeps(s))
    for form in skip:
        old_counts.pop(form, None)
        new_counts.pop(form, None)
    more, fewer = new_counts - old_counts, old_counts - new_counts
    if rules_changed:
        old_all = set(old_counts) | {normalise(s) for s in old.ignored}
        new_all = set(new_counts) | {normalise(s) for s in new.ignored}
        more = Counter({f: n for f, n in more.items() if f not in old_all})
        fewer = Counter({f: n for f, n in fewer.items() if f not in new_all})
    added = [new_first[f] for f in new_first for _ in range(more[f])]
    removed = [old_first[f] for f in old_first for _ in range(fewer[f])]
    if added or removed:
        out.append({"field": "main_text", "added": added, "removed": removed})
    return out
