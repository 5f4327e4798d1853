"""Check setting values given as text against the type of their defaults.

``-s NAME=VALUE`` and Scrapyd's ``setting=NAME=VALUE`` always arrive as strings.
Components read them with typed getters (``getint``, ``getfloat``, ``getbool``),
which turn ``"0.5"`` into ``0.5`` but raise ``ValueError`` deep in the engine's
start-up on text that does not parse: a traceback wall in the job log. :func:`setting_value_problem` finds such values before a crawl starts, so
the crawl command can stop with one line naming the setting.

The rules follow Scrapy's getters, judged by the type of the default value:

* ``bool``: what ``getbool`` accepts (an integer, ``True``/``true``/``False``/``false``);
* ``float``: any number ``float()`` parses;
* ``int``: a whole number ``int()`` parses (``getint``), except for the settings
  in :data:`READ_AS_FLOAT`, whose default is whole but which Scrapy reads with
  ``getfloat`` (``DOWNLOAD_TIMEOUT=7.5`` is fine, ``DEPTH_LIMIT=1.5`` is not);
* text of the settings in :data:`CHOICES`: one of their words (any case, as
  their components read them), or empty for the default;
* anything else is not checked: other text; lists (``getlist`` splits any text on
  commas); dicts (Scrapy itself refuses ``-s`` text that is not a JSON object
  with a one-line usage error); settings without a default.

Pure logic: no Scrapy.
"""

from __future__ import annotations

from typing import Any

from webrobot.contentfingerprints import FINGERPRINT_MODES
from webrobot.seenstore import STORE_KINDS

BOOL_WORDS = frozenset({"True", "true", "False", "false"})
#: Settings with a whole-number default that Scrapy 2.19 reads with ``getfloat``.
READ_AS_FLOAT = frozenset({"DOWNLOAD_TIMEOUT", "DNS_TIMEOUT"})
#: Settings whose text must be one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {
    "WEBROBOT_FINGERPRINT": FINGERPRINT_MODES,
    "WEBROBOT_SEEN_STORE": STORE_KINDS,
    "WEBROBOT_CONTENT_STORE": STORE_KINDS,
}


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def setting_value_problem(value: Any, default: Any, name: str = "") -> str | None:
    """What is wrong with ``value`` for setting ``name`` whose default is ``default``, or None."""
    if not isinstance(value, str):
        return None  # already typed (a settings module); site configs: typed_value_problem
    choices = CHOICES.get(name)
    if choices is not None:
        if value.strip() and value.strip().lower() not in choices:
            return f"expected one of {', '.join(choices)} (default {default!r})"
        return None
    if isinstance(default, bool):  # before int: bool is an int
        if _is_int(value) or value in BOOL_WORDS:
            return None
        return f"expected true/false or 1/0 (default {default!r})"
    if isinstance(default, int | float):
        try:
            float(value)
        except ValueError:
            return f"expected a number (default {default!r})"
        if isinstance(default, int) and name not in READ_AS_FLOAT and not _is_int(value):
            return f"expected a whole number (default {default!r})"
    return None


def typed_value_problem(value: Any, default: Any) -> str | None:
    """A typed value (a site config's TOML) of a kind the getters cannot read
    for its default: a table or an array where a number or a switch is
    expected, a number where a list is expected, and so on."""
    if default is None or isinstance(default, str):
        return None  # no default to judge by; text settings take what getters make of it
    if isinstance(default, bool):
        if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
            return None
        return f"expected true or false (default {default!r}), got {_kind(value)}"
    if isinstance(default, int | float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return None
        return f"expected a number (default {default!r}), got {_kind(value)}"
    if isinstance(default, list | tuple):
        if isinstance(value, list | tuple):
            return None
        return f"expected a list (default {list(default)!r}), got {_kind(value)}"
    if isinstance(default, dict) or hasattr(default, "copy_to_dict"):
        if isinstance(value, dict):
            return None
        return f"expected a table (default {{}}), got {_kind(value)}"
    return None


def _kind(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"
