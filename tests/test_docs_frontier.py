"""The frontier's docs pages name every setting (of the settings model) and stats key they
document as the code has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webrobot.settingsmodel.model import BY_NAME

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {
    "url-templates.md": "WEBROBOT_TEMPLATE_",
    "sitemaps.md": "WEBROBOT_SITEMAP",
    "priorities.md": "WEBROBOT_PRIORITIES_",
    "freshness.md": "WEBROBOT_RECRAWL_",
    "identity.md": "WEBROBOT_CONTACT_",
    "rendering.md": "WEBROBOT_RENDER",
}
EXTRA = {"freshness.md": ["WEBROBOT_FRESHNESS_DB"], "identity.md": ["WEBROBOT_FROM"],
         "rendering.md": ["WEBROBOT_BROWSER_PATH"], "priorities.md": ["WEBROBOT_SITEMAP_PRIORITY_WEIGHT"]}  # fmt: skip


@pytest.mark.parametrize("page", sorted(PAGES))
def test_page_documents_every_setting_of_its_capability(page: str) -> None:
    text = (DOCS / page).read_text("utf-8")
    names = [n for n in BY_NAME if n.startswith(PAGES[page])] + EXTRA.get(page, [])
    if page == "sitemaps.md":
        names.remove("WEBROBOT_SITEMAP_PRIORITY_WEIGHT")  # documented with priorities
    assert names
    for name in names:
        assert f"`{name}`" in text, f"{page} does not document {name}"


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_setting_a_page_names_exists(page: str) -> None:
    text = (DOCS / page).read_text("utf-8")
    for name in set(re.findall(r"`(WEBROBOT_[A-Z_]+)`", text)):
        assert name in BY_NAME, f"{page} names {name}, which is no setting"
