"""The candidates of a ``srcset`` attribute (``<img>``, ``<source>``,
``<link imagesrcset>``), by the HTML standard's parsing algorithm. Pure: no
Scrapy, no I/O.

A URL runs to whitespace and may hold commas; a trailing comma ends it;
descriptors (``800w``, ``2x``) run to a comma outside parentheses. Used by the
archive's page requisites (every candidate) and the mining's images (the
largest one).
"""

from __future__ import annotations

_WS = " \t\n\r\f"


def srcset_candidates(value: str) -> list[tuple[str, str]]:
    """``(url, descriptor)`` pairs of a ``srcset`` by the HTML standard's
    parsing (a URL runs to whitespace and may hold commas; a trailing comma
    ends it; descriptors run to a comma outside parentheses). Never raises."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and (value[i] in _WS or value[i] == ","):
            i += 1
        if i >= n:
            break
        start = i
        while i < n and value[i] not in _WS:
            i += 1
        url = value[start:i]
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            begin, depth = i, 0
            while i < n:
                char = value[i]
                if char == "(":
                    depth += 1
                elif char == ")" and depth:
                    depth -= 1
                elif char == "," and not depth:
                    break
                i += 1
            descriptor = value[begin:i].strip(_WS)
            i += 1
        if url:
            out.append((url, descriptor.lower()))
    return out
