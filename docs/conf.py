"""Sphinx configuration of webrobot's documentation (Markdown pages through MyST)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webrobot import __version__

project = "webrobot"
author = "webrobot contributors"
copyright = "webrobot contributors"
version = release = __version__

extensions = ["myst_parser", "sphinxcontrib.mermaid"]
#: ```mermaid fences are diagrams (docs/architecture.md), as GitHub shows them too.
myst_fence_as_directive = ["mermaid"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "README.md",
    "benchmarks-table.md",
]  # the table is included by benchmarks.md
myst_heading_anchors = 3

html_theme = "sphinx_rtd_theme"
html_title = f"webrobot {release}"
html_show_sourcelink = False
