"""``webrobot search ...`` (the console script) and ``python -m webrobot search ...``:
webrobot's commands wherever the crawl's output is, not only in a Scrapy project.

``scrapy search`` is a Scrapy command of the webrobot project
(``COMMANDS_MODULE``): Scrapy knows it only in a project folder, so from the
crawl's output folder it said "Unknown command". Here the command runs with the
settings of the project of the current folder, if there is one (its
``WEBROBOT_INDEX``), else Scrapy's defaults, and webrobot's commands. Without
``--index`` or ``WEBROBOT_INDEX`` the index is ``webrobot-index`` in the current
folder, else the one ``*.index`` folder there (``-O items.jsonl`` puts it at
``items.index``).
"""

from __future__ import annotations

import sys

#: Commands this entry point runs (webrobot/commands/<name>.py).
COMMANDS = ("search",)
USAGE = (
    "usage: webrobot search [--index PATH] [--site SITE] [--limit N] [--json] QUERY... | --serve"
)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] not in COMMANDS:
        print(
            f"webrobot: unknown command {args[0]!r} (commands: {', '.join(COMMANDS)})",
            file=sys.stderr,
        )
        print(USAGE, file=sys.stderr)
        return 2
    from scrapy.cmdline import execute
    from scrapy.utils.project import get_project_settings

    from webrobot import commands

    commands.PROGRAM = "webrobot"  # messages and usage lines say "webrobot search"

    settings = get_project_settings()
    settings.set("COMMANDS_MODULE", "webrobot.commands", priority="cmdline")
    try:
        execute(["webrobot", *args], settings)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except BrokenPipeError:  # a command's output read by a program that stopped (| head)
        return commands.output_closed()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
