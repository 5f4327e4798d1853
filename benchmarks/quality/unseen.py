"""``python -m benchmarks.quality.unseen``: main text scored on public evaluation sets of
sites the extractor was not built on, beside trafilatura (default and favouring
precision) run on the same bytes in the same run.

The sets are read in place from git snapshots of their public repositories (never
copied), found under ``--repos`` (else ``$WEBROBOT_EVAL_REPOS``, else ``/work/.mirror``)
as ``<owner>+<name>/repo``:

- ``trafilatura-eval`` (adbar/trafilatura, ``tests/evaldata.json``, Apache-2.0): 990
  pages of as many sites in many languages, each with up to six passages the text must
  hold and up to six it must not (menus, footers, related links); scored as that
  repository scores it: per-page counts of passages found, summed, precision, recall
  and F1.
- ``wcxb-<type>`` (tiptopjaw/web-content-extraction-benchmark, ``release/html`` and
  ``benchmark/ground-truth``, Apache-2.0): 1,000 pages collected in 2026, each with its
  main content, one set per page type (article, forum, service, product,
  documentation, listing, collection); scored with the article benchmark's own metric
  (:mod:`benchmarks.quality.maintext`: shingles of 4 tokens).

``--structure legacy`` (or ``modern``) keeps the pages built as the web was before HTML5
(or the others), judged from the markup alone (:func:`structure`): a page with none of
HTML5's sectioning elements (``<article>``, ``<main>``, ``<header>``, ``<footer>``,
``<nav>``, ``<section>``) and no JSON-LD is ``legacy`` (table layouts, ``<font>``,
``<center>``: news portals, blogs and forums of 2005-2013), any other ``modern``.

Pages are split by site (host name): ``dev`` holds the sites whose host hashes even,
``held`` the others; the figures are given for both, and for all. HTML is decoded as
the crawl decodes it (w3lib, as Scrapy does). ``webrobot`` is
:func:`webrobot.extract.maintext.main_text` with the crawl's parse inside the clock, so
its CPU compares with extractors given the HTML; ``webrobot-all`` adds metadata,
structured data and product, as ``WEBROBOT_EXTRACT`` runs them together. CPU milliseconds per page are
process time, every extractor run on one page before the next page.

Prints a Markdown table (F1 per set and split, the mean over sets, CPU ms a page) and
one ``BENCH-RESULT {json}`` line per extractor and set.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from benchmarks.quality.maintext import RESULT_PREFIX, precision_recall_f1, tp_fp_fn

REPOS_ENV = "WEBROBOT_EVAL_REPOS"
TRAFILATURA_REPO = "adbar+trafilatura"
WCXB_REPO = "tiptopjaw+web-content-extraction-benchmark"
EXTRACTORS = ("webrobot", "webrobot-all", "trafilatura", "trafilatura-precision")
SPLITS = ("dev", "held", "all")
STRUCTURES = ("legacy", "modern")
#: What makes a page ``modern``: an HTML5 sectioning element's start tag, or JSON-LD.
_MODERN_MARKUP = re.compile(
    r"<(?:article|main|header|footer|nav|section)[\s/>]|application/ld\+json", re.IGNORECASE
)


def default_repos() -> Path:
    env = os.environ.get(REPOS_ENV)
    return Path(env) if env else Path("/work/.mirror")


@dataclass
class Page:
    set: str
    url: str
    html: str
    #: The main content (wcxb), or None where passages are given instead.
    truth: str | None = None
    with_: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)

    @property
    def split(self) -> str:
        host = (urlsplit(self.url).hostname or "").removeprefix("www.")
        return "dev" if hashlib.md5(host.encode()).digest()[0] % 2 == 0 else "held"


def structure(html: str) -> str:
    """``"modern"`` when ``html`` holds a start tag of one of HTML5's sectioning elements
    (``article``, ``main``, ``header``, ``footer``, ``nav``, ``section``) or a JSON-LD
    script, else ``"legacy"``: a page laid out as before HTML5 (tables, ``<font>``,
    ``<center>``, ``<div>`` alone). The markup alone decides, not the page's date or site."""
    return "modern" if _MODERN_MARKUP.search(html) else "legacy"


def git_blobs(gitdir: Path, paths: Iterable[str], rev: str = "HEAD") -> dict[str, bytes]:
    """The contents at ``rev`` of ``paths`` in the bare repository ``gitdir``; absent ones
    (large files left out of the snapshot, a commit it lacks) are missing from the answer."""
    paths = list(paths)
    request = "".join(f"{rev}:{p}\n" for p in paths).encode()
    out = subprocess.run(
        ["git", "--git-dir", str(gitdir), "cat-file", "--batch"],
        input=request,
        capture_output=True,
        check=True,
    ).stdout
    blobs: dict[str, bytes] = {}
    pos = 0
    for path in paths:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        blobs[path] = out[pos : pos + size]
        pos += size + 1
    return blobs


