"""``python -m benchmarks.quality.realdocs``: real built documentation, read as a person reads it.

Public repositories that keep a documentation site's generated HTML (a Sphinx
``_build/html``, an MkDocs ``site/``, a Docusaurus ``build/``, a VitePress ``dist``, a
Jekyll ``_site``, Javadoc, rustdoc, a GitBook ``_book``, an mdBook ``book/``) are read
in place from their git snapshots, at the commit pinned in :data:`SITES`; nothing of
them is copied into this repository. Each page's main text is scored against the page
itself, as a person reads it:

- ``lines``: every heading (but the headline, the page's first ``<h1>``, which is
  its title and the metadata's), paragraph, list item, definition (``<dt>``, ``<dd>``),
  table row and code-block line of the page's body (the theme's content element,
  :attr:`Site.content`) is a line of its own in ``main_text`` (a list item may keep its
  ``- `` or ``1. ``, a table row its ``|``; a heading's self-link, a copy button are not
  the text). The share of them found is the page's recall;
- ``precision``: the share of the text's characters on lines the body holds (a line
  with no letter or digit, such as a table's ``|---|`` rule, is not counted);
- ``chrome``: lines of the page's chrome (:attr:`Site.chrome`: the sidebar and the
  table of contents, version and language pickers, "Edit this page", "Previous" and
  "Next", the footer, the search box) that the text keeps as lines, where the body
  does not say the same words;
- ``F1``: of that recall and precision, a page's mean over the pages.

The content and chrome of each theme were read off the pages by a person before any
extractor ran on them. Run with the snapshots' git directories (or ``--mirror``)::

    python -m benchmarks.quality.realdocs --mirror /work/.mirror
    python -m benchmarks.quality.realdocs --mirror /work/.mirror --wrong

``webrobot`` is :func:`webrobot.extract.maintext.main_text` on the crawl's tree;
``trafilatura`` and ``trafilatura-precision`` are ``trafilatura.extract`` (default and
``favor_precision=True``) on the same HTML, in the same run. ``--wrong`` prints each
page's missed body lines and kept chrome lines, for webrobot.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table, realblogs, source_page

EXTRACTORS = ("webrobot", "trafilatura", "trafilatura-precision")
#: Elements inside the body that are not its text, whatever the theme: a heading's
#: self-link, a copy button, line numbers of a code block.
NOT_TEXT = (
    ".//a[contains(concat(' ', normalize-space(@class), ' '), ' headerlink ')"
    " or contains(@class, 'hash-link') or contains(@class, 'header-anchor')"
    " or contains(@class, 'anchor')] | .//button | .//script | .//style"
    " | .//*[contains(@class, 'linenos')] | .//*[contains(@class, 'copy')]"
)
_BLOCKS = ("p", "li", "dt", "dd", "tr", "pre", "div", "ul", "ol", "dl", "table", "section")


@dataclass(frozen=True)
class Site:
    repo: str
    commit: str
    generator: str
    #: XPath of the page's body, and of its chrome (sidebar, toc, footer, pager...).
    content: str
    chrome: str
    pages: tuple[str, ...]
    #: XPath (from the body) of the theme's own blocks that are lines of their own
    #: besides the HTML ones (the cells of a grid drawn with ``<div>``).
    blocks: str = ""
    notes: str = ""

    @property
    def folder(self) -> str:
        return self.repo.replace("/", "+")


SITES: tuple[Site, ...] = (
    Site(
        repo="ncherric/Iliad-ReadtheDocs",
        commit="35a6969d624483d073939c82042d5c990f0106c3",
        generator="Sphinx (sphinx_rtd_theme)",
        content="//div[@role='main']",
        chrome="//nav[contains(@class, 'wy-nav-side')] | //div[@role='navigation']"
        " | //footer | //nav[contains(@class, 'wy-nav-top')]",
        pages=("docs/_build/html/tutorial/setup.html", "docs/_build/html/tutorial/liftover.html"),
    ),
    Site(
        repo="professional8450/pybakalari",
        commit="c87682f7dfb36282c207d467062c0a41bf8458e7",
        generator="Sphinx autodoc (Furo)",
        content="//article[@role='main']",
        chrome="//aside | //footer | //header",
        pages=("docs/_build/html/index.html",),
        notes="an API reference: classes, methods and their parameters as dl/dt/dd",
    ),
    Site(
        repo="10xHub/injectq",
        commit="153a102637a4a4c7acf2759402f03fd511a71144",
        generator="MkDocs (Material)",
        content="//article[contains(@class, 'md-content__inner')]",
        chrome="//div[contains(@class, 'md-sidebar')] | //header | //footer"
        " | //nav[contains(@class, 'md-tabs')]",
        pages=(
            "site/getting-started/installation/index.html",
            "site/core-concepts/service-lifetimes/index.html",
        ),
    ),
    Site(
        repo="Chargily/chargily-dev-docs",
        commit="3ffd4dad8cbe03771ea036dacee381d3169ce3e8",
        generator="Docusaurus 2",
        content="//div[contains(@class, 'theme-doc-markdown')]",
        chrome="//aside | //nav[contains(@class, 'pagination-nav')] | //footer"
        " | //div[contains(@class, 'theme-doc-toc')] | //nav[contains(@class, 'navbar')]"
        " | //nav[contains(@class, 'breadcrumbs')] | //div[contains(@class, 'theme-doc-footer')]",
        pages=("build/docs/epay-php/index.html", "build/docs/pay-faq/index.html"),
    ),
    Site(
        repo="3JoB/telebot-docs",
        commit="c63921d81e216039a094edfcafe0c952b11c61d6",
        generator="VitePress",
        content="//div[contains(@class, 'vp-doc')]",
        chrome="//aside | //header | //footer | //div[contains(@class, 'VPDocFooter')]"
        " | //div[contains(@class, 'VPLocalNav')] | //div[contains(@class, 'aside')]",
        pages=(
            "docs/.vitepress/dist/guide/api/send.html",
            "docs/.vitepress/dist/guide/getting-started.html",
        ),
    ),
    Site(
        repo="OntimizeWeb/docs",
        commit="457818eea48d0cbfaf8db52942ecc8883e6c4a7c",
        generator="Jekyll (Just the Docs)",
        content="//div[@id='main-content']",
        chrome="//div[contains(@class, 'side-bar')] | //div[@id='main-header']"
        " | //nav[contains(@class, 'breadcrumb')] | //div[@id='main-content']/footer",
        pages=("_site/deployment/index.html", "_site/getting-started/index.html"),
    ),
    Site(
        repo="Conflux-Chain/java-conflux-sdk",
        commit="58c653fde3b162096efbbf5d4982756b59bf9481",
        generator="Javadoc (JDK 11+)",
        content="//main",
        chrome="//header | //footer | //nav",
        blocks=".//div[contains(@class, 'summary-table')]/div",
        pages=(
            "docs/javadoc/conflux/web3j/Account.html",
            "docs/javadoc/conflux/web3j/contract/abi/package-summary.html",
        ),
    ),
    Site(
        repo="Andrew-Shay/rust_vendor_base64",
        commit="801724003f809ff0370c5053a290ca10903102e8",
        generator="rustdoc",
        content="//section[@id='main-content']",
        chrome="//nav | //rustdoc-search | //div[contains(@class, 'sidebar')]",
        pages=(
            "docs/vendor_base64/base64/fn.decode.html",
            "docs/vendor_base64/base64/struct.InvalidBase64String.html",
        ),
    ),
    Site(
        repo="chiphuyen/ml-interviews-book",
        commit="2287e82994feb7a3d5d77fb621687ff981752275",
        generator="GitBook (HonKit)",
        content="//section[contains(@class, 'markdown-section')]",
        chrome="//div[contains(@class, 'book-summary')] | //div[contains(@class, 'book-header')]"
        " | //a[contains(@class, 'navigation')] | //footer",
        pages=("_book/contents/2.4-red-flags.html", "_book/contents/4.3.1-courses.html"),
    ),
    Site(
        repo="COSI-Lab/book",
        commit="ef9d1e882cee5d3e1cd41cf1d814049686fb8e0f",
        generator="mdBook",
        content="//main",
        chrome="//nav | //div[@id='menu-bar']",
        pages=("book/0_1_guiding_principles.html", "book/0_0_the_cosi_book.html"),
    ),
)


@dataclass
class Score:
    recall: list[float] = field(default_factory=list)
    precision: list[float] = field(default_factory=list)
    f1: list[float] = field(default_factory=list)
    chrome: int = 0
    cpu: float = 0.0
    wrong: list[str] = field(default_factory=list)


_SPACE = re.compile(r"\s+")
_MARKER = re.compile(r"^(?:[-*•]|\d+[.)])\s+")
_WORDY = re.compile(r"\w")
_NOISE = re.compile(r"[\u00a0|]|^#+\s|\s#$")
_INVISIBLE = re.compile(r"[¶\u200b\u200c\u200d\ufeff]")


def norm(text: str) -> str:
    """A line as it is compared: marks of a list item, a table's ``|``, a heading's
    ``#`` or ``¶`` left out, runs of spaces made one."""
    text = _NOISE.sub(" ", _INVISIBLE.sub("", text).strip())
    text = _SPACE.sub(" ", text).strip()
    return _MARKER.sub("", text).strip()


