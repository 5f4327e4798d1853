"""Write docs/reference/settings.md from the settings model (webrobot/settings_model.py).

The same as ``python -m webrobot.settings_model > docs/reference/settings.md``;
tests/test_settings_model.py fails when the page and the model differ.
Run: ``python scripts/settings_reference.py [OUT]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "reference" / "settings.md"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from webrobot.settings_model import markdown

    out = Path(argv[0]) if argv else OUT
    out.write_text(markdown(), "utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
