"""Write docs/reference/components.md: every downloader middleware, spider middleware, item
pipeline and extension of a webrobot crawl, in the order Scrapy runs them, from the
components the add-on enables (``COMPONENTS`` in webrobot/settingsmodel/model.py, each with the
settings that turn it off) merged with Scrapy's own (the installed Scrapy's ``*_BASE``).

tests/test_components_reference.py fails when the page and the model differ;
tests/test_component_order.py says why each order is what it is.
Run: ``python scripts/components_reference.py [OUT]`` (``make settings-reference`` and
scripts/settings_reference.py write it too).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reference" / "components.md"

#: Each Scrapy component setting, its title and how Scrapy runs it.
GROUPS = {
    "DOWNLOADER_MIDDLEWARES": (
        "Downloader middlewares",
        (
            "A request goes down the table on its way to the download (`process_request`, lowest "
            "order first); the response comes back up (`process_response`, highest order first). "
            "A middleware that refuses a request spares every one below it."
        ),
    ),
    "SPIDER_MIDDLEWARES": (
        "Spider middlewares",
        (
            "A response goes down the table on its way to the callback (`process_spider_input`, "
            "lowest order first); what the callback yields comes back up (`process_spider_output`, "
            "highest order first): the middleware with the highest order sees a page's links and "
            "items first."
        ),
    ),
    "ITEM_PIPELINES": (
        "Item pipelines",
        (
            "An item goes down the table, lowest order first; a pipeline that drops it spares every "
            "one below it."
        ),
    ),
    "EXTENSIONS": (
        "Extensions",
        (
            "Built in this order, lowest first, when the crawl starts, so that their handlers of one "
            "signal run in this order too."
        ),
    ),
}


def scrapy_defaults() -> dict[str, Any]:
    """The installed Scrapy's defaults."""
    from scripts.settings_reference import scrapy_defaults as installed

    return installed()


def crawl_defaults() -> dict[str, Any]:
    """Every setting's value in a crawl that sets nothing itself: Scrapy's defaults, the
    project's ``webrobot/settings.py``, and the add-on's declared defaults."""
    import webrobot.settings
    from webrobot.settingsmodel.model import SETTINGS

    project = {name: getattr(webrobot.settings, name) for name in vars(webrobot.settings)}
    return {
        **scrapy_defaults(),
        **{name: value for name, value in project.items() if name.isupper()},
        **{setting.name: setting.default for setting in SETTINGS},
    }


def on_by_default(off: tuple[dict[str, Any], ...], defaults: dict[str, Any]) -> bool:
    """False when one of the component's ways off is already what the defaults say."""
    return not any(all(defaults.get(k) == v for k, v in way.items()) for way in off)


def merged(group: str) -> list[tuple[str, int, bool]]:
    """``(path, order, is webrobot's)`` of every component of ``group`` a crawl with the
    add-on enables, in Scrapy's order (ties keep Scrapy's own first, as Scrapy merges them)."""
    from webrobot.addon import IMPORTED_ONLY_WHEN_ON
    from webrobot.settingsmodel.model import COMPONENTS

    ours = {path: c.order for path, c in COMPONENTS[group].items()}
    base = dict(scrapy_defaults()[f"{group}_BASE"])
    defaults = crawl_defaults()
    for path, switch in IMPORTED_ONLY_WHEN_ON.items():  # left out of the base list while off
        if not defaults.get(switch):
            base.pop(path, None)
    everything = {**base, **ours}
    listed = [(path, order) for path, order in everything.items() if order is not None]
    return [(path, order, path in ours) for path, order in sorted(listed, key=lambda po: po[1])]


def summary(path: str) -> str:
    """The first paragraph of a webrobot component's own docstring, on one line (its
    reStructuredText ``code`` as Markdown `code`)."""
    from scrapy.utils.misc import load_object

    cls = load_object(path)
    own = cls.__dict__.get("__doc__")
    if not own:
        raise ValueError(f"{path} has no docstring of its own: say in one line what it does")
    return " ".join(inspect.cleandoc(own).split("\n\n")[0].split()).replace("``", "`")


def _code(name: str, value: Any) -> str:
    return f"`{name} = {value!r}`"


def switch(off: tuple[dict[str, Any], ...]) -> str:
    """The settings that turn a component off, as a table cell."""
    if not off:
        return "none: on while listed"
    ways = [" with ".join(_code(k, v) for k, v in way.items()) for way in off]
    return ", or ".join(ways)


def markdown() -> str:
    """The components reference page."""
    from scripts.settings_reference import cell
    from webrobot.settingsmodel.model import COMPONENTS, REPLACED

    defaults = crawl_defaults()
    lines = [
        "# Components reference",
        "",
        "<!-- Generated by `make settings-reference` (python scripts/components_reference.py);",
        "     tests/test_components_reference.py fails when this page and the settings model differ. -->",
        "",
        "Every downloader middleware, spider middleware, item pipeline and extension of a",
        "crawl with `webrobot.Addon`, in the order Scrapy runs them: webrobot's own, as the",
        "add-on enables them (`COMPONENTS` in `webrobot/settingsmodel/model.py`), among Scrapy's",
        "(*Scrapy*). *Off with* names the settings that turn a webrobot component off (any one",
        "of them; *with* joins values that turn it off together); *By default* is its state in",
        "a crawl that sets none of them. A project keeps its own order for a component it lists",
        "itself, and removes one with `None`.",
        "",
        "Why each component sits where it does is stated, one rule per test, in",
        "`tests/test_component_order.py`.",
        "",
    ]
    for group, (title, how) in GROUPS.items():
        lines += [
            f"## {title}",
            "",
            f"`{group}`. {how}",
            "",
            "| Order | Component | What it does | Off with | By default |",
            "| --- | --- | --- | --- | --- |",
        ]
        for path, order, ours in merged(group):
            if ours:
                component = COMPONENTS[group][path]
                state = "on" if on_by_default(component.off, defaults) else "off"
                lines.append(
                    f"| {order} | `{path}` | {cell(summary(path))} | {switch(component.off)} "
                    f"| {state} |"
                )
            else:
                lines.append(
                    f"| {order} | `{path}` *Scrapy* | Scrapy's own | Scrapy's settings | |"
                )
        lines.append("")
    from webrobot.distributed.addon import RECLAIMED_PAGE_LINKS_ORDER

    shared = "webrobot.distributed.lineage.ReclaimedPageLinks"
    lines += [
        "## Added by a shared crawl",
        "",
        "With `WEBROBOT_REDIS_URL` set, `RedisCrawl` (`webrobot/distributed/addon.py`) adds:",
        "",
        "| Order | Component | Setting | What it does | Off with |",
        "| --- | --- | --- | --- | --- |",
        (
            f"| {RECLAIMED_PAGE_LINKS_ORDER} | `{shared}` | `SPIDER_MIDDLEWARES` "
            f"| {cell(summary(shared))} | {switch(({'WEBROBOT_REDIS_URL': ''},))} |"
        ),
        "",
        "## Scrapy components the add-on switches off",
        "",
        "| Component | Setting | Because |",
        "| --- | --- | --- |",
    ]
    for group, components in COMPONENTS.items():
        for path, component in components.items():
            if component.order is None:
                lines.append(f"| `{path}` | `{group}` | {cell(REPLACED[path])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    out = Path(argv[0]) if argv else OUT
    out.write_text(markdown(), "utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
