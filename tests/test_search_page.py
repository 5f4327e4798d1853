"""``scrapy search --serve``: the search page in headless Chromium, and over plain HTTP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser import render_url
from tests.crawling import PROJECT_ROOT
from webrobot.search.index import IndexedPage, SearchIndex

pytestmark = pytest.mark.slow

EVIL_TITLE = (
    "<script>document.title='owned'</script><img src=http://example.invalid/x.png> Evil & co"
)


def page(n: int, title: str, text: str) -> IndexedPage:
    return IndexedPage(url=f"http://127.0.0.1:9/p{n}", site="http://127.0.0.1:9", host="127.0.0.1",
                       title=title, text=text, fetched_at="2026-11-24T10:00:00Z", lang="en")  # fmt: skip


@pytest.fixture(scope="module")  # read only: both tests ask the same server
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = tmp_path_factory.mktemp("search") / "index"
    index = SearchIndex(path, create=True)
    index.put(
        page(1, "Lighthouse keepers", "The lighthouse keeper wrote a long logbook about storms.")
    )
    index.put(page(2, "Harbour news", "Boats in the harbour; no lighthouse mentioned twice here."))
    index.put(
        page(3, EVIL_TITLE, "A wombat <b>bold</b> attempt </p><script>alert(1)</script> wombat")
    )
    index.close()
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "search", "--serve", "--port", "0", "--index", str(path)],
        cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "Serving search of" in line, line + (
            proc.stderr.read() if proc.poll() is not None else ""
        )
        url = line.split(" on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        yield url
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_page_in_chromium(served: str, tmp_path: Path) -> None:
    shot = tmp_path / "search.png"
    rendered = render_url(served + "?q=" + quote("lighthouse"), shot)
    dom = rendered.dom
    assert '<ol id="results"' in dom
    assert dom.index("Lighthouse keepers") < dom.index("Harbour news")  # the title counts more
    assert "<mark>lighthouse</mark>" in dom.lower()
    assert "2 results" in dom
    assert rendered.requests == []  # nothing loaded from anywhere else
    assert not [line for line in rendered.console if "Content Security Policy" not in line], (
        rendered.console
    )
    assert shot.exists() and shot.stat().st_size > 5000

    evil = render_url(served + "?q=wombat", tmp_path / "evil.png")
    assert "<title>wombat – webrobot search</title>" in evil.dom  # the page's script did not run
    assert "&lt;script&gt;document.title" in evil.dom
    assert "<script>" not in evil.dom.split("<body>", 1)[1]
    assert evil.requests == []  # the <img> in the title is text, not an image


def test_page_over_http(served: str) -> None:
    with urllib.request.urlopen(served + "?q=" + quote("wombat"), timeout=10) as reply:
        html = reply.read().decode()
        assert "default-src 'none'" in reply.headers["Content-Security-Policy"]
    assert "&lt;script&gt;document.title=&#39;owned&#39;&lt;/script&gt;" in html
    assert "&lt;img src=http://example.invalid/x.png&gt;" in html
    assert "<script" not in html
    # no resource and no link but the form's own action and the hit's URL
    assert set(re.findall(r'\b(?:src|href|action)="([^"]*)"', html)) == {
        "/",
        "http://127.0.0.1:9/p3",
    }

    with urllib.request.urlopen(served + "?q=" + quote('"keeper wrote"'), timeout=10) as reply:
        assert "Lighthouse keepers" in reply.read().decode()
    with urllib.request.urlopen(served + "?q=" + quote("***"), timeout=10) as reply:
        assert "no word to search for" in reply.read().decode()
    with urllib.request.urlopen(
        served + "?q=lighth*&site=" + quote("http://127.0.0.1:9"), timeout=10
    ) as reply:
        assert "2 results" in reply.read().decode()
    with urllib.request.urlopen(served + "?q=lighthouse&site=other.example", timeout=10) as reply:
        assert "No page matches." in reply.read().decode()
