"""``python -m benchmarks.quality.productwide``: product fields on real shop pages of many
shops and platforms, annotated by hand, split by shop.

The annotations are this project's own (``benchmarks/quality/productwide.json``): for
each page its source (a public repository pinned to a commit, and the path of the saved
page in it), its URL, shop, platform, language and currency, and the answers a person
reads on the page: the main product's price as displayed, the sku or item code as the
page labels it ("SKU:", "Item #", "Article number", "ASIN"), availability as the page
states it or its buy button implies (schema.org names: ``InStock``, ``OutOfStock``...),
and gtin and mpn where shown. A field's answer is the list of accepted values; an empty
list says the page shows none (a value given is then a wrong one); a field left out was
not judged (the page is ambiguous about it) and is not scored for that page.

Pages came in rounds: the first 55 (of 48 shops), then 28 more (``"added": "second
round"``: 10 new shops, and more pages of shops already there, in the half their shop is
in), then 26 more (``"added": "third round"``: 12 new shops in German, Spanish, French,
Romanian and English, and five German pages of Amazon), found in other public
repositories' saved pages. ``--round first``, ``--round "second round"`` or ``--round
"third round"`` scores one round alone, so that each round's halves are reported apart;
a page whose price or sku is not judged says why in its ``note``.

The pages themselves are never copied: they are read in place from git snapshots of
their repositories, found under ``--repos`` (else ``$WEBROBOT_EVAL_REPOS``, else
``/work/.mirror``) as ``<owner>+<name>/repo``, at the annotated commit. A page saved
inside a test or script file, as the string given to a name (``"embedded":
"testResponse"``), is read from that string (:func:`embedded`). Where a snapshot
is absent its pages are left out and said so; with none at all the evaluation has
nothing to score (:class:`FileNotFoundError`), and its tests skip.

Scoring is the product benchmark's (:mod:`benchmarks.quality.productdev`: a price is
right when its decimal value equals an accepted one, every other field when it equals an
accepted value exactly; precision, recall and F1 pooled per field), and so is the split:
a fixed hash of the shop's name puts every page of a shop in the same half, ``tuned``
(half A: the only pages looked at when changing the readers) or ``unseen`` (half B:
unseen until its availability misses were read for the availability rules, and its
sku misses for the code rules; the second round's unseen half was read for the sku
too: their figures are since read ones, and product-dev's unseen half is the unseen
one). Both halves are scored in one run beside the anchor run on the same bytes
(extruct and price-parser on structured data only).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table
from benchmarks.quality.product import Case, FieldScore
from benchmarks.quality.productdev import (
    FIELDS,
    READERS,
    SPLITS,
    DevPage,
    add_wrong_option,
    print_wrong,
    read,
    score,
    shop_of,
    split_of,
)
from benchmarks.quality.unseen import decode, git_blobs

ANNOTATIONS = Path(__file__).resolve().parent / "productwide.json"
REPOS_ENV = "WEBROBOT_EVAL_REPOS"
#: The fields annotated here (brand is not: shops show it too loosely to judge).
SCORED = ("price", "sku", "availability", "gtin", "mpn")
AVAILABILITY = {
    "InStock",
    "OutOfStock",
    "BackOrder",
    "PreOrder",
    "SoldOut",
    "Discontinued",
    "LimitedAvailability",
    "InStoreOnly",
    "OnlineOnly",
}


def default_repos() -> Path:
    env = os.environ.get(REPOS_ENV)
    return Path(env) if env else Path("/work/.mirror")


def annotations(path: Path = ANNOTATIONS) -> dict[str, Any]:
    """The annotation file, checked (:func:`problems`); :class:`ValueError` listing what
    is wrong."""
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    found = problems(data)
    if found:
        raise ValueError(f"{path}: " + "; ".join(found))
    return data


def problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with an annotation document (empty when it is well-formed)."""
    out = []
    sources = data.get("sources") or {}
    for name, source in sources.items():
        if not {"repo", "commit", "licence"} <= set(source):
            out.append(f"source {name}: needs repo, commit and licence")
        elif len(str(source["commit"])) != 40:
            out.append(f"source {name}: commit must be a full 40-digit hash")
    keys = set()
    for page in data.get("pages") or []:
        key = page.get("key")
        if not key or key in keys:
            out.append(f"page {key!r}: missing or repeated key")
        keys.add(key)
        for name in ("source", "path", "url", "shop", "platform", "language", "currency"):
            if not isinstance(page.get(name), str) or not page[name]:
                out.append(f"{key}: {name} must be a non-empty string")
        if page.get("source") not in sources:
            out.append(f"{key}: source {page.get('source')!r} is not among the sources")
        if isinstance(page.get("url"), str) and page.get("shop") != shop_of(page["url"]):
            out.append(f"{key}: shop {page.get('shop')!r} is not the URL's shop")
        for name in ("added", "note", "embedded"):
            if name in page and (not isinstance(page[name], str) or not page[name]):
                out.append(f"{key}: {name} must be a non-empty string")
        answers = page.get("answers")
        if not isinstance(answers, dict) or not answers:
            out.append(f"{key}: answers must be a non-empty object")
            continue
        for name, accepted in answers.items():
            if name not in SCORED:
                out.append(f"{key}: {name} is not an annotated field")
            elif not isinstance(accepted, list) or not all(
                isinstance(v, str) and v for v in accepted
            ):
                out.append(f"{key}: {name} must be a list of non-empty strings")
            elif name == "availability" and not set(accepted) <= AVAILABILITY:
                out.append(f"{key}: availability {accepted!r} is no schema.org name")
            elif name == "price" and not all(_is_decimal(v) for v in accepted):
                out.append(f"{key}: price {accepted!r} must be decimals (24.99)")
    return out


