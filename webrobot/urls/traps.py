"""Spider-trap rules on one URL: too long, too many path segments, a path
segment (or a run of segments) repeated. Pure logic.

Symbolic-link loops and relative links that resolve one level deeper each time
make ``/a/x/x/x/...``; the rules refuse such a URL before it is requested.

How a path is cut into segments for these rules (:func:`path_segments`):

* percent-escapes are decoded first, and an encoded slash (``%2F``) or a
  backslash (which browsers and some servers treat as a slash) separates
  segments too, so a loop cannot hide behind an escape;
* dot segments (``.``, ``..``, also ``%2E``) are resolved as the server would;
* one trailing slash does not make an empty segment (``/a/`` is ``["a"]``), but
  an empty segment inside the path counts (``/a//b`` is ``["a", "", "b"]``:
  endless ``//`` is a trap too);
* segments are case-folded, so ``/X/x/%78/`` repeats ``x`` three times.

A repeated run of segments (``/a/b/a/b/a/b/``) needs no rule of its own: a
run repeated more than N times repeats each of its segments more than N
times, so the one-segment count refuses it (reason ``repeated_segment``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

TOO_LONG = "too_long"
TOO_MANY_SEGMENTS = "too_many_segments"
REPEATED_SEGMENT = "repeated_segment"
DEPTH = "depth"
BUDGET = "budget"
BLOCKLIST = "blocklist"
#: A link whose extension says it is not a page (``WEBROBOT_IGNORED_EXTENSIONS``): no trap.
BINARY_EXTENSION = "binary_extension"


def path_segments(path: str) -> list[str]:
    """The comparable segments of a URL path (see the module docstring)."""
    if "%" in path:
        # surrogateescape keeps distinct invalid UTF-8 bytes distinct.
        path = unquote(path, errors="surrogateescape")
    if "\\" in path:
        path = path.replace("\\", "/")
    parts = path.split("/")
    if parts and parts[0] == "":
        parts = parts[1:]  # the root
    if parts and parts[-1] == "":
        parts = parts[:-1]  # one trailing slash
    out: list[str] = []
    for part in parts:
        if part == ".":
            continue
        if part == "..":
            if out:
                out.pop()
            continue
        out.append(part.casefold())
    return out


def most_repeated(segments: list[str]) -> tuple[str, int]:
    """The segment that occurs most often and how often (``("", 0)`` if none)."""
    if len(set(segments)) == len(segments):
        return (segments[0], 1) if segments else ("", 0)
    counts: dict[str, int] = {}
    for segment in segments:
        counts[segment] = counts.get(segment, 0) + 1
    best = max(counts, key=counts.__getitem__)
    return best, counts[best]


@dataclass(frozen=True)
class TrapRules:
    """``0`` switches a rule off."""

    max_url_length: int = 2083
    max_segment_repeats: int = 2
    max_path_segments: int = 32

    def refusal(self, url: str) -> tuple[str, str] | None:
        """``(reason, detail)`` when ``url`` must not be requested, else ``None``."""
        if self.max_url_length and len(url) > self.max_url_length:
            return TOO_LONG, f"{len(url)} characters > URLLENGTH_LIMIT {self.max_url_length}"
        if not (self.max_segment_repeats or self.max_path_segments):
            return None
        segments = path_segments(urlsplit(url).path)
        if self.max_path_segments and len(segments) > self.max_path_segments:
            return TOO_MANY_SEGMENTS, (
                f"{len(segments)} path segments > WEBROBOT_MAX_PATH_SEGMENTS {self.max_path_segments}"
            )
        if self.max_segment_repeats:
            segment, count = most_repeated(segments)
            if count > self.max_segment_repeats:
                return REPEATED_SEGMENT, (
                    f"segment {segment!r} {count} times > WEBROBOT_MAX_SEGMENT_REPEATS "
                    f"{self.max_segment_repeats}"
                )
        return None


class WarningGate:
    """Rate-limits a warning per key: at most one per ``interval`` seconds.

    :meth:`allow` returns ``None`` when the warning must be held back, else how
    many were held back since the last one shown (so the log can say so).
    """

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def allow(self, key: str, now: float) -> int | None:
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            self._held[key] = self._held.get(key, 0) + 1
            return None
        self._last[key] = now
        return self._held.pop(key, 0)
