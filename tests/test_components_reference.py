"""docs/reference/components.md cannot drift: it is what scripts/components_reference.py
writes from the settings model, its order is the order a real crawler builds, and each
component's declared switch really turns it off (and its "By default" is what a crawler
that sets nothing does)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import build_from_crawler, load_object

from scripts import components_reference
from scripts.settings_reference import cell
from tests.components import enabled_components, webrobot_crawler
from webrobot.settingsmodel.model import BY_NAME, COMPONENTS
from webrobot.settingsmodel.parse import parse

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "components.md"
REGENERATE = "regenerate it with: make settings-reference (python scripts/components_reference.py)"

OURS = [
    (group, path)
    for group, components in COMPONENTS.items()
    for path, component in components.items()
    if component.order is not None
]


def test_the_page_is_what_the_model_makes() -> None:
    import scrapy

    pinned = (ROOT / "requirements.txt").read_text("utf-8")
    if f"scrapy=={scrapy.__version__}\n" not in pinned:
        pytest.skip(f"the page is written from the pinned Scrapy, not {scrapy.__version__}")
    assert PAGE.read_text("utf-8") == components_reference.markdown(), (
        f"{PAGE.relative_to(ROOT)} differs from the settings model: {REGENERATE}"
    )


@pytest.mark.parametrize("group", list(COMPONENTS))
def test_the_page_order_is_the_order_a_crawler_builds(group: str) -> None:
    built = list(enabled_components(group))
    assert [path for path, _, _ in components_reference.merged(group)] == built


def test_every_webrobot_component_is_on_the_page_with_its_own_docstring() -> None:
    page = PAGE.read_text("utf-8")
    for _, path in OURS:
        assert f"| `{path}` | {cell(components_reference.summary(path))} |" in page


def test_a_switch_names_declared_or_scrapy_settings_with_values_they_take() -> None:
    scrapy = components_reference.scrapy_defaults()
    for group, path in OURS:
        for way in COMPONENTS[group][path].off:
            assert way, f"{path}: an empty way off"
            for name, value in way.items():
                if name in BY_NAME:
                    assert parse(BY_NAME[name], value) == value, f"{path}: {name}={value!r}"
                else:
                    assert name in scrapy, f"{path}: {name} is neither declared nor Scrapy's"


def _builds(path: str, **settings: Any) -> bool:
    try:
        build_from_crawler(load_object(path), webrobot_crawler(**settings))
    except NotConfigured:
        return False
    return True


@pytest.mark.parametrize(("group", "path"), OURS, ids=[path.rsplit(".", 1)[1] for _, path in OURS])
def test_each_declared_switch_turns_its_component_off(group: str, path: str) -> None:
    component = COMPONENTS[group][path]
    for way in component.off:
        assert not _builds(path, **way), f"{path} stays on with {way}: declare its real switch"
    defaults = components_reference.crawl_defaults()
    on = components_reference.on_by_default(component.off, defaults)
    assert _builds(path) is on, (
        f"{path} is {'off' if on else 'on'} in a crawl that sets nothing, "
        f"but its declared switch says {'on' if on else 'off'}"
    )
