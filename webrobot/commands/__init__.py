"""webrobot's ``scrapy`` commands, and what they share: the name they are run by, the
end of an output whose reader went away, and what the shared-crawl commands check
before they start.

Scrapy finds them two ways. In the webrobot project, ``COMMANDS_MODULE =
"webrobot.commands"`` (which also gives ``scrapy crawl`` webrobot's clear failures).
In any other project, ``ADDONS = {"webrobot.Addon": 0}`` cannot add commands (Scrapy
reads its command list before any add-on runs), so the package declares them as
``scrapy.commands`` entry points (``pyproject.toml``): installing webrobot makes
``scrapy search``, ``scrapy webrobot-export``, ``scrapy webrobot-seed`` and
``scrapy webrobot-wacz`` known to every project. The commands whose module names
hold a hyphen are reached through the attributes below (an entry point names a
module with letters, digits, dots and underscores only).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

from webrobot.optional import MissingExtra, require_redis
from webrobot.settingsmodel.parse import SettingValueError, read

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.settings import BaseSettings


#: The program a command runs under: ``scrapy`` (``scrapy search``), or ``webrobot`` when
#: the ``webrobot`` console script runs it (set by :mod:`webrobot.__main__`). Commands
#: say it in their messages and usage lines (``webrobot search: ...``).
PROGRAM = "scrapy"

#: The exit status of a program stopped by a closed pipe (128 + SIGPIPE), as a shell
#: reports ``yes | head``.
PIPE_CLOSED = 128 + int(getattr(signal, "SIGPIPE", 13))


def program(command: str) -> str:
    """How the user ran ``command``: ``scrapy search`` or ``webrobot search``."""
    return f"{PROGRAM} {command}"


def name_parser(parser: Any, command: str, syntax: str) -> None:
    """Scrapy's parser of ``command`` says ``scrapy <command>`` in its usage line and
    the script's file name before ``error:``; both name the program actually run."""
    parser.prog = program(command)
    parser.usage = f"{program(command)} {syntax}"


def output_closed() -> int:
    """stdout's reader went away (``... --json | head -c 800``): the rest of the output
    goes nowhere, quietly (Python's own flush at exit included), and the command ends
    with :data:`PIPE_CLOSED`, as a program a closed pipe stops."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return PIPE_CLOSED


#: Entry-point attributes of the commands whose module names hold a hyphen.
_HYPHENATED = {
    "ExportCommand": "webrobot-export",
    "SeedCommand": "webrobot-seed",
    "WaczCommand": "webrobot-wacz",
}


def __getattr__(name: str) -> Any:
    module = _HYPHENATED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(f"{__name__}.{module}").Command


def load_spider_class(loader: Any, name: str) -> tuple[type[Spider] | None, str]:
    """The spider class ``name`` from a spider loader, or None and why not (one line)."""
    try:
        return loader.load(name), ""
    except KeyError as exc:
        return None, f"{exc.args[0]} (known spiders: {', '.join(sorted(loader.list()))})"


def shared_crawl_problem(settings: BaseSettings) -> str | None:
    """Why a command cannot reach the shared crawl in Redis (one line), or None."""
    try:
        url = read(settings, "WEBROBOT_REDIS_URL").strip()
    except SettingValueError as exc:
        return str(exc)
    if not url:
        return "WEBROBOT_REDIS_URL is empty: pass -s WEBROBOT_REDIS_URL=redis://HOST:PORT/DB"
    try:
        require_redis()  # imported only by a command that uses Redis
    except MissingExtra as exc:
        return str(exc)
    return None
