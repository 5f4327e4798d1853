"""The full-text index module alone: query translation, updates, ranking, snippets."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from webrobot.search.index import IndexedPage, IndexUnavailable, SearchIndex
from webrobot.search.query import QueryError, Term, parse_query

W, P, X = "word", "phrase", "prefix"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("robot", [[Term(W, "robot")]]),
        ("polite robot", [[Term(W, "polite"), Term(W, "robot")]]),
        ('"crawl delay" robots', [[Term(P, "crawl delay"), Term(W, "robots")]]),
        ("robo*", [[Term(X, "robo")]]),
        ("robots OR spiders", [[Term(W, "robots")], [Term(W, "spiders")]]),
        ("a b OR c", [[Term(W, "a"), Term(W, "b")], [Term(W, "c")]]),
        ("OR robots OR", [[Term(W, "robots")]]),
        ("e-mail", [[Term(W, "e-mail")]]),
        ('say "hi', [[Term(W, "say"), Term(P, "hi")]]),
        ("NEAR(a b) col:x", [[Term(W, "NEAR(a"), Term(W, "b)"), Term(W, "col:x")]]),
    ],
)
def test_parse_query(query: str, expected: list[list[Term]]) -> None:
    assert parse_query(query) == expected


@pytest.mark.parametrize("query", ["", "   ", "***", '""', "OR", "- + ( )"])
def test_empty_queries_are_refused(query: str) -> None:
    with pytest.raises(QueryError):
        parse_query(query)


def page(url: str, title: str, text: str, site: str = "http://a.test:80") -> IndexedPage:
    return IndexedPage(
        url, site, site.split("//")[1].split(":")[0], title, text, "2026-11-24T00:00:00Z", "en"
    )


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    return SearchIndex(tmp_path / "i", create=True)


def test_add_update_remove(index: SearchIndex) -> None:
    assert index.put(page("http://a.test/1", "One", "old words here")) == "added"
    assert [h.url for h in index.search("old")] == ["http://a.test/1"]
    assert index.put(page("http://a.test/1", "One", "new words here")) == "updated"
    assert index.search("old") == []
    assert [h.url for h in index.search("new")] == ["http://a.test/1"]
    assert len(index) == 1
    assert index.remove("http://a.test/1") is True
    assert index.remove("http://a.test/1") is False
    assert index.search("new") == [] and len(index) == 0


def test_ranking_title_counts_more_and_snippets_mark_matches(index: SearchIndex) -> None:
    index.put(
        page(
            "http://a.test/body",
            "Something else",
            "a page that mentions gardens once among many words",
        )
    )
    index.put(
        page(
            "http://a.test/title",
            "Gardens",
            "a page about plants, with many more words in its text",
        )
    )
    hits = index.search("gardens")
    assert [h.url for h in hits] == ["http://a.test/title", "http://a.test/body"]
    body = hits[1]
    start, end = body.highlights()[0]
    assert body.plain_snippet()[start:end] == "gardens"
    assert ("gardens", True) in list(body.snippet_parts())


def test_site_filter_by_site_key_or_host(index: SearchIndex) -> None:
    index.put(page("http://a.test/x", "A", "shared word", site="http://a.test:80"))
    index.put(page("http://b.test:8080/x", "B", "shared word", site="http://b.test:8080"))
    assert [h.url for h in index.search("shared", site="http://b.test:8080")] == [
        "http://b.test:8080/x"
    ]
    assert [h.url for h in index.search("shared", site="a.test")] == ["http://a.test/x"]
    assert len(index.search("shared", limit=1)) == 1
    # Without a scheme, and without the default port: what a person types.
    assert [h.url for h in index.search("shared", site="b.test:8080")] == ["http://b.test:8080/x"]
    assert [h.url for h in index.search("shared", site="http://a.test/")] == ["http://a.test/x"]
    assert index.search("shared", site="b.test:9090") == []


def test_control_characters_cannot_forge_highlights(index: SearchIndex) -> None:
    index.put(page("http://a.test/c", "T", "evil \x02fake\x03 mark and word"))
    hit = index.search("word")[0]
    assert hit.highlights() == [
        (hit.plain_snippet().index("word"), hit.plain_snippet().index("word") + 4)
    ]


def test_readers_see_committed_pages_while_the_writer_holds_the_file(tmp_path: Path) -> None:
    writer = SearchIndex(tmp_path / "i", create=True, batch=1)
    writer.put(page("http://a.test/1", "One", "visible word"))
    reader = SearchIndex(tmp_path / "i")
    assert [h.url for h in reader.search("visible")] == ["http://a.test/1"]
    writer.close()


def test_missing_and_foreign_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(IndexUnavailable, match="no search index"):
        SearchIndex(tmp_path / "none")
    (tmp_path / "junk").write_bytes(b"not an index" * 200)
    with pytest.raises(IndexUnavailable, match="a file, not a webrobot search index"):
        SearchIndex(tmp_path / "junk")
    with pytest.raises(IndexUnavailable, match="a file"):
        SearchIndex(tmp_path / "junk", create=True)  # never overwritten
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "notes.txt").write_text("mine")
    with pytest.raises(IndexUnavailable, match="not a webrobot search index"):
        SearchIndex(tmp_path / "folder", create=True)
    assert (tmp_path / "folder" / "notes.txt").read_text() == "mine"
    old = sqlite3.connect(tmp_path / "old.sqlite")
    old.execute("CREATE TABLE t (x)")
    old.close()
    with pytest.raises(IndexUnavailable, match="older webrobot"):
        SearchIndex(tmp_path / "old.sqlite")


def test_a_creation_cut_short_does_not_block_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crawl killed after tantivy made its files and before webrobot's marker was
    written: the next run creates the index, it does not refuse a half-made one."""
    import webrobot.search.index as index_module

    def killed(*args: object, **kwargs: object) -> str:
        raise SystemExit("killed")  # stands for the SIGKILL

    path = tmp_path / "items.index"
    with monkeypatch.context() as patch:
        patch.setattr(index_module.json, "dumps", killed)
        with pytest.raises(SystemExit):
            SearchIndex(path, create=True)
    again = SearchIndex(path, create=True, batch=1)
    again.put(page("http://a.test/1", "One", "word"))
    again.close()
    assert [h.url for h in SearchIndex(path).search("word")] == ["http://a.test/1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.index"]


