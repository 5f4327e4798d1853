"""Per-site fields: named values read from a page by CSS, XPath or a JSON-LD path.

A site config's ``[fields]`` table (or ``WEBROBOT_FIELDS``) names each field and
says where it is, with ONE of:

* ``css``: a CSS selector, with parsel's ``::text`` and ``::attr(name)``
  (``"h1::text"``, ``"a.next::attr(href)"``);
* ``xpath``: an XPath expression (``"//time/@datetime"``);
* ``jsonld``: a path into the page's JSON-LD (:func:`jsonld_values`):
  ``"Product.offers.price"``.

then optional ``processors``, applied in order. A selector gives a list of
values (an element gives its text); ``strip``, ``number``, ``price``, ``date``
and ``regex:PATTERN`` work on each value (a value they cannot read is dropped);
``first`` and ``join[:SEP]`` make one value of the list. A field whose
processors end with neither is a list.

Pure: parsel (Scrapy's selector library, no Scrapy itself) on the tree the crawl
already parsed; no I/O. :func:`compile_fields` checks a spec once, at load, and
raises :class:`FieldSpecError` naming the field; :func:`extract_fields` reads a page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsel import Selector
from parsel.csstranslator import HTMLTranslator

from webrobot.extract.dates import iso_date
from webrobot.extract.jsonld import read_jsonld
from webrobot.extract.product.prices import parse_price_text
from webrobot.optional import MissingExtra, check

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

SELECTOR_KINDS = ("css", "xpath", "jsonld")
PROCESSORS = ("strip", "join", "first", "number", "price", "date", "regex")
#: Processors that make one value of the list.
REDUCERS = frozenset({"first", "join"})
FIELD_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_JSONLD_SEGMENT = re.compile(r"^(?:[A-Za-z_@*][\w@:-]*|\d+)$")
_TRANSLATOR = HTMLTranslator()


class FieldSpecError(ValueError):
    """A field that cannot be used: names the field and what was expected."""

    def __init__(self, field: str, expected: str) -> None:
        self.field = field
        self.expected = expected
        super().__init__(f"field {field!r}: {expected}")


@dataclass(frozen=True, slots=True)
class Step:
    name: str
    argument: str | None = None
    pattern: re.Pattern[str] | None = None


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    kind: str  # css, xpath or jsonld
    query: str
    #: the XPath a ``css`` or ``xpath`` query runs as; the path segments of ``jsonld``
    compiled: str | tuple[str, ...]
    steps: tuple[Step, ...] = ()

    @property
    def single(self) -> bool:
        return any(step.name in REDUCERS for step in self.steps)


# -- checking a spec ---------------------------------------------------------------


def compile_fields(table: Any) -> tuple[FieldSpec, ...]:
    """The fields of a ``[fields]`` table (name -> table), checked; :class:`FieldSpecError`
    for the first that cannot be used."""
    if not isinstance(table, Mapping):
        raise FieldSpecError("*", f"expected a table of fields, got {type(table).__name__}")
    return tuple(compile_field(name, spec) for name, spec in table.items())


def compile_field(name: str, spec: Any) -> FieldSpec:
    if not isinstance(name, str) or not FIELD_NAME_RE.match(name):
        raise FieldSpecError(str(name), "expected a name of letters, digits and '_'")
    if isinstance(spec, str):  # shorthand: a CSS selector alone
        spec = {"css": spec}
    if not isinstance(spec, Mapping):
        raise FieldSpecError(name, f"expected a table with css, xpath or jsonld, got {spec!r}")
    unknown = set(spec) - {*SELECTOR_KINDS, "processors"}
    if unknown:
        raise FieldSpecError(
            name, f"unknown key {min(unknown)!r}; expected one of css, xpath, jsonld and processors"
        )
    kinds = [kind for kind in SELECTOR_KINDS if kind in spec]
    if len(kinds) != 1:
        raise FieldSpecError(name, "expected exactly one of css, xpath or jsonld")
    kind = kinds[0]
    query = spec[kind]
    if not isinstance(query, str) or not query.strip():
        raise FieldSpecError(name, f"{kind}: expected a non-empty string, got {query!r}")
    query = query.strip()
    compiled: str | tuple[str, ...]
    if kind == "css":
        try:
            compiled = _TRANSLATOR.css_to_xpath(query)
        except Exception as exc:  # noqa: BLE001 - cssselect's errors have no common base
            raise FieldSpecError(name, f"css: {query!r} is not a CSS selector: {exc}") from None
        _check_xpath(name, kind, compiled)
    elif kind == "xpath":
        compiled = query
        _check_xpath(name, kind, query)
    else:
        compiled = jsonld_path(query)
        if not compiled:
            raise FieldSpecError(
                name,
                f"jsonld: {query!r} is not a path: expected Type.key.key "
                "(a schema.org type or '*', then property names or list positions)",
            )
    return FieldSpec(name, kind, query, compiled, _steps(name, spec.get("processors", [])))


_PROBE = Selector(text="<html><body></body></html>")


def _check_xpath(name: str, kind: str, xpath: str) -> None:
    try:
        _PROBE.xpath(xpath)
    except ValueError as exc:
        raise FieldSpecError(name, f"{kind}: not a usable selector: {exc}") from None


def _steps(name: str, processors: Any) -> tuple[Step, ...]:
    if isinstance(processors, str):
        processors = [processors]
    if not isinstance(processors, list) or not all(isinstance(p, str) for p in processors):
        raise FieldSpecError(name, f"processors: expected a list of names, got {processors!r}")
    steps = []
    for text in processors:
        word, sep, argument = text.partition(":")
        word = word.strip().lower()
        if word not in PROCESSORS:
            raise FieldSpecError(
                name, f"unknown processor {text!r}; expected any of {', '.join(PROCESSORS)}"
            )
        if word == "regex":
            try:
                pattern = re.compile(argument)
            except re.error as exc:
                raise FieldSpecError(
                    name, f"processor {text!r}: bad regular expression: {exc}"
                ) from None
            if not argument:
                raise FieldSpecError(name, "processor 'regex' needs a pattern: 'regex:PATTERN'")
            steps.append(Step(word, argument, pattern))
        elif word == "join":
            steps.append(Step(word, argument if sep else " "))
        elif sep:
            raise FieldSpecError(name, f"processor {word!r} takes no argument, got {text!r}")
        else:
            if word == "price":
                try:
                    check("price_parser", "mining", "Per-site prices (WEBROBOT_FIELDS)")
                except MissingExtra as exc:
                    raise FieldSpecError(name, f"processor 'price': {exc}") from None
            steps.append(Step(word))
    return tuple(steps)


def jsonld_path(text: str) -> tuple[str, ...]:
    """``"Product.offers.price"`` -> ``("Product", "offers", "price")``; ``()`` if not a path."""
    segments = tuple(text.strip().split("."))
    if not all(_JSONLD_SEGMENT.match(s) for s in segments) or segments[0].isdigit():
        return ()
    return segments


# -- reading a page ----------------------------------------------------------------


def extract_fields(
    page: SourcePage, specs: tuple[FieldSpec, ...], jsonld: list[Any] | None = None
) -> dict[str, Any]:
    """Each field's value on ``page`` (a list, or one value with ``first``/``join``;
    ``None`` or ``[]`` where nothing was found). ``jsonld``: the page's JSON-LD
    documents when already parsed (structured data), else read from the page."""
    selector: Selector | None = None
    out: dict[str, Any] = {}
    for spec in specs:
        values: list[Any]
        if spec.kind == "jsonld":
            if jsonld is None:
                jsonld = page_jsonld(page)
            assert isinstance(spec.compiled, tuple)
            values = list(jsonld_values(jsonld, spec.compiled))
        else:
            if selector is None:
                selector = _selector(page)
            assert isinstance(spec.compiled, str)
            values = [_text_of(s) for s in selector.xpath(spec.compiled)] if selector else []
        out[spec.name] = apply_processors(values, spec.steps)
    return out


def _selector(page: SourcePage) -> Selector | None:
    if page.root is not None:
        return Selector(root=page.root, type="html")
    if page.html:
        try:
            return Selector(text=page.html, type="html")
        except (ValueError, TypeError):
            return None
    return None


def _text_of(selector: Selector) -> str:
    root = selector.root
    if isinstance(root, str):  # text or attribute
        return root
    if hasattr(root, "itertext"):
        return "".join(root.itertext())
    return str(selector.get() or "")


def page_jsonld(page: SourcePage) -> list[Any]:
    """The JSON-LD documents of ``page``'s ``<script type="application/ld+json">`` (bad ones left out)."""
    selector = _selector(page)
    if selector is None:
        return []
    return read_jsonld(selector.root).documents


