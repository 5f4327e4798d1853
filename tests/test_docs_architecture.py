"""docs/architecture.md agrees with the code.

A newcomer finds the way through the package by that page: every package has its row
in the table of parts, every crawl-wide module is named, every module the page names
exists, and the floors it lists are the floors the import-graph test enforces.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_import_graph import PURE, SCRAPY_FREE

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "webrobot"
PAGE = ROOT / "docs" / "architecture.md"


def _text() -> str:
    return PAGE.read_text(encoding="utf-8")


def _packages() -> set[str]:
    return {p.parent.name for p in PACKAGE.glob("*/__init__.py")}


def _floor_row(floor: str) -> str:
    for line in _text().splitlines():
        if line.startswith(f"| **{floor}**"):
            return line.split("|")[2]
    raise AssertionError(f"docs/architecture.md has no row for the {floor} floor")


def _modules_named(cell: str) -> set[str]:
    """``webrobot.x.y`` for every `` `x/y` `` (`` `x/y/z` ``) and `` `y` `` a table cell names."""
    named = set()
    for name in re.findall(r"`([a-z_]+(?:/[a-z_]+)*)`", cell):
        named.add("webrobot." + name.replace("/", "."))
    return named


def test_every_package_has_a_row_in_the_table_of_parts() -> None:
    text = _text()
    missing = sorted(p for p in _packages() if f"`webrobot/{p}/`" not in text)
    assert not missing, f"docs/architecture.md: no row for the packages {missing}"


def test_every_crawl_wide_module_is_named() -> None:
    text = _text()
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    missing = [m for m in modules if f"`{m}`" not in text]
    assert not missing, f"docs/architecture.md names no {missing}"


def test_every_module_the_page_names_exists() -> None:
    packages = _packages()
    gone = []
    for part, rest in re.findall(r"\b([a-z_]+)/([a-z_-]+)(?:\.py)?\b", _text()):
        if part not in packages:
            continue
        if not (PACKAGE / part / f"{rest}.py").exists() and not (PACKAGE / part / rest).is_dir():
            gone.append(f"{part}/{rest}")
    assert not gone, f"docs/architecture.md names modules that do not exist: {sorted(set(gone))}"


def test_the_pure_floor_lists_exactly_the_pure_modules() -> None:
    named = _modules_named(_floor_row("pure"))
    assert not PURE - named, f"pure modules the page does not list: {sorted(PURE - named)}"
    assert not named - PURE, f"modules the page calls pure that are not: {sorted(named - PURE)}"


def test_the_scrapy_free_floor_lists_exactly_the_modules_that_load_or_save_files() -> None:
    named = _modules_named(_floor_row("Scrapy-free"))
    files_only = SCRAPY_FREE - PURE
    unlisted, wrong = sorted(files_only - named), sorted(named - files_only)
    assert not unlisted, f"Scrapy-free modules the page does not list: {unlisted}"
    assert not wrong, f"modules the page calls Scrapy-free that are not: {wrong}"