def _is_decimal(value: str) -> bool:
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(value).is_finite()
    except InvalidOperation:
        return False


@dataclass(frozen=True)
class WidePage:
    page: DevPage
    #: The fields judged on this page (the others are not scored for it).
    judged: frozenset[str]
    platform: str
    language: str
    #: ``first`` for the first round of pages, else the round named in the annotation.
    round: str = "first"


def pages(repos: Path | None = None, data: dict[str, Any] | None = None) -> list[WidePage]:
    """The annotated pages whose snapshots are present, read at the annotated commit;
    :class:`FileNotFoundError` when none is."""
    repos = default_repos() if repos is None else repos
    data = annotations() if data is None else data
    out = []
    missing = set()
    for name, source in data["sources"].items():
        gitdir = repos / source["repo"].replace("/", "+") / "repo"
        chosen = [p for p in data["pages"] if p["source"] == name]
        if not gitdir.is_dir():
            missing.add(source["repo"])
            continue
        blobs = git_blobs(gitdir, [p["path"] for p in chosen], rev=source["commit"])
        for entry in chosen:
            body = blobs.get(entry["path"])
            if body is None:
                missing.add(f"{source['repo']}:{entry['path']}")
                continue
            out.append(_page(entry, body))
    if missing:
        print(f"left out (not in {repos}): {', '.join(sorted(missing))}", file=sys.stderr)
    if not out:
        raise FileNotFoundError(f"no snapshot of the annotated pages under {repos}")
    return sorted(out, key=lambda w: w.page.key)


def _page(entry: dict[str, Any], body: bytes) -> WidePage:
    import gzip

    if entry["path"].endswith(".gz"):
        body = gzip.decompress(body)
    shop = entry["shop"]
    answers = entry["answers"]
    accepted = {f: list(answers.get(f) or []) for f in FIELDS}
    html = decode(body)
    if "embedded" in entry:
        html = embedded(html, entry["embedded"])
    case = Case(entry["key"], entry["url"], html, None)
    page = DevPage(entry["key"], shop, split_of(shop), case, accepted)
    return WidePage(
        page,
        frozenset(answers),
        entry["platform"],
        entry["language"],
        entry.get("added", "first"),
    )


