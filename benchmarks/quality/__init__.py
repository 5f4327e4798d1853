"""Quality evaluations of the extractors: each scores a public benchmark (read in
place from ``$WEBROBOT_BENCHDATA``, else ``<repo root>/../shared/benchdata``) or the project's own annotated
fixtures with the benchmark's metric, beside the anchors measured in the same
run, and prints the table ``docs/benchmarks.md`` shows. The tests that pin their
floors import the same functions (``tests/test_quality_*.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent
#: The public evaluation data, beside the repository (never copied into it).
BENCHDATA = Path(
    os.environ.get("WEBROBOT_BENCHDATA") or PROJECT_ROOT.parent / "shared" / "benchdata"
)


def source_page(url: str, html: str, headers: dict[str, str] | None = None) -> Any:
    """The page as the crawl hands it to the extractors: the tree is Scrapy's
    selector's own (parsel, lxml's HTML parser), built the same way."""
    from parsel import Selector

    from webrobot.extract.page import SourcePage

    root = Selector(text=html, type="html", base_url=url or None).root
    lowered = {k.lower(): v for k, v in (headers or {}).items()}
    content_type = lowered.get("content-type", "text/html").split(";")[0].strip().lower()
    return SourcePage(url=url, html=html, root=root, headers=lowered, content_type=content_type)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
