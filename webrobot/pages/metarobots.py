"""What a page tells robots about itself: ``<meta name="robots">`` and ``X-Robots-Tag``.

Pure logic, no Scrapy and no I/O:

* :func:`parse_directives` splits a meta ``content`` value into lower-case directives;
* :func:`header_directives` reads one ``X-Robots-Tag`` header value, keeping the
  directives for every agent plus those prefixed with our product token
  (``webrobot: noindex``) and dropping other agents' (``otherbot: noindex``);
* :func:`head_meta_directives` finds the robots meta elements of a document's
  ``<head>`` with a cheap scan of the text (no DOM);
* :func:`policy` combines directives, the most restrictive winning.

Directives keep their order of first appearance and are deduplicated. Directives
with a value are written ``name:value`` (``max-snippet:20``,
``unavailable_after:25 jun 2010 15:00:00 pst``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from html import unescape

#: Directives that carry a value after a colon. ``unavailable_after`` takes the
#: rest of its comma-separated part (a date, which may itself contain a comma).
VALUED_DIRECTIVES = frozenset(
    {"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"}
)
#: Directives known to search engines (used to tell an agent prefix from a directive).
KNOWN_DIRECTIVES = VALUED_DIRECTIVES | {
    "all", "none", "index", "noindex", "follow", "nofollow", "noarchive", "nocache",
    "nosnippet", "notranslate", "noimageindex", "indexifembedded", "noodp", "noydir",
}  # fmt: skip
#: The meta name that speaks to every robot.
GENERIC_NAME = "robots"

_SEGMENT_WORD = re.compile(r"[\s:]*([^\s:]+)\s*(:?)\s*")
_VALUE_WORD = re.compile(r"(\S*)\s*")
_AGENT_PREFIX = re.compile(r"\s*([A-Za-z][\w.-]*)\s*:\s*([A-Za-z_-]+)")
_WEEKDAY = re.compile(r"(mon|tue|wed|thu|fri|sat|sun)[a-z]*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RobotsPolicy:
    """What a page allows, all directives combined (the most restrictive wins)."""

    index: bool = True
    follow: bool = True
    archive: bool = True


ALLOW_ALL = RobotsPolicy()


def policy(directives: Iterable[str]) -> RobotsPolicy:
    """``none`` = noindex + nofollow; ``all``, ``index`` and ``follow`` are the
    defaults and never override a restriction; unknown directives change nothing."""
    found = set(directives)
    if not found:
        return ALLOW_ALL
    return RobotsPolicy(
        index=not (found & {"noindex", "none"}),
        follow=not (found & {"nofollow", "none"}),
        archive="noarchive" not in found,
    )


def product_token(agent: str | None, user_agent: str | None = None) -> str:
    """The name robots meta elements and header prefixes address us by, lower case:
    ``agent`` (``ROBOTSTXT_USER_AGENT``), else the first word of ``user_agent``."""
    token = (agent or "").strip() or (user_agent or "").strip().split("/")[0].strip()
    return token.split()[0].lower() if token.split() else ""


def dedupe(directives: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(directives))


# -- directive lists ---------------------------------------------------------


def _split_segments(text: str) -> list[str]:
    """Comma-separated parts, re-joining a date that an RFC 850 weekday split
    (``unavailable_after: Friday, 25-Jun-10 15:00:00 PST``)."""
    parts = text.split(",")
    out: list[str] = []
    for part in parts:
        if out and _continues_date(out[-1], part):
            out[-1] = f"{out[-1]},{part}"
        else:
            out.append(part)
    return out


def _continues_date(previous: str, part: str) -> bool:
    name, colon, value = previous.partition(":")
    if not colon or name.strip().lower() != "unavailable_after":
        return False
    return bool(_WEEKDAY.fullmatch(value.strip())) and part.strip()[:1].isdigit()


def _segment_directives(segment: str) -> list[str]:
    out: list[str] = []
    pos, end = 0, len(segment)
    while pos < end:
        match = _SEGMENT_WORD.match(segment, pos)
        if match is None:  # only colons and spaces left
            break
        name, has_colon = match.group(1).lower(), match.group(2)
        pos = match.end()
        if has_colon and name == "unavailable_after":
            value, pos = " ".join(segment[pos:].split()).lower(), end
        elif has_colon and (name in VALUED_DIRECTIVES or name not in KNOWN_DIRECTIVES):
            word = _VALUE_WORD.match(segment, pos)
            assert word is not None  # \S* matches the empty string
            value, pos = word.group(1).lower(), word.end()
        else:
            value = ""
        out.append(f"{name}:{value}" if value else name)
    return out


def parse_directives(content: str) -> list[str]:
    """Directives of a meta ``content`` value: comma- and/or space-separated,
    case-insensitive; returned lower case, deduplicated, in order."""
    out: list[str] = []
    for segment in _split_segments(content):
        out.extend(_segment_directives(segment))
    return dedupe(out)


def _agent_prefix(segment: str) -> tuple[str, str] | None:
    """``(agent, rest)`` when ``segment`` starts with ``agent:`` followed by a
    known directive; ``unavailable_after: <date>`` and ``max-snippet: 3`` are
    directives, not agents."""
    match = _AGENT_PREFIX.match(segment)
    if match is None:
        return None
    agent, first = match.group(1).lower(), match.group(2).lower()
    if agent in KNOWN_DIRECTIVES or first not in KNOWN_DIRECTIVES:
        return None
    colon = segment.index(":", match.start(1))
    return agent, segment[colon + 1 :]


def header_directives(value: str, agent: str) -> list[str]:
    """Directives of one ``X-Robots-Tag`` header value that apply to ``agent``.

    ``noindex, nofollow`` applies to all robots. An ``agent:`` prefix scopes the
    directives after it, up to the next prefix, to that agent only:
    ``otherbot: noindex, nofollow`` says nothing to us; ``webrobot: noindex`` does.
    """
    agent = agent.lower()
    out: list[str] = []
    applies = True
    for segment in _split_segments(value):
        prefixed = _agent_prefix(segment)
        if prefixed is not None:
            applies = prefixed[0] == agent
            segment = prefixed[1]
        if applies:
            out.extend(_segment_directives(segment))
    return dedupe(out)


def headers_directives(values: Iterable[str], agent: str) -> list[str]:
    """All ``X-Robots-Tag`` header values of a response, combined."""
    out: list[str] = []
    for value in values:
        out.extend(header_directives(value, agent))
    return dedupe(out)


# -- the document head ----------------------------------------------------------

#: Elements that may appear in (or before) ``<head>`` without ending it.
_HEAD_TAGS = frozenset(
    {"html", "head", "meta", "link", "title", "style", "script", "base", "noscript",
     "template", "basefont", "bgsound"}
)  # fmt: skip
#: Elements whose content is text, not markup: skipped to their end tag.
_RAW_TEXT = {
    name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE)
    for name in ("script", "style", "title", "template")
}
_MARKUP = re.compile(r"<(?:(!--)|(/?)([A-Za-z][^\s/>]*)|[!?])")
_ATTRIBUTE = re.compile(
    r"""[\s/]*([^\s"'>/=][^\s"'>/=]*)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]*)))?"""
)
#: Where the head ends at the latest, for the quick "is there anything to scan" test:
#: ``</head>``, else ``<body>`` (a script in the head may spell out ``<body>``).
_HEAD_END = (re.compile(r"</head[\s>]", re.IGNORECASE), re.compile(r"<body[\s>]", re.IGNORECASE))
_TAG_END = re.compile(r"[\s/]*>")
#: The rest of a start tag whose attributes we do not need (quotes honoured, no backtracking).
_TAG_REST = re.compile(r"""(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""")


def _attributes(text: str, pos: int) -> tuple[dict[str, str], int]:
    """Attributes of a start tag whose name ended at ``pos``; the first of a
    repeated name wins, as in browsers. Returns them and the position after ``>``."""
    attrs: dict[str, str] = {}
    end = len(text)
    while pos < end:
        close = _TAG_END.match(text, pos)
        if close is not None:
            return attrs, close.end()
        match = _ATTRIBUTE.match(text, pos)
        if match is None or match.end() == pos:
            pos += 1  # a stray quote or '=': skip it
            continue
        name = match.group(1).lower()
        raw = next((g for g in match.group(2, 3, 4) if g is not None), "")
        if match.group(4) and raw.endswith("/") and text.startswith(">", match.end()):
            raw = raw[:-1]  # <meta name=robots/>: browsers keep the '/', authors don't mean it
        attrs.setdefault(name, unescape(raw) if "&" in raw else raw)
        pos = match.end()
    return attrs, end


def head_metas(text: str, names: Collection[str] = ()) -> list[tuple[str, str]]:
    """``(name, content)`` of each ``<meta name content>`` in the document's head.

    Scans tags from the start of ``text`` and stops where a browser would leave
    the head: ``</head>``, ``<body>``, any element that belongs in the body, or
    text. Meta before ``<html>``, a missing or unclosed head, upper-case tags,
    unquoted attributes and entities are read the way browsers read them.
    Names are lower case and stripped; content is as written, entities decoded.
    With ``names`` (lower case), only meta elements whose markup mentions one
    of them are read (faster; a name written with character references is missed).
    """
    metas: list[tuple[str, str]] = []
    pos, end = (1 if text.startswith("\ufeff") else 0), len(text)
    while pos < end:
        match = _MARKUP.search(text, pos)
        gap = text[pos : match.start() if match else end]
        if gap and not gap.isspace():
            break  # text starts the body
        if match is None:
            break
        if match.group(1):  # <!-- comment -->
            close = text.find("-->", match.end())
            if close < 0:
                break
            pos = close + 3
            continue
        name = match.group(3)
        if name is None:  # <!DOCTYPE ...>, <?xml ...?>, <![CDATA[ ... ]]>
            close = text.find(">", match.end())
            if close < 0:
                break
            pos = close + 1
            continue
        name = name.lower()
        if match.group(2):  # an end tag: these end the head, browsers ignore the rest
            if name in ("head", "body", "html", "br"):
                break
            close = text.find(">", match.end())
            if close < 0:
                break
            pos = close + 1
            continue
        if name not in _HEAD_TAGS:
            break  # <body>, <p>, <div>, <frameset>...: the head is over
        rest = _TAG_REST.match(text, match.end())
        tag_end = rest.end() if rest else end
        if name == "meta":
            if names:
                markup = text[match.end() : tag_end].lower()
                if not any(n in markup for n in names):
                    pos = tag_end
                    continue
            attrs, pos = _attributes(text, match.end())
            if "name" in attrs and "content" in attrs:
                metas.append((attrs["name"].strip().lower(), attrs["content"]))
            continue
        pos = tag_end
        if name in _RAW_TEXT:
            close_match = _RAW_TEXT[name].search(text, pos)
            if close_match is None:
                break
            pos = close_match.start()
    return metas


def head_meta_directives(text: str, agent: str) -> list[str]:
    """Directives of the head's ``<meta name="robots">`` and ``<meta name="AGENT">``
    elements (``agent`` compared case-insensitively); other agents' are ignored.

    A page whose head does not mention either name is not scanned tag by tag
    (most pages; a name spelled with character references is not recognised).
    """
    names = {GENERIC_NAME, agent.lower()} - {""}
    head_end = _HEAD_END[0].search(text) or _HEAD_END[1].search(text)
    head = (text[: head_end.start()] if head_end else text).lower()
    if not any(name in head for name in names):
        return []
    out: list[str] = []
    for name, content in head_metas(text, names):
        if name in names:
            out.extend(parse_directives(content))
    return dedupe(out)


def relabelled_text(text: str, body: bytes, window: int = 1024, limit: int = 1 << 20) -> str | None:
    """The body read again when its charset label was wrong, or ``None``.

    When the decoded ``text`` shows no markup near its start while the raw
    ``body`` does (ASCII labelled ``utf-16``, UTF-16 without a byte order mark),
    the bytes read as Latin-1 with NUL bytes dropped make the ASCII markup of
    the head readable again. Only the first ``limit`` bytes are read.
    """
    if "<" in text[:window] or b"<" not in body[: window * 4]:
        return None
    return body[:limit].replace(b"\x00", b"").decode("latin-1")