def _body(root: Any, site: Site) -> Any:
    bodies = root.xpath(site.content)
    if not bodies:
        return None
    body = deepcopy(bodies[0])
    for element in body.xpath(NOT_TEXT):
        if element.getparent() is not None:
            element.drop_tree()
    return body


def _own_text(element: Any) -> str:
    return norm(element.text_content())


def _holds_blocks(element: Any) -> bool:
    return any(
        isinstance(c.tag, str) and c.tag in _BLOCKS for c in element.iter() if c is not element
    )


def expected_lines(body: Any, blocks: str = "") -> list[str]:
    """The body's headings, paragraphs, list items, definitions, table rows and
    code lines, each as one line; an element holding blocks is scored by those."""
    lines: list[str] = []
    headline = next(body.iter("h1"), None)
    for element in body.iter():
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag == "pre":
            lines += [n for line in _code_text(element).split("\n") if (n := norm(line))]
        elif element.xpath("ancestor::pre"):
            continue
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") and element is not headline:
            lines.append(_own_text(element))
        elif tag == "tr":
            if not element.xpath(".//table | .//pre | .//p | .//ul | .//ol"):
                lines.append(norm(" ".join(c.text_content() for c in element)))
        elif (
            tag in ("p", "li", "dt", "dd")
            and not element.xpath("ancestor::tr")
            and not _holds_blocks(element)
        ):
            lines.append(_own_text(element))
    if blocks:
        lines += [_own_text(element) for element in body.xpath(blocks)]
    return [line for line in lines if line]