def test_phrase_prefix_accents_and_or(index: SearchIndex) -> None:
    index.put(
        page("http://a.test/1", "Crème brûlée", "red apple green banana, later a green apple")
    )
    index.put(page("http://a.test/2", "Robots", "the robotic e-mail robots"))
    index.commit()
    assert [h.url for h in index.search('"green apple"')] == ["http://a.test/1"]
    assert index.search('"apple red"') == []
    assert [h.url for h in index.search("creme")] == ["http://a.test/1"]
    assert [h.url for h in index.search("robo*")] == ["http://a.test/2"]
    assert index.search("robo*")[0].highlights()  # a prefix match is highlighted too
    assert [h.url for h in index.search("e-mail")] == ["http://a.test/2"]
    assert {h.url for h in index.search("banana OR robotic")} == {
        "http://a.test/1",
        "http://a.test/2",
    }
    assert index.search("banana robotic") == []
    hit = index.search("banana")[0]
    assert (hit.title, hit.lang, hit.fetched_at) == ("Crème brûlée", "en", "2026-11-24T00:00:00Z")


SECOND_WRITER = """
import sys
from webrobot.search.index import SearchIndex
try:
    SearchIndex(sys.argv[1], create=True)
except Exception as exc:
    print(exc)
"""


def test_one_writer_at_a_time_in_any_process(tmp_path: Path) -> None:
    writer = SearchIndex(tmp_path / "i", create=True)
    other = subprocess.run(
        [sys.executable, "-c", SECOND_WRITER, str(tmp_path / "i")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "being written by another process" in other.stdout, other.stderr
    writer.close()
    SearchIndex(tmp_path / "i", create=True).close()  # the lock went with the writer


CONCURRENT_WRITER = """
import sys
from webrobot.search.index import IndexedPage, SearchIndex
index = SearchIndex(sys.argv[1], create=True, batch=50)
print("open", flush=True)
for n in range(3000):
    index.put(IndexedPage(f"http://a.test/{n}", "http://a.test:80", "a.test", f"Page {n}",
                          f"common words page{n} " * 20, "2026-11-24T00:00:00Z"))
index.close()
"""


def test_readers_in_another_process_while_the_writer_commits_and_merges(tmp_path: Path) -> None:
    """The crawl's index process commits every few pages while tantivy merges and
    deletes old segments; a reader in another process keeps searching meanwhile
    and never fails, and never sees fewer pages than before."""
    writer = subprocess.Popen(
        [sys.executable, "-c", CONCURRENT_WRITER, str(tmp_path / "i")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert writer.stdout is not None and writer.stdout.readline().strip() == "open"
    reader = SearchIndex(tmp_path / "i")
    seen, searches = 0, 0
    while writer.poll() is None or searches == 0:
        now = len(reader)
        assert now >= seen
        seen = now
        hits = reader.search("common", limit=5)  # a commit may come in between: not fewer
        assert min(5, now) <= len(hits) <= 5
        searches += 1
    writer.stdout.close()
    assert writer.returncode == 0
    assert len(reader) == 3000 and searches > 10
    assert [h.url for h in reader.search("page2999")] == ["http://a.test/2999"]
