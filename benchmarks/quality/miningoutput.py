"""``python -m benchmarks.quality.miningoutput``: the mining parts' output, saved or compared.

A change made for speed must leave what the parts find as it was. This reads every
page of the three public sets in ``../shared/benchdata`` (the 181 news pages of the
article extraction benchmark, the 55 shop pages of ``product-dev``, extruct's
samples) with ``metadata``, ``structured_data`` and ``product``, together as the
mining middleware runs them and each alone, and writes their results as one JSON
file (``--save``), or compares them with such a file written before the change
(``--compare``) and lists every page and part that differs.

RDFa's blank nodes, which pyRdfa names at random, are all given one name, and its
lists are compared in sorted order (rdflib's graph is a set: its order changes from one
process to the next).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import BENCHDATA, source_page
from benchmarks.quality.miningcpu import SETS, run_parts

#: The parts compared (the main text is judged by its own evaluation).
PARTS = ("metadata", "structured_data", "product")
#: How each page is read: the three together, then each alone.
RUNS: tuple[tuple[str, ...], ...] = (PARTS, *((p,) for p in PARTS))
BLANK = re.compile(r"_:[A-Za-z0-9_.-]+")


def pages() -> Iterator[tuple[str, str, str]]:
    """``(key, url, html)`` of every page of the three sets."""
    from benchmarks.quality.structured import SAMPLES, cases, read_html

    for name, load in SETS.items():
        for i, (url, html) in enumerate(load()):
            yield f"{name}/{i}", url, html
    urls = {case.html: case.url for case in cases()}
    for path in sorted(SAMPLES.rglob("*.html")):
        rel = path.relative_to(SAMPLES).as_posix()
        yield f"extruct-samples/{rel}", urls.get(rel, ""), read_html(path)


def outputs() -> dict[str, Any]:
    """Page key -> run -> part -> its result, as plain JSON."""
    out: dict[str, Any] = {}
    for key, url, html in pages():
        page_out = {}
        for names in RUNS:
            found = run_parts(source_page(url, html), names)
            page_out["+".join(names)] = {
                n: repr(v) if isinstance(v, Exception) else v for n, v in found.items()
            }
        text = json.dumps(page_out, sort_keys=True, default=repr, ensure_ascii=False)
        out[key] = json.loads(BLANK.sub("_:b", text))
    return out


def _unordered(value: Any) -> Any:
    """``value`` with every list sorted (RDFa's order is a set's)."""
    if isinstance(value, dict):
        return {k: _unordered(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_unordered(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
    return value


def _comparable(part: str, value: Any) -> Any:
    if part == "structured_data" and isinstance(value, dict) and "rdfa" in value:
        return {**value, "rdfa": _unordered(value["rdfa"])}
    return value


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """One line for every page, run and part whose result is not the same."""
    lines = [f"{key}: missing now" for key in before if key not in after]
    lines += [f"{key}: new page" for key in after if key not in before]
    for key in before.keys() & after.keys():
        for run, parts in before[key].items():
            for part, value in parts.items():
                now = after[key].get(run, {}).get(part)
                if _comparable(part, now) != _comparable(part, value):
                    lines.append(
                        f"{key} [{run}] {part}:\n  before {value!r:.600}\n  after  {now!r:.600}"
                    )
    return sorted(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the outputs to this JSON file")
    group.add_argument("--compare", type=Path, help="compare with a file --save wrote")
    args = parser.parse_args(argv)
    assert BENCHDATA.is_dir(), f"no public data in {BENCHDATA}"
    found = outputs()
    if args.save:
        args.save.write_text(json.dumps(found, sort_keys=True, ensure_ascii=False), "utf-8")
        print(f"{len(found)} pages written to {args.save}")
        return
    lines = differences(json.loads(args.compare.read_text("utf-8")), found)
    print("\n".join(lines) or f"{len(found)} pages: every result the same")
    sys.exit(1 if lines else 0)


if __name__ == "__main__":
    main()
