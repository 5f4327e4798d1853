"""Watch rules: terms, near copies of protected texts, events, the rules file."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webrobot.monitor import events
from webrobot.monitor.nearcopy import (
    MIN_CONTAINMENT,
    ProtectedText,
    containment,
    match_text,
    page_shingles,
)
from webrobot.monitor.rules import load_rules, parse_rules
from webrobot.monitor.terms import find_terms, term_pattern
from webrobot.monitor.watch import WatchRule, page_matches
from webrobot.settingsmodel.parse import ConfigError

PROTECTED = """The lighthouse keeper climbed the spiral stairs every evening at dusk, carrying a can
of oil and a rag to polish the great lens until it shone like a second moon.

Ships passing the headland would see the beam sweep across the water twice a minute, a signal
that the rocks below were near and that the harbour lay a short way to the north.

In the long winter the keeper wrote letters to his sister in the city, describing storms that
shook the tower and the gulls that sheltered on the gallery rail until the wind dropped.

When the light was automated the keeper left the island, but he returned each summer to walk
the cliffs and listen to the foghorn that had kept him awake for thirty years."""
PARAGRAPHS = [" ".join(p.split()) for p in PROTECTED.split("\n\n")]
OTHER = """Lighthouses guided ships for centuries. Early towers burned wood or coal on open fires,
later ones used oil lamps and reflectors, and in the nineteenth century the Fresnel lens made
beams visible far out to sea. Keepers lived at the stations with their families, trimming wicks
and winding clockwork. Most lights are automated today, and many towers are museums where
visitors climb the stairs to the lantern room and look out over the water toward the headland."""
HOST = "News of the coast.\nThe ferry timetable changes next week."


def edit_one_word_in_ten(text: str) -> str:
    words = text.split(" ")
    return " ".join("banana" if i % 10 == 5 else w for i, w in enumerate(words))


COPIES = [
    ("verbatim inside a page", HOST + "\n" + "\n".join(PARAGRAPHS)),
    ("lightly edited", "\n".join(edit_one_word_in_ten(p) for p in PARAGRAPHS)),
    ("an excerpt of half", HOST + "\n" + "\n".join(PARAGRAPHS[1:3])),
    ("paragraphs re-ordered", "\n".join(reversed(PARAGRAPHS))),
    ("all in one line", " ".join(PARAGRAPHS)),
    ("another case and spacing", "\n".join(p.upper().replace(" ", "  ") for p in PARAGRAPHS)),
]


@pytest.mark.parametrize(("what", "page"), COPIES, ids=[c[0] for c in COPIES])
def test_a_copy_matches(what: str, page: str) -> None:
    hit = match_text(ProtectedText.of("keeper.txt", PROTECTED), page)
    assert hit is not None, what
    assert hit.score >= MIN_CONTAINMENT and hit.excerpt


NOT_COPIES = [
    ("another text on the same subject", OTHER),
    ("a page without it", HOST),
    ("a quarter of it", HOST + "\n" + PARAGRAPHS[0]),
    ("an empty page", ""),
]


@pytest.mark.parametrize(("what", "page"), NOT_COPIES, ids=[c[0] for c in NOT_COPIES])
def test_other_text_does_not_match(what: str, page: str) -> None:
    assert match_text(ProtectedText.of("keeper.txt", PROTECTED), page) is None, what


def test_containment_not_jaccard() -> None:
    """A copy inside a page ten times its size still holds all of it."""
    protected = ProtectedText.of("p", PROTECTED)
    big = "\n".join(
        [OTHER] * 3 + [f"Filler line number {i} about nothing else at all." for i in range(200)]
    )
    assert containment(protected.shingles, page_shingles(big + "\n" + "\n".join(PARAGRAPHS))) == 1.0


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(PARAGRAPHS), min_size=2, max_size=4, unique=True),
    st.randoms(use_true_random=False),
)
def test_any_order_of_enough_paragraphs_matches(paragraphs: list[str], rng: object) -> None:
    rng.shuffle(paragraphs)  # type: ignore[attr-defined]
    assert match_text(ProtectedText.of("p", PROTECTED), "\n".join(paragraphs)) is not None


TERMS = [
    ("Acme Widget", "Buy the ACME   widget now", 1),
    ("Acme Widget", "the acme\nwidget and the Acme Widget", 2),
    ("Acme Widget", "Acme Widgets are here", 0),
    ("Acme Widget", "NotAcme Widget", 0),
    ("Acme", "acme-made", 1),
    ("C++", "we write C++ here", 1),
    ("café", "Café de Flore", 1),
]


@pytest.mark.parametrize(("term", "text", "count"), TERMS)
def test_terms(term: str, text: str, count: int) -> None:
    pattern = term_pattern(term)
    assert pattern is not None
    found = find_terms([(term, pattern)], text)
    assert [m.count for m in found] == ([count] if count else [])


def test_a_term_without_words_is_none() -> None:
    assert term_pattern("   ") is None


def test_events_carry_their_keys_and_a_stable_id() -> None:
    one = events.removed("http://a/", "2026-11-27T10:00:00Z", 404)
    assert one == {
        **one,
        "event": "removed",
        "url": "http://a/",
        "time": "2026-11-27T10:00:00Z",
        "status": 404,
    }
    assert one["id"] == events.removed("http://a/", "2026-11-27T10:00:00Z", 404)["id"]
    assert one["id"] != events.removed("http://a/", "2026-11-27T10:00:01Z", 404)["id"]
    changed = events.changed("http://a/", "t", [{"field": "price", "old": "1", "new": "2"}])
    assert changed["fields"] == ["price"]
    with pytest.raises(ValueError, match="unknown event"):
        events.event("renamed", "u", "t")


def test_page_matches_terms_texts_and_images() -> None:
    rule = WatchRule.of(
        "ours", terms=["Acme Widget"], texts=[ProtectedText.of("keeper.txt", PROTECTED)]
    )
    from webrobot.monitor.watch import ProtectedImage

    rule = WatchRule(
        rule.name, rule.terms, rule.texts, (ProtectedImage("logo.png", 0xF0F0F0F0F0F0F0F0),)
    )
    item = {
        "main_text": "\n".join(PARAGRAPHS) + "\nSold with the acme widget.",
        "images": [
            {"url": "http://s/a.jpg", "phash": "f0f0f0f0f0f0f0f1"},
            {"url": "http://s/b.jpg", "phash": "zz"},
        ],
    }
    found = page_matches([rule], "http://s/", "t", item)
    assert [(m["kind"], m["rule"]) for m in found] == [
        ("term", "ours"),
        ("text", "ours"),
        ("image", "ours"),
    ]
    assert found[2]["evidence"] == {"image": "logo.png", "src": "http://s/a.jpg", "distance": 1}
    assert found[1]["evidence"]["text"] == "keeper.txt"
    assert (
        page_matches(
            [rule],
            "http://s/",
            "t",
            {"main_text": OTHER, "images": [{"phash": "0f0f0f0f0f0f0f0f"}]},
        )
        == []
    )


def write_rules(folder: Path, text: str) -> Path:
    (folder / "keeper.txt").write_text(PROTECTED, "utf-8")
    path = folder / "watch.toml"
    path.write_text(text, "utf-8")
    return path


def test_the_rules_file_loads(tmp_path: Path) -> None:
    path = write_rules(tmp_path, '[[rule]]\nname = "brand"\nterms = ["Acme Widget"]\n\n'
                                 '[[rule]]\nname = "story"\ntexts = ["keeper.txt"]\n')  # fmt: skip
    rules = load_rules(path)
    assert [r.name for r in rules] == ["brand", "story"]
    assert rules[1].texts[0].name == "keeper.txt" and rules[1].texts[0].shingles


BAD_RULES = [
    ("not TOML", "[[rule]\n", "not valid TOML"),
    ("no rules", "", "key 'rule': expected one or more [[rule]] tables"),
    ("no name", "[[rule]]\nterms = ['x']\n", "key 'rule[0].name': missing"),
    ("nothing to watch", "[[rule]]\nname = 'a'\n", "key 'rule 'a'': expected one or more of terms, texts, images"),
    ("unknown key", "[[rule]]\nname = 'a'\nterms = ['x']\ncolour = 1\n", "key 'rule 'a'.colour': unknown key"),
    ("a missing text file", "[[rule]]\nname = 'a'\ntexts = ['gone.txt']\n", "gone.txt cannot be read"),
    ("terms not strings", "[[rule]]\nname = 'a'\nterms = [1]\n", "key 'rule 'a'.terms': expected a list"),
    ("twice the same name", "[[rule]]\nname = 'a'\nterms = ['x']\n[[rule]]\nname = 'a'\nterms = ['y']\n",
     "a second rule of that name"),
    ("a picture that is not one", "[[rule]]\nname = 'a'\nimages = ['keeper.txt']\n", "is not a picture"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "text", "message"), BAD_RULES, ids=[b[0] for b in BAD_RULES])
def test_a_bad_rule_is_one_line_naming_the_file_and_rule(
    tmp_path: Path, what: str, text: str, message: str
) -> None:
    path = write_rules(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_rules(path)
    line = str(caught.value)
    assert "\n" not in line and line.startswith(str(path)) and message in line, (what, line)


def test_a_missing_rules_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_rules(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="expected UTF-8"):
        (tmp_path / "b.toml").write_bytes(b"\xff\xfe")
        load_rules(tmp_path / "b.toml")
    assert parse_rules("[[rule]]\nname='x'\nterms=['a b']\n", "s", tmp_path)[0].terms[0][0] == "a b"


_FRAGMENTS = st.sampled_from([
    "[[rule]]\n", "name = 'a'\n", 'name = ""\n', "terms = ['x']\n", "terms = []\n", "terms = 'y'\n",
    "texts = ['t.txt']\n", "images = ['i.png']\n", "[rule]\n", "rule = 1\n", "other = 2\n",
    "terms = [1, 2]\n", "name = 3\n", "\x00", "[[rule]]\nname='b'\nterms=[' ']\n",
])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.lists(_FRAGMENTS, max_size=8).map("".join)))
def test_any_rules_text_loads_or_is_one_config_error(text: str) -> None:
    try:
        rules = parse_rules(text, "w.toml", Path("/nonexistent-monitor-folder"))
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("w.toml")
    else:
        assert rules and all(r.name and (r.terms or r.texts or r.images) for r in rules)


_word = st.text(
    st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    min_size=1,
    max_size=8,
)
_gaps = st.lists(st.sampled_from([" ", "  ", "\n", "\t", " \n "]), min_size=3, max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(_word, min_size=1, max_size=3), _gaps, st.booleans())
def test_a_term_is_found_whatever_the_spacing_and_case(
    words: list[str], gaps: list[str], upper: bool
) -> None:
    term = " ".join(words)
    written = "".join(w + gaps[i % len(gaps)] for i, w in enumerate(words)).strip()
    written = written.upper() if upper else written.lower()
    pattern = term_pattern(term)
    assert pattern is not None
    assert [m.count for m in find_terms([(term, pattern)], f"<< {written} >>")] == [1]
    assert find_terms([(term, pattern)], f"x{written}y") == [], "only whole words"


def test_a_protected_palette_picture_loads_without_a_printed_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.test_librarywarnings import PALETTE_WARNING, palette_png

    (tmp_path / "logo.png").write_bytes(palette_png())
    path = write_rules(tmp_path, '[[rule]]\nname = "logo"\nimages = ["logo.png"]\n')
    caplog.set_level(logging.DEBUG, logger="webrobot.monitor.rules")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that got out would fail the load
        rules = load_rules(path)
    assert len(rules[0].images) == 1
    said = [r for r in caplog.records if PALETTE_WARNING in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.DEBUG
