"""The unseen-site evaluation's own rules (``python -m benchmarks.quality.unseen`` runs it
on the public sets read in place; they are not in the repository, so no floor is pinned
here: the gate stays on the article benchmark, ``tests/test_quality_maintext.py``)."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest

from benchmarks.quality.unseen import Page, f1_of, git_blobs, passage_counts, structure


def test_passages_are_counted_as_trafilaturas_eval_counts_them() -> None:
    page = Page("s", "https://a.example/x", "", None, ["Kept  text", "missing"], ["Menu", "Other"])
    assert passage_counts(page, "Kept text\nand Menu") == (1, 1, 1, 1)
    assert f1_of([page], ["Kept text\nand Menu"]) == pytest.approx(0.5)
    assert f1_of([page], [""]) == 0.0
    assert math.isnan(f1_of([], []))


def test_the_split_is_by_site_and_the_same_every_run() -> None:
    a = Page("s", "https://www.blog.example/one", "")
    b = Page("s", "http://blog.example/two?x=1", "")
    assert a.split == b.split, "one site, one side"
    splits = {Page("s", f"https://site{i}.example/", "").split for i in range(20)}
    assert splits == {"dev", "held"}


def test_a_shingle_scored_set_uses_the_article_benchmarks_metric() -> None:
    page = Page("s", "https://a.example/", "", "a b c d e")
    assert f1_of([page], ["a b c d e"]) == 1.0
    assert 0 < f1_of([page], ["a b c d x"]) < 1


def test_blobs_are_read_from_a_bare_repository_and_absent_ones_left_out(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.txt").write_bytes(b"first\n")
    (work / "b.bin").write_bytes(b"\x00\x01\n\n")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}  # fmt: skip
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(work), *args], check=True, env=env)
    blobs = git_blobs(work / ".git", ["a.txt", "missing.txt", "b.bin"])
    assert blobs == {"a.txt": b"first\n", "b.bin": b"\x00\x01\n\n"}


def test_a_set_is_named_whole_or_by_its_page_type(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.quality import unseen

    pages = [
        Page("wcxb-product", "https://a.example/", ""),
        Page("wcxb-forum", "https://b.example/", ""),
    ]
    monkeypatch.setitem(unseen.SETS, "wcxb", lambda repos: pages)
    assert unseen.load(Path("."), ["wcxb-product"]) == pages[:1]
    assert unseen.load(Path("."), ["wcxb"]) == pages
    assert unseen.load(Path("."), ["wcxb-product", "wcxb-forum"]) == pages


@pytest.mark.parametrize(
    ("html", "built"),
    [
        ("<table><tr><td><font face=arial><b>News</b><br>Text</font></td></tr></table>", "legacy"),
        ("<div id='header'><center>Portal</center></div><div class='main'>Text</div>", "legacy"),
        ("<HTML><BODY><P>Text<!-- a note --></BODY></HTML>", "legacy"),
        ("<div><headline>x</headline><mainmenu>y</mainmenu><navigation/></div>", "legacy"),
        ("<body><ARTICLE class='post'>Text</ARTICLE></body>", "modern"),
        ("<table><tr><td><nav>Menu</nav>Text</td></tr></table>", "modern"),
        ("<main>Text</main>", "modern"),
        ("<header\n class='top'>Site</header><p>Text</p>", "modern"),
        ("<section/>", "modern"),
        ('<script type="application/ld+json">{"@type": "NewsArticle"}</script><p>x</p>', "modern"),
    ],
)
def test_a_page_is_legacy_without_html5_sectioning_or_json_ld(html: str, built: str) -> None:
    assert structure(html) == built


TRUTH = "the text of the page in a few words"


def test_the_structure_filter_keeps_the_pages_built_that_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.quality import unseen

    pages = [
        Page("wcxb-article", "https://a.example/", "<table><tr><td>x</td></tr></table>", TRUTH),
        Page("wcxb-article", "https://b.example/", "<article>x</article>", TRUTH),
    ]
    monkeypatch.setitem(unseen.SETS, "wcxb", lambda repos: pages)
    seen: list[str] = []
    monkeypatch.setattr(unseen, "extractor", lambda name: lambda html: seen.append(html) or TRUTH)
    assert (
        unseen.main(["--sets", "wcxb-article", "--extractors", "x", "--structure", "legacy"]) == 0
    )
    assert seen == [pages[0].html]
    assert "1 pages built legacy" in capsys.readouterr().out
