"""``python -m benchmarks.quality.realblogs``: real built blogs, read as a person reads a post.

Public repositories that keep a blog's generated HTML (a Jekyll ``_site/``, a Hugo
``public/``) are read in place from their git snapshots, at the commit pinned in
:data:`SITES`; nothing of them is copied into this repository. Each post's page goes
through what a crawl with ``WEBROBOT_EXTRACT=all`` runs (the main text and the
metadata, on the tree the crawl builds), and is scored against the page itself:

- ``headings``, ``lists``, ``code``: every heading, list item and line of a code
  block of the post's body (the theme's content element, :attr:`Site.content`) is a
  line of its own in ``main_text`` (a list item may keep its ``- `` or ``1. ``). An
  item that is only a link (a table of contents, a series' index) and a heading in a
  picture's caption are not asked for: leaving them out is a fair reading too;
- ``footer``: no line of the site's footer (:attr:`Site.footer`) is in the text;
  ``plea``: none of the site's donation or follow pleas (:attr:`Site.pleas`);
  ``meta``: the post's meta line (:attr:`Site.meta`: "Posted on ... | Edited on ... |
  In ..."), its dates and counts, is not in the text;
- ``published``, ``modified``: the day the page shows (a page that shows no update
  takes no modification date, or the publication's day);
- ``authors``: the names the page shows as the post's author (one of the readings
  in :attr:`Post.authors`; a page that shows none takes ``[]``);
- ``title``: the post's title as its headline shows it, without the site's name.

The dates, authors and titles were read off each page by a person. A site's score
for a check is the posts that pass it over the posts it applies to (a post with no
list has no ``lists`` check). Run with the snapshots' git directories::

    python -m benchmarks.quality.realblogs /work/.mirror/thestippe+thestippe.github.io/repo ...
    python -m benchmarks.quality.realblogs --mirror /work/.mirror --wrong

``--wrong`` prints what each failing check missed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table, source_page

CHECKS = (
    "headings", "lists", "code", "footer", "plea", "meta",
    "published", "modified", "authors", "title",
)  # fmt: skip


@dataclass(frozen=True)
class Post:
    path: str
    title: str
    #: The day the page shows the post was published (``None``: it shows none).
    published: str | None
    #: The day the page shows the post was updated, if it shows one.
    modified: str | None = None
    #: The readings of the author that count as right (each a list of names).
    authors: tuple[tuple[str, ...], ...] = ((),)


@dataclass(frozen=True)
class Site:
    repo: str
    commit: str
    generator: str
    #: Where the built site is in the repository, and the URL it is served under.
    root: str
    base: str
    #: XPath of the post's body, and of the site's footer.
    content: str
    footer: str
    posts: tuple[Post, ...]
    pleas: tuple[str, ...] = ()
    #: XPath of elements inside the body that are not the post's text (its title,
    #: a date line), left out of the expected lines.
    skip: str = ""
    #: XPath of the post's meta line (its dates, category, counts), scored by ``meta``.
    meta: str = ""
    notes: str = ""

    @property
    def folder(self) -> str:
        return self.repo.replace("/", "+")


SITES: tuple[Site, ...] = (
    Site(
        repo="thestippe/thestippe.github.io",
        commit="5aae6ea7119dbee3f7bf90501d6de94d5c76b0f2",
        generator="Jekyll 3.9 (minima, customised)",
        root="_site",
        base="https://thestippe.github.io/",
        content="//div[contains(@class, 'post-content')]",
        footer="//footer[contains(@class, 'site-footer')]",
        posts=(
            Post(
                "statistics/poisson.html",
                "The Poisson model",
                "2024-07-31",
                authors=(("Data-perspectives",), ("Stippe",)),
            ),
            Post(
                "statistics/negbin.html",
                "The Negative Binomial model",
                "2024-08-07",
                authors=(("Data-perspectives",), ("Stippe",)),
            ),
            Post(
                "statistics/mcmc_intro.html",
                "How does MCMC works",
                "2024-07-10",
                authors=(("Data-perspectives",), ("Stippe",)),
            ),
            Post(
                "dataviz/gestalt.html",
                "The Gestalt principles",
                "2023-10-26",
                authors=(("Data-perspectives",), ("Stippe",)),
            ),
            Post(
                "statistics/regression.html",
                "Introduction to the linear regression",
                "2024-10-16",
                authors=(("Data-perspectives",), ("Stippe",)),
            ),
        ),
        notes="JSON-LD names the site's author; the post ends with the signature 'Stippe'",
    ),
    Site(
        repo="ayushkumarshah/ayushkumarshah.github.io",
        commit="94b6027128b7ab2ba06fe77f11d923b797e19df0",
        generator="Jekyll (academicpages, a Minimal Mistakes fork)",
        root="_site",
        base="https://ayushkumarshah.github.io/",
        content="//section[contains(@class, 'page__content')]",
        footer="//div[contains(@class, 'page__footer')]",
        posts=(
            Post(
                "2020/03/web-pelican-pt1-setup/index.html",
                "Part 1 - Setting up Pelican - Installation and Theme",
                "2020-03-20",
                authors=(("Ayush Kumar Shah",),),
            ),
            Post(
                "2020/03/web-pelican-pt2-markdown/index.html",
                "Part 2 - Writing content using Markdown",
                "2020-03-24",
                authors=(("Ayush Kumar Shah",),),
            ),
            Post(
                "2020/06/pandas-pipe-plotly/index.html",
                "Organize pandas notebook with cool hacks",
                "2020-06-06",
                authors=(("Ayush Kumar Shah",),),
            ),
            Post(
                "2020/08/common-commands/index.html",
                "Common commands",
                "2020-08-12",
                authors=(("Ayush Kumar Shah",),),
            ),
        ),
        notes="no byline in the post: the author's profile card stands in the sidebar "
        "('Ayush Kumar Shah, PhD')",
    ),
    Site(
        repo="0xack13/0xack13blog",
        commit="2ada88bc7d464109a4e5f57507843576b9f66c77",
        generator="Hugo (a Hyde/Poole theme)",
        root="public",
        base="https://dslash.xyz/",
        content="//div[@class='post']",
        footer="//footer",
        skip="./h1[contains(@class, 'post-title')] | ./span[contains(@class, 'post-date')]",
        posts=(
            Post("posts/graph-implementation/index.html", "Graph Implementation", "2019-07-01"),
            Post(
                "posts/dockerizing-aspnet-core-app/index.html",
                "Dockerizing Aspnet Core App",
                "2019-06-26",
            ),
            Post("posts/my-first-post/index.html", "My First Post", "2018-10-24"),
            Post("posts/python-notes/index.html", "Python Notes", "2019-07-01"),
            Post("posts/azure-devops-ssh-tasks/index.html", "Azure Devops Ssh Tasks", "2019-06-26"),
        ),
        notes="the date is a plain <span class=post-date>; <title> ends in ' · ' and no site",
    ),
    Site(
        repo="00derek/blog",
        commit="c5787bd2e757f533a409a9d4ab1a9394e1876971",
        generator="Hugo 0.78 (Anatole)",
        root="public",
        base="https://example.com/",
        content="//div[contains(@class, 'post-content')]",
        footer="//div[contains(@class, 'sidebar')]//div[contains(@class, 'footer')]",
        skip="./div[contains(@class, 'post-title')]",
        posts=(
            Post(
                "posts/dev-env-setup/index.html",
                "Dev Env Setup",
                None,
                authors=(("Derek Chang",), ()),
            ),
        ),
        notes="<title> puts the site's owner first ('Derek Chang | Dev Env Setup'); the "
        "post's title is an <h3 class=post-title>, its sections are <h1>; it shows no date",
    ),
    Site(
        repo="collectifmerinos/collectifmerinos.github.io",
        commit="632099f4b8d02a297ac8f56ea76a0cedc667ec04",
        generator="WordPress 5.9 static export (Twenty Twenty-One)",
        root="",
        base="https://collectifmerinos.github.io/",
        content="//div[contains(@class, 'entry-content')]",
        footer="//footer[@id='colophon']",
        posts=(
            Post(
                "2021/12/07/intensif-welcome/index.html",
                "Intensif Welcome",
                "2021-12-07",
                authors=(("Amédée",),),
            ),
            Post(
                "2022/01/10/echantillons-1/index.html",
                "Échantillons #1",
                "2022-01-10",
                authors=(("Amédée",),),
            ),
            Post(
                "2022/02/08/les-materiaux-de-la-conservation/index.html",
                "« Les matériaux de la conservation »",
                "2022-02-08",
                authors=(("Amédée",),),
            ),
            Post(
                "2022/02/12/nos-outils/index.html",
                "Nos outils",
                "2022-02-12",
                authors=(("Amédée",),),
            ),
            Post(
                "2022/02/13/alexandre-echasseriau/index.html",
                "Alexandre Echasseriau",
                "2022-02-13",
                authors=(("Amédée",),),
            ),
        ),
        notes="French; 'Published <time>février 12, 2022</time> By <a rel=author>Amédée</a>' "
        "in the article's footer",
    ),
    Site(
        repo="jelawless/jelawless.github.io",
        commit="6d3aa8cd1110a28b565df5d382253cfd0720101e",
        generator="Jekyll (Chirpy 6.5)",
        root="_site",
        base="https://jelawless.github.io/",
        content="//article//div[@class='content']",
        footer="//footer[@aria-label='Site Info']",
        posts=(
            Post(
                "posts/Klipper/index.html",
                "Modified Ender 3 with Klipper - 3x Speed Improvement Case Study",
                "2023-05-09",
                "2026-02-21",
                authors=(("John Lawless",),),
            ),
            Post(
                "posts/StreamDeck/index.html",
                "PCB StreamDeck",
                "2024-04-03",
                "2026-02-21",
                authors=(("John Lawless",),),
            ),
        ),
        notes="'Posted <time>May 9, 2023</time>', 'Updated <time>Feb 21, 2026</time>', "
        "'By <em><a>John Lawless</a></em>' under the headline",
    ),
    Site(
        repo="00arthur00/00arthur00.github.io",
        commit="173116ad1ff06737d59e6d463520de8a5f4740c4",
        generator="Hexo (NexT 6.3, Pisces), Chinese",
        root="",
        base="https://00arthur00.github.io/",
        content="//div[contains(@class, 'post-body')]",
        footer="//footer[contains(@class, 'footer')]",
        meta="//div[@class='post-meta']",
        posts=tuple(
            Post(path, title, day, "2019-11-11", authors=(("Arthur",), ()))
            for path, title, day in (
                ("2019/05/16/m3/overview/motivation/index.html", "概览-动机", "2019-05-16"),
                ("2019/10/15/golang/go-scheduler/index.html", "go scheduler", "2019-10-15"),
                (
                    "2018/09/13/golang/golang-file-server/index.html",
                    "golang搭建静态文件服务器",
                    "2018-09-13",
                ),
                (
                    "2019/01/16/designpattern/design-pattern-observer/index.html",
                    "observer观察者模式",
                    "2019-01-16",
                ),
            )
        ),
        notes="'Posted on 2019-05-16 | Edited on 2019-11-11 | In golang | Comments:' under "
        "the headline; the author only in hidden microdata and the sidebar's card",
    ),
)


@dataclass
class Outcome:
    passed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    counted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    wrong: list[str] = field(default_factory=list)
    #: Each post's metadata as read: ``repo path: title | published | modified | authors``.
    values: list[str] = field(default_factory=list)


_SPACE = re.compile(r"\s+")
_MARKER = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _lines(text: str | None) -> set[str]:
    out = set()
    for line in (text or "").split("\n"):
        line = _norm(line)
        out.add(line)
        out.add(_MARKER.sub("", line))
    return out


def expected_lines(root: Any, site: Site) -> dict[str, list[str]]:
    """The headings, list items and code lines of the post's body."""
    found: dict[str, list[str]] = {"headings": [], "lists": [], "code": []}
    bodies = root.xpath(site.content)
    if not bodies:
        return found
    body = bodies[0]
    skipped = set(body.xpath(site.skip)) if site.skip else set()

    def inside_skipped(element: Any) -> bool:
        return any(a in skipped for a in [element, *element.iterancestors()])

    for element in body.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        if inside_skipped(element) or element.xpath("ancestor::figcaption"):
            continue  # a caption's heading is the picture's, not the post's outline
        if text := _norm(element.text_content()):
            found["headings"].append(text)
    for element in body.iter("li"):
        if inside_skipped(element) or element.xpath(".//pre | .//p | .//ul | .//ol"):
            continue  # an item holding blocks is scored by those blocks
        text = _norm(element.text_content())
        if text == _norm(" ".join(element.xpath(".//a//text()"))):
            continue  # a link alone: a table of contents or a series' index, navigation
        if text and len(text) <= 200:
            found["lists"].append(text)
    for element in body.iter("pre"):
        if inside_skipped(element):
            continue
        lines = [n for line in _pre_text(element).split("\n") if (n := _norm(line))]
        if not all(line.isdigit() for line in lines):  # a highlighter's line numbers
            found["code"].extend(lines)
    return found