def git_names(gitdir: Path, folder: str) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(gitdir), "ls-tree", "--name-only", "HEAD", folder + "/"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return out.split()


def decode(body: bytes) -> str:
    """The page's text as the crawl decodes it (w3lib, as Scrapy's responses do)."""
    from w3lib.encoding import html_to_unicode

    return html_to_unicode(None, body)[1]


def trafilatura_eval(repos: Path) -> list[Page]:
    gitdir = repos / TRAFILATURA_REPO / "repo"
    evaldata = json.loads(git_blobs(gitdir, ["tests/evaldata.json"])["tests/evaldata.json"])
    wanted = {}
    for url, item in evaldata.items():
        for folder in ("tests/cache", "tests/eval"):
            wanted.setdefault(url, []).append(f"{folder}/{item['file']}")
    blobs = git_blobs(gitdir, [p for paths in wanted.values() for p in paths])
    pages = []
    for url, item in sorted(evaldata.items()):
        body = next((blobs[p] for p in wanted[url] if p in blobs), None)
        if body is None:
            continue
        pages.append(
            Page("trafilatura-eval", url, decode(body), None, item["with"], item["without"])
        )
    return pages


def wcxb(repos: Path) -> list[Page]:
    gitdir = repos / WCXB_REPO / "repo"
    truths = git_blobs(gitdir, git_names(gitdir, "benchmark/ground-truth"))
    htmls = git_blobs(gitdir, git_names(gitdir, "release/html"))
    pages = []
    for path, raw in sorted(truths.items()):
        record = json.loads(raw)
        html = htmls.get(f"release/html/{record['file_id']}.html.gz")
        if html is None:
            continue
        kind = record.get("_internal", {}).get("page_type", {}).get("primary") or "unknown"
        kind = "article" if kind == "blog" else kind
        truth = record["ground_truth"].get("main_content") or ""
        pages.append(Page(f"wcxb-{kind}", record["url"], decode(gzip.decompress(html)), truth))
    return pages


SETS: dict[str, Callable[[Path], list[Page]]] = {"trafilatura-eval": trafilatura_eval, "wcxb": wcxb}


def load(repos: Path, names: list[str]) -> list[Page]:
    """The pages of the sets ``names``: a source of :data:`SETS` (``wcxb`` is all its
    types) or one type of it (``wcxb-product``)."""
    pages: list[Page] = []
    for source in dict.fromkeys(
        name.split("-")[0] if name.startswith("wcxb") else name for name in names
    ):
        try:
            loaded = SETS[source](repos)
        except (OSError, KeyError, subprocess.CalledProcessError) as exc:
            print(f"skipped {source}: not readable under {repos} ({exc})", file=sys.stderr)
            continue
        pages += [p for p in loaded if source in names or p.set in names]
    return pages


def extractor(name: str) -> Callable[[str], str | None]:
    if name == "webrobot":
        from parsel import Selector

        from webrobot.extract.maintext import main_text
        from webrobot.extract.page import SourcePage

        return lambda html: main_text(
            SourcePage("", html, root=Selector(text=html, type="html").root)
        )
    if name == "webrobot-all":
        return _all_parts()
    import trafilatura

    if name == "trafilatura":
        return lambda html: trafilatura.extract(html, include_comments=False)
    if name == "trafilatura-precision":
        return lambda html: trafilatura.extract(html, include_comments=False, favor_precision=True)
    raise ValueError(f"unknown extractor {name!r}: expected any of {', '.join(EXTRACTORS)}")


def _all_parts() -> Callable[[str], str | None]:
    """What ``WEBROBOT_EXTRACT=text,metadata,structured_data,product`` runs on a page, as
    the mining middleware runs it (the structured data read once, handed to metadata and
    product), parse included; the text is what is scored."""
    from parsel import Selector

    from webrobot.extract.maintext import main_text
    from webrobot.extract.metadata import metadata
    from webrobot.extract.page import SourcePage
    from webrobot.extract.product import product
    from webrobot.extract.structured import structured_data

    def run(html: str) -> str | None:
        page = SourcePage("", html, root=Selector(text=html, type="html").root)
        structured = structured_data(page)
        text = main_text(page)
        metadata(page, structured)
        product(page, structured)
        return text

    return run