_OPENING = r"\s*[:=]\s*(`|\"\"\"|'''|\"|')"
_UNESCAPED = {"n": "\n", "t": "\t"}


def embedded(text: str, name: str) -> str:
    """The page a test or script file holds as a string literal given to ``name``
    (``testResponse: `<!DOCTYPE html>...` ``, ``page = \"\"\"<html>...\"\"\"``), its
    escapes undone; :class:`ValueError` when the file gives ``name`` no string."""
    opening = re.search(re.escape(name) + _OPENING, text)
    if opening is None:
        raise ValueError(f"no string literal is given to {name!r}")
    quote = opening.group(1)
    if len(quote) == 1:
        body = re.compile(r"(?:\\.|[^\\" + quote + r"])*", re.DOTALL)
    else:
        body = re.compile(r"(?:\\.|(?!" + quote + r")[^\\])*", re.DOTALL)
    found = body.match(text, opening.end())
    literal = found.group(0) if found else ""
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _unescaped, literal, flags=re.DOTALL)


def _unescaped(escape: re.Match[str]) -> str:
    """One escape of a JavaScript or Python string undone: a code point, a newline, a quote."""
    code = escape.group(1)
    if len(code) == 5:
        return chr(int(code[1:], 16))
    return _UNESCAPED.get(code, code)


@dataclass
class Scores:
    #: field -> F1 parts, over the pages where the field was judged.
    fields: dict[str, FieldScore]
    pages: int
    shops: int


def evaluate(chosen: list[WidePage]) -> dict[str, dict[str, Scores]]:
    """reader -> split (``tuned``, ``unseen``, ``all``) -> scores; each reader reads each
    page once (the anchor's RDFa only where JSON-LD and microdata hold no Product: the
    same answers, and this table has no CPU column)."""
    answers = read([w.page for w in chosen], rdfa_when_needed=True)
    out: dict[str, dict[str, Scores]] = {}
    for reader in READERS:
        out[reader] = {}
        for split in (*SPLITS, "all"):
            in_split = [w for w in chosen if split in (w.page.split, "all")]
            fields = {
                name: score(answers[reader], [w.page for w in in_split if name in w.judged]).fields[
                    name
                ]
                for name in SCORED
            }
            out[reader][split] = Scores(fields, len(in_split), len({w.page.shop for w in in_split}))
    return out


def table(results: dict[str, dict[str, Scores]]) -> str:
    columns = [(reader, split) for split in (*SPLITS, "all") for reader in READERS]
    header = ["field"] + [
        f"{reader}, {split} ({results[reader][split].shops} shops,"
        f" {results[reader][split].pages} pages)"
        for reader, split in columns
    ]
    rows = [
        [name, *(f"{results[r][split].fields[name].f1:.3f}" for r, split in columns)]
        for name in SCORED
    ]
    return markdown_table(header, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=Path, default=None, help="where the snapshots are")
    parser.add_argument(
        "--round",
        default=None,
        help="score only the pages added in one round ('first', 'second round')",
    )
    add_wrong_option(parser)
    args = parser.parse_args(argv)
    try:
        chosen = pages(args.repos)
    except FileNotFoundError as exc:
        sys.exit(str(exc))
    if args.round:
        chosen = [w for w in chosen if w.round == args.round]
        if not chosen:
            sys.exit(f"no page was added in round {args.round!r}")
    results = evaluate(chosen)
    platforms = sorted({w.platform for w in chosen})
    languages = sorted({w.language for w in chosen})
    print(
        f"Product fields: {len(chosen)} real product pages of"
        f" {len({w.page.shop for w in chosen})} shops ({len(platforms)} platforms,"
        f" languages {', '.join(languages)}), split by shop\n"
    )
    print(table(results))
    if args.wrong:
        print_wrong(results, args.wrong)


if __name__ == "__main__":
    main()