def body_text(body: Any) -> str:
    """The body's words as one string to find a line of the text in: as the tree joins
    them, and with a space between every two of its text nodes (table cells, a term and
    its definition), on two lines (a line of the text never spans the break)."""
    return norm(body.text_content()) + "\n" + norm(" ".join(body.itertext()))


def _code_text(pre: Any) -> str:
    """A code block's text as it shows: a ``<br>`` or a line of its own (a ``token-line``,
    as Prism draws it in Docusaurus) ends a line."""
    pre = deepcopy(pre)
    for element in pre.iter():
        if element.tag == "br" or "token-line" in (element.get("class") or ""):
            element.tail = "\n" + (element.tail or "")
    return str(pre.text_content())


def chrome_lines(root: Any, site: Site, body_lines: set[str]) -> list[str]:
    found = []
    for element in root.xpath(site.chrome):
        for text in element.xpath(".//text()[not(ancestor::script or ancestor::style)]"):
            line = norm(text)
            if len(line) >= 4 and line not in body_lines and line not in found:
                found.append(line)
    return found


def score_page(text: str | None, wanted: list[str], body_text: str, chrome: list[str]):
    lines = [norm(line) for line in (text or "").split("\n")]
    have = set(lines)
    # a line without a letter or digit is markup (a table's ``|---|`` rule), or code
    # (``}``) that is scored as a line: not counted in the precision
    lines = [line for line in lines if _WORDY.search(line)]
    missed = [w for w in wanted if w not in have]
    recall = 1 - len(missed) / len(wanted) if wanted else 1.0
    total = sum(len(line) for line in lines if line)
    inside = sum(len(line) for line in lines if line and line in body_text)
    precision = inside / total if total else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    kept = [c for c in chrome if c in have]
    return recall, precision, f1, missed, kept


def extractor(name: str) -> Callable[[str, str], str | None]:
    if name == "webrobot":
        from webrobot.extract.maintext import main_text

        return lambda url, html: main_text(source_page(url, html))
    import trafilatura

    precision = name == "trafilatura-precision"
    return lambda url, html: trafilatura.extract(html, favor_precision=precision)


