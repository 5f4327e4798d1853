"""A robots.txt body read into text (pure: no Scrapy).

:func:`decode_robots_body` never fails: it keeps the first ``limit`` bytes
(whole lines), drops a UTF-8 BOM, decodes UTF-16 only when the whole body is
UTF-16, percent-encodes bytes that are not UTF-8 (so ``Disallow: /caf\\xe9``
still matches ``/caf%E9``), removes control characters, and reports what was
odd about the body. Both parsers of :mod:`webrobot.robots.parsers` read its text.
"""

from __future__ import annotations

import codecs
import re

# protego's directive reader, private to protego: behind webrobot.compat.
from webrobot.compat import extract_directive as _extract_directive

#: RFC 9309 2.5: crawlers must parse at least the first 500 KiB.
DEFAULT_PARSE_LIMIT = 500 * 1024
#: A line longer than this is reported (and still parsed).
LONG_LINE = 16 * 1024

#: A line end: CRLF, CR or LF.
EOL = re.compile(r"\r\n|\r|\n")
_HTML_START = re.compile(r"\s*<(?:!doctype|html|head|body|\?xml|!--|meta|title)\b", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\udc80-\udcff]")


def truncate_body(body: bytes, limit: int) -> tuple[bytes, bool]:
    """The first ``limit`` bytes (0: all), cut after the last whole line."""
    if limit <= 0 or len(body) <= limit:
        return body, False
    cut = max(body.rfind(b"\n", 0, limit), body.rfind(b"\r", 0, limit))
    return (body[: cut + 1] if cut >= 0 else body[:limit]), True


def decode_robots_body(body: bytes, limit: int = DEFAULT_PARSE_LIMIT) -> tuple[str, list[str]]:
    """The text of a robots.txt body, and the problems found in it.

    Never loses a valid line to the bytes around it:

    * a UTF-8 BOM is dropped;
    * a UTF-16 mark (``FF FE`` / ``FE FF``) is believed only when the whole
      body decodes strictly as UTF-16 *and* that reading has at least as many
      directive lines as the UTF-8 one; otherwise the two bytes are junk,
      dropped, and the rest is read as UTF-8 (``bad_bom``);
    * bytes that are not UTF-8 are percent-encoded (so ``Disallow: /caf\xe9``
      still matches ``/caf%E9``), each line on its own;
    * control characters (NUL and the like, not tab or line ends) are removed
      (``control_chars``), so a NUL inside ``User-agent`` does not break the group.

    Problems (names used in stats): ``truncated``, ``bom``, ``utf16``,
    ``bad_bom``, ``non_utf8``, ``binary``, ``control_chars``, ``html``, ``long_line``.
    """
    problems: list[str] = []
    body, truncated = truncate_body(body, limit)
    if truncated:
        problems.append("truncated")
    if body.startswith(codecs.BOM_UTF8):
        body = body[len(codecs.BOM_UTF8) :]
        problems.append("bom")
    text: str | None = None
    if body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        utf8_text = _utf8_text(body[2:], [])
        try:
            utf16_text = body.decode("utf-16")
        except UnicodeDecodeError:
            utf16_text = None
        if utf16_text is not None and _directive_lines(utf16_text) >= max(
            1, _directive_lines(utf8_text)
        ):
            text = utf16_text
            problems.append("utf16")
        else:
            body = body[2:]
            problems.append("bad_bom")
    if text is None:
        text = _utf8_text(body, problems)
    controls = len(_CONTROL.findall(text))
    if "\x00" in text or controls * 100 > len(text):
        problems.append("binary")
    if controls:
        text = _CONTROL.sub("", text)
        problems.append("control_chars")
    if _HTML_START.match(text):
        problems.append("html")
    if any(len(line) > LONG_LINE for line in EOL.split(text)):
        problems.append("long_line")
    return text, problems


def _utf8_text(body: bytes, problems: list[str]) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        text = body.decode("utf-8", errors="surrogateescape")
        problems.append("non_utf8")
        return _SURROGATE.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text)


def _directive_lines(text: str) -> int:
    """How many lines of ``text`` read as robots.txt directives."""
    count = 0
    for raw in EOL.split(text):
        line = _CONTROL.sub("", raw.split("#", 1)[0]).strip()
        if line and _extract_directive(line) is not None and ":" in line:
            count += 1
    return count
