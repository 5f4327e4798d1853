"""The table of mining parts (webrobot.extract.parts.PARTS): every part declared once,
a new part added by one entry and one module, the monitor's parts asked through the
add-on whatever order the components are built in."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy.utils.test import get_crawler

import webrobot
from webrobot.extract.middleware import ExtractMiddleware
from webrobot.extract.parts import BY_NAME, PARTS, monitored_keys, monitored_parts

PACKAGE = Path(webrobot.__file__).parent
NAMES = frozenset(BY_NAME)


def literal_part_lists(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """Each tuple, list or set literal naming two or more mining parts or their item
    keys: a list of parts written out of the table."""
    words = NAMES | set(monitored_keys()) | {p.item_key for p in PARTS if p.item_key}
    found = []
    for node in ast.walk(tree):
        elements: list[ast.expr | None] = []
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            elements = list(node.elts)
        named = [
            e.value for e in elements
            if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in words
        ]  # fmt: skip
        if len(named) >= 2:
            found.append((node.lineno, named))
    return found


def test_no_list_of_mining_parts_outside_the_table() -> None:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "extract" / "parts.py":
            continue
        for line, named in literal_part_lists(ast.parse(path.read_text(encoding="utf-8"))):
            problems.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {named}")
    assert not problems, "parts listed outside webrobot/extract/parts.py:\n" + "\n".join(problems)


def test_the_check_finds_a_list_written_out() -> None:
    tree = ast.parse('KEYS = ("main_text", "metadata", "url")\nONE = ("text",)\n')
    assert literal_part_lists(tree) == [(1, ["main_text", "metadata"])]


def test_every_part_names_its_key_function_and_extra() -> None:
    for part in PARTS:
        assert callable(part.run) and part.summary, part.name
        assert part.extra in (None, "mining", "documents", "images"), part.name
    keys = [p.item_key for p in PARTS if p.item_key is not None]
    assert len(keys) == len(set(keys)), "one item key per part"
    from webrobot.extract.item import MINED_FIELDS, MinedPageItem

    assert MINED_FIELDS == tuple(keys)
    assert set(keys) <= set(MinedPageItem.__dataclass_fields__)


def test_the_monitor_compares_what_the_table_says() -> None:
    assert monitored_parts(fetched=False) == {"text", "metadata", "product", "fields"}
    assert monitored_parts(fetched=True) == {"text", "metadata", "product", "fields", "images"}


#: A new part: its module, and the one entry that puts it in the table.
NEW_MODULE = '''
"""How many words a page's visible text has."""

from webrobot.extract.page import SourcePage


def word_count(page: SourcePage) -> int:
    return len(page.root.text_content().split()) if page.root is not None else 0
'''
NEW_ENTRY = """    Part("word_count", "word_count", lambda inputs: word_count(inputs.page),
         monitored=True, summary="how many words the page has"),
"""
TRY_IT = """
import asyncio, json
import scrapy
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler
from webrobot.extract.middleware import ExtractMiddleware
from webrobot.items import PageItem

crawler = get_crawler(scrapy.Spider, settings_dict={"WEBROBOT_EXTRACT": "word_count"})
crawler.stats.open_spider()
middleware = ExtractMiddleware.from_crawler(crawler)
body = b"<html><body><p>one two three four</p></body></html>"
response = HtmlResponse("http://site.test/", body=body, request=Request("http://site.test/"))
item = PageItem("http://site.test/", 200, 0, None, "2026-01-01T00:00:00Z", "text/html", None, "0" * 32)

async def produce():
    yield item

async def consume():
    return [o async for o in middleware.process_spider_output(response, produce())]

(mined,) = asyncio.run(consume())
from webrobot.extract.parts import monitored_keys
print(json.dumps({
    "class": type(mined).__name__,
    "word_count": mined.word_count,
    "found": crawler.stats.get_value("webrobot/extract/word_count/found"),
    "monitored": "word_count" in monitored_keys(),
}))
"""


def test_a_new_part_is_one_entry_and_one_module(tmp_path: Path) -> None:
    copy = tmp_path / "webrobot"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "demo"))
    shutil.copytree(PACKAGE / "demo", copy / "demo", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "extract" / "wordcount.py").write_text(NEW_MODULE, encoding="utf-8")
    table = (copy / "extract" / "parts.py").read_text(encoding="utf-8")
    end = table.index(")  # fmt: skip", table.index("PARTS: tuple[Part, ...] = ("))
    imports = "from webrobot.extract.wordcount import word_count\n"
    table = table[:end] + NEW_ENTRY + table[end:]
    table = table.replace("from webrobot.extract.product import product\n",
                          "from webrobot.extract.product import product\n" + imports)  # fmt: skip
    (copy / "extract" / "parts.py").write_text(table, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(TRY_IT)], check=False, capture_output=True,
        text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"class": "MinedPageItem", "word_count": 4, "found": 1, "monitored": True}


def _monitor_settings(tmp_path: Path) -> dict[str, Any]:
    return {
        "ADDONS": {"webrobot.Addon": 0},
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "watch"),
        "WEBROBOT_EXTRACT": [],
    }


@pytest.mark.parametrize("order", ["as Scrapy builds them", "reversed"])
def test_the_monitor_gets_its_parts_in_any_build_order(tmp_path: Path, order: str) -> None:
    crawler = get_crawler(scrapy.Spider, settings_dict=_monitor_settings(tmp_path))
    crawler.spider = crawler._create_spider("s")
    crawler.stats.open_spider()
    middlewares = crawler.settings.getdict("SPIDER_MIDDLEWARES")
    paths = sorted((p for p, o in middlewares.items() if o is not None), key=middlewares.get)
    if order == "reversed":
        paths.reverse()
    built: dict[str, Any] = {}
    for path in paths:
        try:
            built[path] = build_from_crawler(load_object(path), crawler)
        except NotConfigured:
            continue
    extract = built["webrobot.extract.middleware.ExtractMiddleware"]
    assert "webrobot.monitor.middleware.MonitorMiddleware" in built
    assert isinstance(extract, ExtractMiddleware)
    # No fields declared: nothing the fields part could read.
    assert extract.parts == monitored_parts(fetched=False) - {"fields"}


def test_the_mining_page_lists_the_table() -> None:
    """Regenerate with: make settings-reference (scripts/parts_reference.py)."""
    from scripts.parts_reference import PAGE, with_table

    page = PAGE.read_text("utf-8")
    assert page == with_table(page)
    for part in PARTS:
        assert f"| `{part.name}` |" in page
