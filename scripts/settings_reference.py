"""Write docs/reference/settings.md from the settings model (webrobot/settings_model.py),
the tables of the Scrapy defaults the add-on changes in docs/addon.md, and
docs/reference/components.md (scripts/components_reference.py).

The first is the same as ``python -m webrobot.settings_reference > docs/reference/settings.md``;
the second compares the model with the installed Scrapy's ``default_settings``.
tests/test_settings_model.py fails when either page and the model differ.
Run: ``python scripts/settings_reference.py [OUT]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reference" / "settings.md"
ADDON_PAGE = ROOT / "docs" / "addon.md"
START, END = "<!-- scrapy-changes:start", "<!-- scrapy-changes:end -->"


def scrapy_defaults() -> dict[str, object]:
    """The installed Scrapy's defaults."""
    from scrapy.settings import default_settings

    return {
        name: getattr(default_settings, name) for name in dir(default_settings) if name.isupper()
    }


def with_scrapy_changes(page: str, table: str) -> str:
    """``page`` with ``table`` between its scrapy-changes markers (the start marker's
    comment ends its line)."""
    head, start, rest = page.partition(START)
    comment, _, rest = rest.partition("-->\n")
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"{ADDON_PAGE}: the scrapy-changes markers are missing")
    return f"{head}{start}{comment}-->\n{table}{end}{tail}"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from webrobot.settings_reference import markdown, scrapy_changes

    out = Path(argv[0]) if argv else OUT
    out.write_text(markdown(), "utf-8")
    print(f"wrote {out}")
    page = ADDON_PAGE.read_text("utf-8")
    ADDON_PAGE.write_text(with_scrapy_changes(page, scrapy_changes(scrapy_defaults())), "utf-8")
    print(f"wrote {ADDON_PAGE} (Scrapy defaults the add-on changes)")
    # The components and their order are declared in the same model.
    from scripts import components_reference

    return components_reference.main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
