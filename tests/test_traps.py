from __future__ import annotations

import pytest

from webrobot.urls.traps import (
    REPEATED_SEGMENT,
    TOO_LONG,
    TOO_MANY_SEGMENTS,
    TrapRules,
    WarningGate,
    most_repeated,
    path_segments,
)


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("", []),
        ("/", []),
        ("/a", ["a"]),
        ("/a/", ["a"]),  # a trailing slash is not a segment
        ("/a/b/c.html", ["a", "b", "c.html"]),
        ("/a//b", ["a", "", "b"]),  # an empty segment inside counts
        ("/a//", ["a", ""]),
        ("//", [""]),
        ("/A/%41/a", ["a", "a", "a"]),  # decoded and case-folded
        ("/a%2Fb/c", ["a", "b", "c"]),  # an encoded slash separates
        ("/a%2fb", ["a", "b"]),
        ("/a\\b", ["a", "b"]),  # so does a backslash
        ("/a%5Cb", ["a", "b"]),
        ("/a/./b/", ["a", "b"]),  # dot segments resolved
        ("/a/b/../c", ["a", "c"]),
        ("/a/%2e%2E/c", ["c"]),
        ("/a/.%2e/c", ["c"]),
        ("/../../a", ["a"]),  # above the root stays at the root
        ("/caf%C3%A9/CAF%C3%89", ["café", "café"]),
        ("/%FF/%FE", ["\udcff", "\udcfe"]),  # invalid UTF-8 bytes stay distinct
        ("/%zz/", ["%zz"]),  # a broken escape is just text
    ],
)
def test_path_segments_on_tricky_paths(path: str, segments: list[str]) -> None:
    assert path_segments(path) == segments


def test_most_repeated() -> None:
    assert most_repeated([]) == ("", 0)
    assert most_repeated(["a", "b"]) == ("a", 1)
    assert most_repeated(["a", "x", "x", "b", "x"]) == ("x", 3)


RULES = TrapRules(max_url_length=100, max_segment_repeats=2, max_path_segments=6)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://a/", None),
        ("http://a/a/x/x/", None),  # twice is allowed (default bound 2)
        ("http://a/a/x/x/x/", REPEATED_SEGMENT),
        ("http://a/x/a/x/b/x", REPEATED_SEGMENT),  # anywhere in the path, not only adjacent
        ("http://a/a/b/a/b/", None),
        ("http://a/a/b/a/b/a/b/", REPEATED_SEGMENT),  # a repeated run of segments
        ("http://a/ab/c/ab/c/ab", REPEATED_SEGMENT),
        ("http://a/loop/Loop/LOOP/", REPEATED_SEGMENT),  # case-folded
        ("http://a/loop/%6Coop/lo%6Fp/", REPEATED_SEGMENT),  # percent-decoded
        ("http://a/x%2Fx%2Fx", REPEATED_SEGMENT),  # encoded slashes
        ("http://a/x/y/../x/./x/", REPEATED_SEGMENT),  # after dot segments: x, x, x
        ("http://a/x/x/../../x/x/", None),  # resolves to /x/x/
        ("http://a/x/x/?q=/x/x/x/", None),  # the query is not the path
        ("http://a/a////b", REPEATED_SEGMENT),  # "" three times
        ("http://a/a///b", None),
        ("http://a/1/2/3/4/5/6/", None),
        ("http://a/1/2/3/4/5/6/7", TOO_MANY_SEGMENTS),
        ("http://a/1/2/3/4/5/6/7/../", None),  # six after resolution
        ("http://a/" + "y" * 98, TOO_LONG),
        ("http://a/" + "y" * 91, None),  # exactly 100 characters
    ],
)
def test_trap_rules(url: str, reason: str | None) -> None:
    refusal = RULES.refusal(url)
    assert (refusal[0] if refusal else None) == reason


def test_refusal_details_say_why() -> None:
    assert TrapRules().refusal("http://a/x/x/x/") == (
        REPEATED_SEGMENT, "segment 'x' 3 times > WEBROBOT_MAX_SEGMENT_REPEATS 2",
    )  # fmt: skip
    long = "http://a/" + "y" * 3000
    assert TrapRules().refusal(long) == (TOO_LONG, "3009 characters > URLLENGTH_LIMIT 2083")


def test_zero_switches_each_rule_off() -> None:
    off = TrapRules(max_url_length=0, max_segment_repeats=0, max_path_segments=0)
    assert off.refusal("http://a/" + "x/" * 5000) is None
    assert TrapRules(max_segment_repeats=0).refusal("http://a/x/x/x/") is None
    assert (
        TrapRules(max_path_segments=0).refusal("http://a/" + "/".join(map(str, range(50)))) is None
    )
    assert TrapRules(max_url_length=0).refusal("http://a/?" + "q" * 5000) is None


def test_warning_gate_rate_limits_per_key() -> None:
    gate = WarningGate(interval=60)
    assert gate.allow("s1", now=0) == 0
    assert gate.allow("s1", now=10) is None
    assert gate.allow("s1", now=59) is None
    assert gate.allow("s2", now=20) == 0, "another site has its own budget of warnings"
    assert gate.allow("s1", now=61) == 2, "says how many were held back"
    assert gate.allow("s1", now=62) is None