def _types(node: Mapping[str, Any]) -> set[str]:
    declared = node.get("@type")
    names = declared if isinstance(declared, list) else [declared]
    # "http://schema.org/Product", "schema:Product" -> "Product"
    return {re.split(r"[/#:]", n)[-1] for n in names if isinstance(n, str)}


def _objects(value: Any, depth: int = 0) -> Iterator[Mapping[str, Any]]:
    """Every JSON object in ``value``, in document order (``@graph`` and nesting too)."""
    if depth > 64:
        return
    if isinstance(value, Mapping):
        yield value
        for child in value.values():
            yield from _objects(child, depth + 1)
    elif isinstance(value, list):
        for child in value:
            yield from _objects(child, depth + 1)


def jsonld_values(documents: list[Any], path: tuple[str, ...]) -> Iterator[Any]:
    """The values at ``path`` in ``documents``.

    The first segment is a type: every object (at any depth, ``@graph`` too)
    whose ``@type`` is it (``"Product"`` matches ``"http://schema.org/Product"``
    and a list holding it), or ``*`` for the documents' top objects. Each next
    segment is a property (applied to every item when the value is a list) or
    a list position (``0``: the first). A value that is a list gives its items."""
    head, rest = path[0], path[1:]
    if head == "*":
        current: list[Any] = [
            d for doc in documents for d in (doc if isinstance(doc, list) else [doc])
        ]
    else:
        current = [obj for obj in _objects(documents) if head in _types(obj)]
    for segment in rest:
        step: list[Any] = []
        for value in current:
            if segment.isdigit():
                if isinstance(value, list) and int(segment) < len(value):
                    step.append(value[int(segment)])
                elif not isinstance(value, list) and segment == "0":
                    step.append(value)
                continue
            for node in value if isinstance(value, list) else [value]:
                if isinstance(node, Mapping) and segment in node:
                    step.append(node[segment])
        current = step
    for value in current:
        if isinstance(value, list):
            yield from value
        elif value is not None:
            yield value


