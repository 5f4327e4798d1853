"""The global blocklist (``WEBROBOT_BLOCKLIST``): sites and URL patterns the
robot never requests, whatever site config or link leads there. Pure logic.

An entry is one of:

* a domain name, ``example.com``: that host and all its subdomains, any scheme
  and port (``.example.com`` means the same);
* a site, ``https://example.com:8443`` (scheme, host, optional port, no path):
  exactly that site, as :func:`webrobot.urls.sitekey.site_key` names it;
* ``re:REGEX``: a regular expression searched in the canonical URL
  (:mod:`webrobot.urls.canonical`), e.g. ``re:/calendar/\\d{4}/``; everything after
  ``re:`` is the pattern, up to a comment (whitespace, ``#``, whitespace).

The setting is a list of entries, or a file path (one entry per line; blank
lines and lines starting with ``#`` are ignored; an entry may end with a
``# comment``; a UTF-8 byte order mark is allowed). A bad entry raises :class:`BlocklistError` naming the
file (or setting), the line (or entry number) and what was expected.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from webrobot.settingsmodel.parse import ConfigError
from webrobot.urls.sitekey import DEFAULT_PORTS, site_key_from_parts

SETTING = "WEBROBOT_BLOCKLIST"
REGEX_PREFIX = "re:"
_LABEL_RE = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
#: Whitespace, '#', then whitespace or the end: the comment after a re: pattern.
_PATTERN_COMMENT = re.compile(r"\s+#(?:\s.*)?$")
EXPECTED = (
    "expected a domain name (example.com), a site without a path "
    "(https://example.com:8443) or re:REGULAR-EXPRESSION"
)


class BlocklistError(ConfigError):
    """A blocklist entry (or file) that cannot be used."""

    def __init__(self, source: str, where: str | None, expected: str) -> None:
        ValueError.__init__(
            self, f"{source}: {where}: {expected}" if where else f"{source}: {expected}"
        )
        self.source = source
        self.key = None
        self.where = where
        self.expected = expected


def _domain(text: str) -> str | None:
    """``text`` as a lower-case ASCII domain name, or ``None`` if it is not one."""
    name = text.removeprefix("*.").strip(".").lower()
    try:
        name = name.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    labels = name.split(".")
    if not name or not all(_LABEL_RE.match(label) for label in labels):
        return None
    return name


class Blocklist:
    def __init__(self) -> None:
        self.sites: set[str] = set()
        self.domains: set[str] = set()
        self.patterns: list[re.Pattern[str]] = []
        self.entries: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.sites or self.domains or self.patterns)

    def __len__(self) -> int:
        return len(self.entries)

    # -- building --------------------------------------------------------
    def add(self, entry: str, source: str = SETTING, where: str | None = None) -> None:
        """Add one entry; :class:`BlocklistError` if it is not one of the three forms."""
        text = entry.strip()
        if text.startswith(REGEX_PREFIX):
            # A canonical URL holds no whitespace, so " # ..." after it is a comment.
            text = _PATTERN_COMMENT.split(text, maxsplit=1)[0]
            pattern = text[len(REGEX_PREFIX) :]
            if not pattern:
                raise BlocklistError(source, where, "expected a regular expression after 're:'")
            try:
                self.patterns.append(re.compile(pattern))
            except re.error as exc:
                raise BlocklistError(
                    source, where, f"expected a valid regular expression, {pattern!r} fails: {exc}"
                ) from None
            self.entries.append(text)
            return
        text = re.split(r"\s+#", text, maxsplit=1)[0].strip()
        if "://" in text:
            self.sites.add(self._site(text, source, where))
        else:
            domain = _domain(text)
            if domain is None:
                raise BlocklistError(source, where, f"{EXPECTED}, got {entry.strip()!r}")
            self.domains.add(domain)
        self.entries.append(text)

    @staticmethod
    def _site(text: str, source: str, where: str | None) -> str:
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018 - raises ValueError on a bad port
        except ValueError as exc:
            raise BlocklistError(source, where, f"{EXPECTED}, got {text!r}: {exc}") from None
        if (
            parts.scheme.lower() not in ("http", "https")
            or not parts.hostname
            or parts.path not in ("", "/")
            or parts.query
            or parts.fragment
            or parts.username is not None
        ):
            raise BlocklistError(
                source, where,
                f"{EXPECTED}, got {text!r} (to block part of a site use re:, e.g. 're:^https://example\\.com/private/')",
            )  # fmt: skip
        host = _domain(parts.hostname) if ":" not in parts.hostname else parts.hostname
        if host is None:
            raise BlocklistError(source, where, f"{EXPECTED}, got {text!r}: bad host name")
        scheme = parts.scheme.lower()
        host = f"[{host}]" if ":" in host else host
        return f"{scheme}://{host}:{parts.port or DEFAULT_PORTS[scheme]}"

    @classmethod
    def from_entries(cls, entries: Iterable[str], source: str = SETTING) -> Blocklist:
        blocklist = cls()
        for number, entry in enumerate(entries, 1):
            if not isinstance(entry, str):
                raise BlocklistError(source, f"entry {number}", f"expected a string, got {entry!r}")
            if entry.strip() and not entry.strip().startswith("#"):
                blocklist.add(entry, source, f"entry {number}")
        return blocklist

    @classmethod
    def from_text(cls, text: str, source: str) -> Blocklist:
        blocklist = cls()
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                blocklist.add(stripped, source, f"line {number}")
        return blocklist

    @classmethod
    def from_file(cls, path: str | Path) -> Blocklist:
        source = str(path)
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise BlocklistError(
                source, None,
                f"the {SETTING} file cannot be read: {exc.strerror or exc} (a {SETTING} string "
                "is a file path; give entries inline as a list, e.g. '[\"example.com\"]')",
            ) from None  # fmt: skip
        try:
            text = raw.decode("utf-8-sig")  # Windows editors may start the file with a BOM
        except UnicodeDecodeError as exc:
            raise BlocklistError(source, None, f"expected UTF-8 text: {exc}") from None
        return cls.from_text(text, source)

    @classmethod
    def from_setting(cls, value: object) -> Blocklist:
        """The blocklist a ``WEBROBOT_BLOCKLIST`` value means: a list (or a JSON
        list in a string, as ``-s`` gives it), or a file path."""
        if value is None or value == "":
            return cls()
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                try:
                    value = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise BlocklistError(
                        SETTING, None, f"expected a JSON list of entries: {exc}"
                    ) from None
            else:
                return cls.from_file(text)
        if not isinstance(value, list | tuple):
            raise BlocklistError(
                SETTING, None, f"expected a list of entries or a file path, got {value!r}"
            )
        return cls.from_entries(value)

    # -- matching ----------------------------------------------------------
    def match(self, canonical: str) -> str | None:
        """What blocks the canonical URL (``"site ..."``, ``"domain ..."`` or
        ``"pattern ..."``), or ``None``."""
        if self.sites or self.domains:
            parts = urlsplit(canonical)
            if self.sites:
                site = site_key_from_parts(parts)
                if site in self.sites:
                    return "site " + site
            host = parts.hostname or ""
            if _is_ip(host):
                if host in self.domains:
                    return "domain " + host
            else:
                while host:  # the host, then each parent domain
                    if host in self.domains:
                        return "domain " + host
                    host = host.partition(".")[2]
        for pattern in self.patterns:
            if pattern.search(canonical):
                return "pattern " + pattern.pattern
        return None


def _is_ip(host: str) -> bool:
    return ":" in host or host.replace(".", "").isdigit()
