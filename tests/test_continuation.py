"""Articles split into several containers: the parts an extraction left out."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract import continuation
from webrobot.extract.continuation import continued

PARTS = [f"Paragraph {i} of the article tells a long enough part of the story." for i in range(6)]


def page(*chunks: str, wrapper: bool = True) -> lxml.html.HtmlElement:
    body = "".join(chunks)
    if wrapper:
        body = f'<div class="article">{body}</div>'
    return lxml.html.document_fromstring(f"<html><body>{body}</body></html>")


def box(*paragraphs: str, css: str = "body") -> str:
    return f'<div class="{css}">' + "".join(f"<p>{p}</p>" for p in paragraphs) + "</div>"


AD = '<div class="ad"><p>Advertisement: buy the premium plan today and save money.</p></div>'


def test_the_other_parts_are_added_in_page_order() -> None:
    root = page(box(*PARTS[:2]), AD, box(*PARTS[2:4]), AD, box(*PARTS[4:]))
    assert continued(root, "\n".join(PARTS[:2])) == "\n".join(PARTS)


def test_a_part_before_the_extracted_one_goes_first() -> None:
    root = page(box(*PARTS[:3]), AD, box(*PARTS[3:]))
    assert continued(root, "\n".join(PARTS[3:])) == "\n".join(PARTS)


def test_a_part_in_the_middle_goes_after_what_it_follows() -> None:
    root = page(box(*PARTS[:2]), AD, box(*PARTS[2:4]), AD, box(*PARTS[4:]))
    extracted = PARTS[:2] + PARTS[4:]
    assert continued(root, "\n".join(extracted)) == "\n".join(PARTS)


def test_text_that_has_every_part_is_left_as_it_is() -> None:
    root = page(box(*PARTS[:3]), AD, box(*PARTS[3:]))
    assert continued(root, "\n".join(PARTS)) == "\n".join(PARTS)


@pytest.mark.parametrize(
    "html",
    [
        # a lone paragraph of the same kind: a caption, quote or embed more often than not
        [box(*PARTS[:3]), AD, box(PARTS[3])],
        # inside an aside
        [box(*PARTS[:3]), "<aside>" + box(*PARTS[3:]) + "</aside>"],
        # another kind of container
        [box(*PARTS[:3]), box(*PARTS[3:], css="related")],
        # a list of posts or teasers: a title before each item
        [box(*PARTS[:3]), '<h2><a href="/p/2">Another post</a></h2>', box(*PARTS[3:])],
        # containers without a class say nothing
        [box(*PARTS[:3], css=""), box(*PARTS[3:], css="")],
    ],
)
def test_what_is_not_a_continuation(html: list[str]) -> None:
    extracted = "\n".join(PARTS[:3])
    assert continued(page(*html), extracted) == extracted


def test_a_subheading_inside_the_containers_does_not_break_the_article() -> None:
    root = page(
        box(*PARTS[:2]), AD, '<div class="body"><h2>Part two</h2><p>' + PARTS[2] + "</p><p>"
        + PARTS[3] + "</p></div>"
    )  # fmt: skip
    assert continued(root, "\n".join(PARTS[:2])) == "\n".join(PARTS[:4])


def test_boxes_whose_only_common_ancestor_is_the_body_are_not_one_article() -> None:
    root = page(box(*PARTS[:3]), box(*PARTS[3:]), wrapper=False)
    assert continued(root, "\n".join(PARTS[:3])) == "\n".join(PARTS[:3])


def test_the_container_kind_must_hold_most_of_the_text() -> None:
    root = page(box(*PARTS[:1]), AD, box(*PARTS[2:]))
    extracted = "\n".join(
        [PARTS[0], *(f"Other text number {i} from elsewhere." * 3 for i in range(4))]
    )
    assert continued(root, extracted) == extracted


def test_no_paragraphs_at_all() -> None:
    assert continued(page("<div>just text</div>"), "just text") == "just text"


def test_white_space_is_collapsed_as_the_regular_expression_collapses_it() -> None:
    """Paragraphs and lines are compared with their white space collapsed by
    ``str.split``; that must give what ``\\s+`` replaced by one space and stripped gives,
    for every white-space character (no-break spaces, ideographic spaces, separators)."""
    import re
    import sys

    from webrobot.extract.continuation import _collapsed

    spaces = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if re.match(r"\s", c))
    assert "\xa0" in spaces and "\u3000" in spaces and "\x1c" in spaces
    for text in (f" a{spaces}b ", f"{spaces}x\u200by{spaces}", "\u00a0ü\tß\n", "", spaces):
        assert _collapsed(text) == re.sub(r"\s+", " ", text).strip()
    assert all(not c.isspace() for c in map(chr, range(sys.maxunicode + 1)) if c not in spaces)


def test_paragraphs_written_with_other_white_space_are_still_found() -> None:
    odd = [part.replace(" ", "\xa0 \n", 3) for part in PARTS]
    root = page(box(*odd[:2]), AD, box(*odd[2:4]))
    assert continued(root, "\n".join(PARTS[:2])) == "\n".join(PARTS[:4])


def test_a_page_without_a_kind_in_two_containers_has_no_paragraph_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read: list[str] = []
    collapse = continuation._collapsed
    monkeypatch.setattr(continuation, "_collapsed", lambda s: read.append(s) or collapse(s))
    one_each = page(box(*PARTS[:3]), AD, box(*PARTS[3:], css="related"))
    assert continued(one_each, "\n".join(PARTS[:3])) == "\n".join(PARTS[:3])
    assert read == []
    split = page(box(*PARTS[:3]), AD, box(*PARTS[3:]))
    assert continued(split, "\n".join(PARTS[:3])) == "\n".join(PARTS)
    assert read
