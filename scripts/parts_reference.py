"""Write the table of mining parts on docs/mining.md from the table the crawl uses
(:data:`webrobot.extract.parts.PARTS`), between its ``mining-parts`` markers.

Run by ``make settings-reference``; ``tests/test_extract_table.py`` checks the page
against the table.
"""

from __future__ import annotations

import sys
from pathlib import Path

from webrobot.extract.parts import PARTS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "mining.md"
START = "<!-- mining-parts:start"
END = "<!-- mining-parts:end -->"


def table() -> str:
    """The Markdown table of every part, in the order items list their keys."""
    rows = [
        "| part | item field | extra | watched | what it gives |",
        "| --- | --- | --- | --- | --- |",
    ]
    for part in PARTS:
        key = f"`{part.item_key}`" if part.item_key else "`main_text`, `metadata`"
        extra = f"`{part.extra}`" if part.extra else ""
        rows.append(
            f"| `{part.name}` | {key} | {extra} | {'yes' if part.monitored else ''} "
            f"| {part.summary} |"
        )
    return "\n".join(rows) + "\n"


def with_table(page: str) -> str:
    """``page`` with the generated table between its markers."""
    head, start, rest = page.partition(START)
    comment, _, rest = rest.partition("-->\n")
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"{PAGE}: the mining-parts markers are missing")
    return f"{head}{start}{comment}-->\n{table()}{end}{tail}"


def main(argv: list[str]) -> int:
    PAGE.write_text(with_table(PAGE.read_text("utf-8")), "utf-8")
    print(f"wrote {PAGE} (the table of mining parts)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