_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def passage_counts(page: Page, text: str) -> tuple[int, int, int, int]:
    """trafilatura's eval: passages found (tp), unwanted passages found (fp), passages
    missed (fn), unwanted ones left out (tn)."""
    found = _norm(text)
    tp = sum(1 for w in page.with_ if _norm(w) in found)
    fp = sum(1 for w in page.without if _norm(w) in found)
    return tp, fp, len(page.with_) - tp, len(page.without) - fp


def f1_of(pages: list[Page], outputs: list[str]) -> float:
    if not pages:
        return float("nan")
    if pages[0].truth is None:
        tp = fp = fn = 0
        for page, out in zip(pages, outputs, strict=True):
            a, b, c, _ = passage_counts(page, out)
            tp, fp, fn = tp + a, fp + b, fn + c
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return 2 * p * r / (p + r) if p + r else 0.0
    counts = [tp_fp_fn(page.truth or "", out) for page, out in zip(pages, outputs, strict=True)]
    return precision_recall_f1(counts)[2]


class HasHtml(Protocol):
    """A page as :func:`run` reads it: its HTML."""

    @property
    def html(self) -> str: ...


def run(
    names: Sequence[str], pages: Sequence[HasHtml]
) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Each extractor's text of each page (``""`` for none), and its CPU ms a page."""
    funcs = {name: extractor(name) for name in names}
    outputs: dict[str, list[str]] = {name: [] for name in names}
    spent = dict.fromkeys(names, 0.0)
    for page in pages:
        for name in names:
            started = time.process_time()
            try:
                text = funcs[name](page.html)
            except Exception:  # noqa: BLE001 - an extractor's crash costs it the page
                text = None
            spent[name] += time.process_time() - started
            outputs[name].append(text or "")
    return outputs, {name: 1000 * spent[name] / max(1, len(pages)) for name in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repos", type=Path, default=None)
    parser.add_argument(
        "--sets",
        default=",".join(SETS),
        help="trafilatura-eval, wcxb, or wcxb-<type>, comma-separated",
    )
    parser.add_argument("--extractors", default=",".join(EXTRACTORS))
    parser.add_argument("--every", type=int, default=1, help="every n-th page only (quick runs)")
    parser.add_argument(
        "--structure", choices=STRUCTURES, help="only the pages built this way (see structure())"
    )
    args = parser.parse_args(argv)
    repos = args.repos or default_repos()
    pages = load(repos, [s.strip() for s in args.sets.split(",") if s.strip()])
    if args.structure:
        pages = [p for p in pages if structure(p.html) == args.structure]
    pages = pages[:: max(1, args.every)]
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    outputs, cpu = run(names, pages)
    by_set: dict[str, list[int]] = defaultdict(list)
    for i, page in enumerate(pages):
        by_set[page.set].append(i)
    built = f" built {args.structure}" if args.structure else ""
    print(f"{len(pages)} pages{built}, {len(by_set)} sets; F1 dev / held / all\n")
    print("| set | pages | " + " | ".join(names) + " |")
    print("| --- | --- |" + " --- |" * len(names))
    means: dict[str, dict[str, list[float]]] = {n: {s: [] for s in SPLITS} for n in names}
    results = []
    for set_name in sorted(by_set):
        cells = []
        for name in names:
            scores = []
            for split in SPLITS:
                idx = [i for i in by_set[set_name] if split == "all" or pages[i].split == split]
                score = f1_of([pages[i] for i in idx], [outputs[name][i] for i in idx])
                if idx:
                    means[name][split].append(score)
                scores.append(score)
                results.append(
                    {
                        "extractor": name,
                        "set": set_name,
                        "split": split,
                        "pages": len(idx),
                        "f1": score,
                    }
                )
            cells.append(" / ".join(f"{s:.3f}" for s in scores))
        print(f"| {set_name} | {len(by_set[set_name])} | " + " | ".join(cells) + " |")
    row = [
        " / ".join(f"{statistics.fmean(means[n][s] or [math.nan]):.3f}" for s in SPLITS)
        for n in names
    ]
    print("| **mean of sets** | " + str(len(pages)) + " | " + " | ".join(row) + " |")
    print("| CPU ms a page | | " + " | ".join(f"{cpu[n]:.1f}" for n in names) + " |")
    for result in results:
        print(RESULT_PREFIX + json.dumps(result))
    for name in names:
        print(
            RESULT_PREFIX
            + json.dumps({"extractor": name, "cpu_ms": cpu[name], "pages": len(pages)})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