def _pre_text(pre: Any) -> str:
    """A ``<pre>``'s text, its ``<br>`` line breaks kept (Hexo's highlighter ends each
    line with one)."""
    parts = [pre.text or ""]
    for node in pre:
        if node.tag == "br":
            parts.append("\n")
        elif isinstance(node.tag, str):
            parts.append(_pre_text(node))
        parts.append(node.tail or "")
    return "".join(parts)


def footer_lines(root: Any, site: Site) -> list[str]:
    lines: list[str] = []
    for footer in root.xpath(site.footer):
        for text in footer.itertext():
            if len(text := _norm(text)) >= 15:
                lines.append(text)
    return lines


def _day(value: Any) -> str | None:
    return str(value)[:10] if value else None


def score_post(site: Site, post: Post, html: str, outcome: Outcome) -> None:
    from webrobot.extract.inputs import PageInputs
    from webrobot.extract.metadata import metadata

    page = source_page(site.base + post.path.removesuffix("index.html"), html)
    inputs = PageInputs(page, markdown=True)
    text = inputs.reading.text or ""
    meta = metadata(page, inputs.structured_or_jsonld())
    lines = _lines(text)
    name = f"{site.repo} {post.path}"

    def check(key: str, ok: bool, why: str) -> None:
        outcome.counted[key] += 1
        if ok:
            outcome.passed[key] += 1
        else:
            outcome.wrong.append(f"{name}: {key}: {why}")

    for key, wanted in expected_lines(page.root, site).items():
        if wanted:
            missing = [w for w in wanted if w not in lines]
            check(key, not missing, f"{len(missing)}/{len(wanted)} missing, e.g. {missing[:3]}")
    kept = [line for line in footer_lines(page.root, site) if line in text]
    check("footer", not kept, f"kept {kept[:3]}")
    for element in page.root.xpath(site.meta) if site.meta else []:
        line = _norm(element.text_content())
        check("meta", line not in _norm(text), f"kept {line!r}")
    if site.pleas:
        pleas = [p for p in site.pleas if p.lower() in text.lower()]
        check("plea", not pleas, f"kept {pleas}")
    outcome.values.append(
        f"{name}: {meta['title']!r} | {meta['published']} | {meta['modified']} | {meta['authors']}"
    )
    check("published", _day(meta["published"]) == post.published, f"{meta['published']!r}")
    modified = _day(meta["modified"])
    check(
        "modified",
        modified == post.modified or (post.modified is None and modified in (None, post.published)),
        f"{meta['modified']!r}",
    )
    check("authors", tuple(meta["authors"]) in post.authors, f"{meta['authors']!r}")
    check("title", meta["title"] == post.title, f"{meta['title']!r}")


