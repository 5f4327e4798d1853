"""The full-text index module alone: query translation, updates, ranking, snippets."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from webrobot.searchindex import (
    IndexedPage,
    IndexUnavailable,
    QueryError,
    SearchIndex,
    fts_query,
)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("robot", '"robot"'),
        ("polite robot", '"polite" "robot"'),
        ('"crawl delay" robots', '"crawl delay" "robots"'),
        ("robo*", '"robo"*'),
        ("robots OR spiders", '"robots" OR "spiders"'),
        ("OR robots OR", '"robots"'),
        ("e-mail", '"e-mail"'),
        ('say "hi', '"say" "hi"'),
        ("NEAR(a b) col:x", '"NEAR(a" "b)" "col:x"'),
        ('quote"inside', '"quote""inside"'),
    ],
)
def test_fts_query(query: str, expected: str) -> None:
    assert fts_query(query) == expected


@pytest.mark.parametrize("query", ["", "   ", "***", '""', "OR", "- + ( )"])
def test_empty_queries_are_refused(query: str) -> None:
    with pytest.raises(QueryError):
        fts_query(query)


def page(url: str, title: str, text: str, site: str = "http://a.test:80") -> IndexedPage:
    return IndexedPage(
        url, site, site.split("//")[1].split(":")[0], title, text, "2026-11-24T00:00:00Z", "en"
    )


@pytest.fixture
def index(tmp_path: Path) -> SearchIndex:
    return SearchIndex(tmp_path / "i.sqlite", create=True)


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


def test_control_characters_cannot_forge_highlights(index: SearchIndex) -> None:
    index.put(page("http://a.test/c", "T", "evil \x02fake\x03 mark and word"))
    hit = index.search("word")[0]
    assert hit.highlights() == [
        (hit.plain_snippet().index("word"), hit.plain_snippet().index("word") + 4)
    ]


def test_readers_see_committed_pages_while_the_writer_holds_the_file(tmp_path: Path) -> None:
    writer = SearchIndex(tmp_path / "i.sqlite", create=True, batch=1)
    writer.put(page("http://a.test/1", "One", "visible word"))
    reader = SearchIndex(tmp_path / "i.sqlite")
    assert [h.url for h in reader.search("visible")] == ["http://a.test/1"]
    writer.close()


def test_missing_and_foreign_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(IndexUnavailable, match="no search index"):
        SearchIndex(tmp_path / "none.sqlite")
    (tmp_path / "junk").write_bytes(b"not sqlite" * 200)
    with pytest.raises(IndexUnavailable):
        SearchIndex(tmp_path / "junk")
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.close()
    with pytest.raises(IndexUnavailable, match="not a webrobot search index"):
        SearchIndex(tmp_path / "other.sqlite")