def find_snapshots(paths: Iterable[Path], mirror: Path | None) -> dict[str, Path]:
    """The git directory of each site's snapshot, by repository: a path given whose
    name holds ``owner+name``, or ``<mirror>/owner+name/repo``
    (:func:`benchmarks.quality.realblogs.find_snapshots`)."""
    return realblogs.find_snapshots(paths, mirror, SITES)


def evaluate(snapshots: dict[str, Path], names: Iterable[str]) -> dict[str, dict[str, Score]]:
    """Each extractor's scores, by generator."""
    funcs = {name: extractor(name) for name in names}
    results: dict[str, dict[str, Score]] = {name: {} for name in funcs}
    for site in SITES:
        if site.repo not in snapshots:
            continue
        for path in site.pages:
            html = realblogs.read_blob(snapshots[site.repo], site.commit, path)
            url = f"https://{site.folder}.example/{path}"
            root = source_page(url, html).root
            body = _body(root, site)
            if body is None:
                raise ValueError(f"{site.repo} {path}: no body at {site.content}")
            wanted = expected_lines(body, site.blocks)
            chrome = chrome_lines(root, site, set(wanted))
            text_of_body = body_text(body)
            for name, func in funcs.items():
                started = time.process_time()
                try:
                    text = func(url, html)
                except Exception:  # noqa: BLE001 - an extractor's crash costs it the page
                    text = None
                score = results[name].setdefault(site.generator, Score())
                score.cpu += time.process_time() - started
                recall, precision, f1, missed, kept = score_page(text, wanted, text_of_body, chrome)
                score.recall.append(recall)
                score.precision.append(precision)
                score.f1.append(f1)
                score.chrome += len(kept)
                if missed or kept:
                    score.wrong.append(
                        f"{site.repo} {path}: {len(missed)}/{len(wanted)} lines missed,"
                        f" e.g. {missed[:4]}; chrome kept {kept[:4]}"
                    )
    return results


def mean_f1(results: dict[str, Score]) -> float:
    return statistics.fmean(f for score in results.values() for f in score.f1)


def table(results: dict[str, dict[str, Score]]) -> str:
    """F1 (line recall / precision, chrome lines kept) by generator and over all pages,
    and the CPU milliseconds a page, one column an extractor."""
    names = list(results)
    generators = list(results[names[0]])
    rows = []
    for generator in [*generators, "all"]:
        cells = []
        for name in names:
            scores = (
                list(results[name].values()) if generator == "all" else [results[name][generator]]
            )
            f1 = statistics.fmean(f for s in scores for f in s.f1)
            recall = statistics.fmean(f for s in scores for f in s.recall)
            precision = statistics.fmean(f for s in scores for f in s.precision)
            chrome = sum(s.chrome for s in scores)
            cells.append(f"{f1:.3f} ({recall:.2f} / {precision:.2f}, {chrome})")
        counted = results[names[0]].values() if generator == "all" else [
            results[names[0]][generator]
        ]  # fmt: skip
        rows.append([generator, str(sum(len(s.f1) for s in counted)), *cells])
    pages = sum(len(s.f1) for s in results[names[0]].values())
    cpu = [f"{1000 * sum(s.cpu for s in results[n].values()) / pages:.1f}" for n in names]
    rows.append(["CPU ms a page", "", *cpu])
    return markdown_table(["generator", "pages", *names], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("snapshots", nargs="*", type=Path, help="the sites' git directories")
    parser.add_argument("--mirror", type=Path, help="a folder of <owner>+<name>/repo snapshots")
    parser.add_argument("--extractors", default=",".join(EXTRACTORS))
    parser.add_argument("--wrong", action="store_true", help="webrobot's misses, page by page")
    args = parser.parse_args(argv)
    snapshots = find_snapshots(args.snapshots, args.mirror)
    if not snapshots:
        parser.error("no snapshot of any site given (paths or --mirror)")
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    results = evaluate(snapshots, names)
    print("F1 (line recall / precision, chrome lines kept)\n")
    print(table(results))
    missing = [s.repo for s in SITES if s.repo not in snapshots]
    if missing:
        print(f"\nnot scored (no snapshot): {', '.join(missing)}")
    if args.wrong and names:
        for score in results[names[0]].values():
            for line in score.wrong:
                print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