def read_blob(snapshot: Path, commit: str, name: str) -> str:
    """The file ``name`` at ``commit`` of the git directory ``snapshot``, as text."""
    data = subprocess.run(
        ["git", "--git-dir", str(snapshot), "show", f"{commit}:{name}"],
        check=True,
        capture_output=True,
    ).stdout
    return data.decode("utf-8", "replace")


def score_site(site: Site, snapshot: Path) -> Outcome:
    outcome = Outcome()
    for post in site.posts:
        html = read_blob(snapshot, site.commit, f"{site.root}/{post.path}".lstrip("/"))
        score_post(site, post, html, outcome)
    return outcome


class Snapshotted(Protocol):
    """A site read from a repository's snapshot: its ``owner/name`` and folder name."""

    @property
    def repo(self) -> str: ...

    @property
    def folder(self) -> str: ...


def find_snapshots(
    paths: Iterable[Path], mirror: Path | None, sites: Iterable[Snapshotted] = SITES
) -> dict[str, Path]:
    """The git directory of each of ``sites``' snapshots, by repository: a path given
    whose name holds ``owner+name`` (or whose parent's does), or
    ``<mirror>/owner+name/repo``."""
    found: dict[str, Path] = {}
    for site in sites:
        for path in paths:
            if site.folder in str(path):
                found[site.repo] = path
        if site.repo not in found and mirror is not None:
            candidate = mirror / site.folder / "repo"
            if candidate.is_dir():
                found[site.repo] = candidate
    return found