# -- processors --------------------------------------------------------------------


def apply_processors(values: list[Any], steps: tuple[Step, ...]) -> Any:
    """``values`` through ``steps``: a list, or one value (``None`` if none) after a reducer."""
    single = False
    for step in steps:
        if step.name == "first":
            values = [v for v in values if v not in (None, "")][:1]
            single = True
        elif step.name == "join":
            values = [(step.argument or "").join(str(v) for v in values if v not in (None, ""))]
            values = [v for v in values if v]
            single = True
        else:
            function = _MAPPERS[step.name]
            values = [r for r in (function(v, step) for v in values) if r is not None]
    if single:
        return values[0] if values else None
    return values


def strip(value: Any, step: Step | None = None) -> Any:
    """Whitespace collapsed and trimmed; an empty string is no value."""
    if not isinstance(value, str):
        return value
    text = " ".join(value.split())
    return text or None


_NUMBER = re.compile(r"[-+]?\d+(?:[.,' \u00a0\u202f]\d+)*")


def number(value: Any, step: Step | None = None) -> int | float | None:
    """The first number in ``value``: ``"1,234.50 sold"`` -> ``1234.5``, ``"12 %"`` -> ``12``.

    Grouping marks (``,`` ``.`` space ``'``) are told from the decimal mark as a
    reader does: the last of two different marks is the decimal one; a single
    mark followed by exactly three digits groups thousands, once or more
    (``1.234.567``); otherwise it is the decimal mark (``12,5``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if not isinstance(value, str):
        return None
    found = _NUMBER.search(value)
    if not found:
        return None
    text = found.group(0).strip()
    sign = ""
    if text[0] in "+-":
        sign, text = text[0], text[1:]
    text = re.sub(r"[\s\u00a0\u202f']", "", text).rstrip(".,")
    marks = [c for c in text if c in ".,"]
    decimal = None
    if marks:
        if len(set(marks)) == 2:
            decimal = marks[-1]
        else:
            mark = marks[0]
            groups = text.split(mark)
            thousands = all(len(g) == 3 for g in groups[1:]) and 1 <= len(groups[0]) <= 3
            decimal = None if thousands and (len(marks) > 1 or groups[0] != "0") else mark
            if len(marks) > 1 and not thousands:
                # "1.2.3": only the first two groups read as a number
                text = mark.join(groups[:2])
    whole, _, fraction = text.rpartition(decimal) if decimal else (text, "", "")
    whole = re.sub(r"[.,]", "", whole)
    digits = sign + (whole or "0") + ("." + fraction if fraction else "")
    try:
        result = float(digits) if fraction else int(digits)
    except ValueError:  # past Python's 4,300 digits
        return None
    if isinstance(result, float) and not math.isfinite(result):
        return None  # too large for a float; JSON has no infinity
    if isinstance(result, float) and result.is_integer() and not fraction.strip("0"):
        return int(result)
    return result


def price(value: Any, step: Step | None = None) -> int | float | None:
    """The amount of a price in ``value`` (``"€ 1.299,00"`` -> ``1299``), currency left out;
    read by the mining's one price reader (price-parser, the ``mining`` extra:
    :class:`~webrobot.optional.MissingExtra` when it is not installed)."""
    if not isinstance(value, str):
        return number(value)
    amount, _ = parse_price_text(value)
    if amount is None:
        return None
    result = float(amount)
    if not math.isfinite(result):
        return None
    return int(result) if result.is_integer() else result


def date(value: Any, step: Step | None = None) -> str | None:
    """An ISO 8601 date (``2026-11-21``) or date-time (``2026-11-21T08:03:17+00:00``)
    from a date as pages write it, read by the mining's one date reader
    (:func:`webrobot.extract.dates.iso_date`: ISO 8601, RFC 2822, written dates in
    several languages, numeric dates, timestamps); ``None`` for anything it cannot read
    for certain (``01/02/2026``: day or month first cannot be told)."""
    return iso_date(value)


def regex(value: Any, step: Step | None = None) -> str | None:
    """The first match of the step's pattern in ``value`` (its first group, if it has one)."""
    if step is None or step.pattern is None or not isinstance(value, str):
        return None
    found = step.pattern.search(value)
    if not found:
        return None
    return found.group(1) if found.re.groups else found.group(0)


_MAPPERS: dict[str, Callable[[Any, Step], Any]] = {
    "strip": strip,
    "number": number,
    "price": price,
    "date": date,
    "regex": regex,
}


def found_fields(values: dict[str, Any]) -> bool:
    """Whether any declared field was found."""
    return any(value is not None and value != [] for value in values.values())


def missing_fields(inputs: object, values: dict[str, Any]) -> list[str]:
    """``missing/<name>`` for each declared field not found, to be counted."""
    return [f"missing/{name}" for name, value in values.items() if value is None or value == []]
