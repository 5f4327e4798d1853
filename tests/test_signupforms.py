"""Newsletter sign-up boxes (``webrobot/extract/signupforms.py``), and the main text of
an article with one between its paragraphs."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.signupforms import (
    ASKS_EMAIL,
    note_email_field,
    sign_up_box,
    without_sign_ups,
)

BOX = (
    '<div class="slice"><section><h2>Das Magazin</h2></section><section><p>Die besten '
    "Texte der Woche, jeden Freitag.</p>"
    '<form action="/s"><input type="email" name="m"><button>Los</button></form>'
    "</section></div>"
)
_STORY = "".join(
    f"<p>Paragraph {n} of the story holds words enough to be read as the text of this "
    "article, and then some more words about the mountain road.</p>"
    for n in range(6)
)


def test_the_box_grows_to_the_heading_and_stops_below_the_article() -> None:
    tree = lxml.html.fromstring(f"<html><body><article>{_STORY}{BOX}</article></body></html>")
    box = sign_up_box(next(tree.iter("form")))
    assert box is not None and box.get("class") == "slice"
    assert without_sign_ups(tree.iter("form")) == 1
    text = tree.text_content()
    assert "Das Magazin" not in text and "Paragraph 5" in text


@pytest.mark.parametrize(
    "form",
    [
        # a search box
        '<form action="/q"><input type="search" name="q"><button>Go</button></form>',
        # a page wrapped in one form (ASP.NET): too long to be a box
        '<form action="/p"><input type="email" name="m">' + _STORY + "</form>",
    ],
)
def test_other_forms_stay(form: str) -> None:
    tree = lxml.html.fromstring(f"<html><body><div>{form}</div></body></html>")
    assert sign_up_box(next(tree.iter("form"))) is None


def test_a_section_introduction_beside_a_form_stays() -> None:
    """A section whose own text is longer than a heading and a line of promises (a
    service page's introduction beside its booking form) is no part of the box."""
    intro = "<p>" + "We help your team read its data and act on it. " * 10 + "</p>"
    tree = lxml.html.fromstring(
        f'<html><body><section class="intro"><h1>Analytics</h1>{intro}<div class="cta">'
        '<h3>Book a call</h3><form><input type="email" name="e"></form></div></section>'
        f"{_STORY}</body></html>"
    )
    box = sign_up_box(next(tree.iter("form")))
    assert box is not None and box.get("class") == "cta"
    without_sign_ups(tree.iter("form"))
    assert "We help your team" in tree.text_content()


def test_a_form_whose_email_field_went_is_still_a_box() -> None:
    tree = lxml.html.fromstring(f"<html><body><div>{BOX}</div>{_STORY}</body></html>")
    field = next(tree.iter("input"))
    note_email_field(field)
    field.getparent().remove(field)
    form = next(tree.iter("form"))
    assert form.get(ASKS_EMAIL) == ""
    assert sign_up_box(form) is not None
    other = lxml.html.fromstring('<form><input type="text" name="n"></form>')
    note_email_field(next(other.iter("input")))
    assert other.get(ASKS_EMAIL) is None


NEWS = f"""<html lang="en"><head><title>The mountain road reopens</title>
<meta property="og:type" content="article"></head><body><article>
<h1>The mountain road reopens</h1>{_STORY[:400]}
<div class="promo-slot"><section><h2>Weekend Dispatch</h2></section><section>
<p>Sign up to get the best stories of the week, picked by the editors.</p>
<form method="POST" action="https://mail.example/submit"><input type="email" name="MAIL"
placeholder="Your address"><input type="checkbox" name="other"><button>Go</button></form>
</section></div>{_STORY[400:]}</article></body></html>"""


def test_the_main_text_leaves_the_sign_up_box_out() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://news.example/road", NEWS)) or ""
    assert "Paragraph 5 of the story" in text
    assert "Weekend Dispatch" not in text
    assert "best stories of the week" not in text


def test_a_short_post_around_a_box_stays() -> None:
    """A brief whose whole text is shorter than a box (no ``<article>``, a sign-up form
    in its block) keeps its headline and text: a box never grows into the block that
    holds the page's headline."""
    brief = "<p>The mountain road reopens on Monday after the spring repairs.</p>"
    tree = lxml.html.fromstring(
        f'<html><body><div class="content"><h1>Road reopens</h1>{brief}'
        '<div class="signup"><h3>Our newsletter</h3><form><input type="email" name="e">'
        "</form></div></div></body></html>"
    )
    box = sign_up_box(next(tree.iter("form")))
    assert box is not None and box.get("class") == "signup"
    without_sign_ups(tree.iter("form"))
    text = tree.text_content()
    assert "Road reopens" in text and "mountain road" in text and "Our newsletter" not in text