def table(results: dict[str, Outcome]) -> str:
    rows = []
    for site in SITES:
        if site.repo not in results:
            continue
        outcome = results[site.repo]
        cells = [
            f"{outcome.passed[k]}/{outcome.counted[k]}" if outcome.counted[k] else "-"
            for k in CHECKS
        ]
        rows.append([f"{site.repo} ({site.generator})", *cells])
    return markdown_table(["site", *CHECKS], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshots", nargs="*", type=Path, help="the sites' git directories")
    parser.add_argument("--mirror", type=Path, help="a folder of <owner>+<name>/repo snapshots")
    parser.add_argument("--wrong", action="store_true", help="list each failing check")
    parser.add_argument("--values", action="store_true", help="list each post's metadata as read")
    args = parser.parse_args(argv)
    snapshots = find_snapshots(args.snapshots, args.mirror)
    missing = [s.repo for s in SITES if s.repo not in snapshots]
    if not snapshots:
        parser.error("no snapshot of any site given (paths or --mirror)")
    results = {repo: score_site(next(s for s in SITES if s.repo == repo), path)
               for repo, path in snapshots.items()}  # fmt: skip
    print(table(results))
    if missing:
        print(f"\nnot scored (no snapshot): {', '.join(missing)}")
    for outcome in results.values():
        for line in (outcome.wrong if args.wrong else []) + (outcome.values if args.values else []):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
