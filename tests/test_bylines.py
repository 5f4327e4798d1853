"""Authors from a page's bylines, and author names made clean."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.bylines import author_name, byline_texts


def tree(body: str) -> object:
    return Selector(text=f"<html><body>{body}</body></html>", type="html").root


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Jane Doe", "Jane Doe"),
        ("By Jane Doe", "Jane Doe"),
        ("by Jane Doe on March 4, 2021", "Jane Doe"),
        ("Posted by Jane Doe | 4 min read", "Jane Doe"),
        ("Written by Lena Park", "Lena Park"),
        ("Sam Lee, March 3, 2020", "Sam Lee"),
        ("Von Petra Hoffmann am 14. Mai 2020", "Petra Hoffmann"),
        ("Autorin: Anna Schmidt", "Anna Schmidt"),
        ("Par Marie Dupont le 12 mars", "Marie Dupont"),
        ("Por Carlos Ruiz", "Carlos Ruiz"),
        ("Door Pieter de Vries", "Pieter de Vries"),
        # Czech, Slovak, Polish, Hungarian, Romanian
        ("Autor: Jan Novák", "Jan Novák"),
        ("Napsal Jan Novák, 4. března 2021", "Jan Novák"),
        ("Napsala: Jana Nováková", "Jana Nováková"),
        ("Autorka: Mária Kováčová", "Mária Kováčová"),
        ("Napísal Peter Horváth", "Peter Horváth"),
        ("Napisał Jan Kowalski", "Jan Kowalski"),
        ("Napisała Anna Nowak", "Anna Nowak"),
        ("Szerző: Kovács János", "Kovács János"),
        ("Írta: Nagy Péter", "Nagy Péter"),
        ("Írta Nagy Péter", "Nagy Péter"),
        ("Scris de Ion Popescu", "Ion Popescu"),
        ("Publicat de Maria Ionescu", "Maria Ionescu"),
        ("Jane Doe @janedoe", "Jane Doe"),
        ("Konstantin @ Four Years", "Konstantin"),
        ("Jane Doe (jane@example.com)", "Jane Doe"),
        ("Jean-Luc Picard", "Jean-Luc Picard"),
        ("Ayush Kumar Shah, PhD", "Ayush Kumar Shah"),  # a degree after a comma
        ("Jane Doe, Ph.D.", "Jane Doe"),
        ("Sam Lee, MD", "Sam Lee"),
        ("Martin Luther King, Jr.", "Martin Luther King, Jr"),  # no degree: kept
        ("@janedoe", None),
        ("https://example.com/author/jane", None),
        ("12.03.2020", None),
        ("", None),
        ("A very long sentence that is certainly not the name of anybody at all here", None),
        # A label alone names nobody: the name is in the next element, or nowhere.
        ("By", None),
        ("Posted", None),
        ("Publiziert am", None),
        ("Geschrieben von", None),
        ("Replying to", None),
        ("回答者：", None),
        # A picture's credit is its photographer's.
        ("Фото: Алексей Меринов", None),
        ("Foto: Anna Schmidt", None),
        # Labels and roles around a name.
        ("Erstellt von Andri Bryner", "Andri Bryner"),
        ("Artikel von: hausinfo", "hausinfo"),
        ("Interview: Julia Lauter", "Julia Lauter"),
        ("Recueilli par Patrick Angevin", "Patrick Angevin"),
        ("Amitai Winehouse For Mailonline", "Amitai Winehouse"),
        ("Sara Zinnecker Stand: 01.02.2022", "Sara Zinnecker"),
        ("Linkin Park", "Linkin Park"),  # a label's word inside a name stays
    ],
)
def test_author_names_are_cleaned(value: str, expected: str | None) -> None:
    assert author_name(value) == expected


def test_explicit_markup_first_then_byline_classes_then_author_classes() -> None:
    html = (
        "<span class='author-card-title'>Editor's pick</span>"
        "<div class='byline'>By Kim Lo</div>"
        "<a rel='author' href='/u/ann'>Ann Lee</a>"
    )
    assert byline_texts(tree(html)) == ["Ann Lee"]
    assert byline_texts(tree("<div class='byline'>By Kim Lo</div>")) == ["By Kim Lo"]


def test_by_lines_without_markup() -> None:
    html = "<article><h1>T</h1><p>By <a href='/me'>Tom Ray</a></p><p>Body</p></article>"
    assert byline_texts(tree(html)) == ["By Tom Ray"]


def test_by_in_the_middle_of_a_sentence_is_no_byline() -> None:
    html = (
        "<article><p>Set the theme in <code>pelicanconf.py</code> by adding this line:</p>"
        "<p>Check the list <em>first</em> by running:</p></article>"
    )
    assert byline_texts(tree(html)) == []
    spans = "<article><div class='meta'><span>Posted</span> by <a>Tom Ray</a></div></article>"
    assert byline_texts(tree(spans)) == ["Posted by Tom Ray"]


def test_a_heading_that_starts_with_by_the_is_no_byline() -> None:
    """A topic page's section "By the digits", "By the numbers": "by" and a determiner,
    no name."""
    for line in ("By the digits", "By the numbers", "By a landslide", "By our readers"):
        html = f"<main><h1>Beyond Silicon Valley</h1><h3>{line}</h3><p>Stories.</p></main>"
        assert byline_texts(tree(html)) == [], line
    html = "<article><h1>T</h1><p>By Theo Ray</p><p>By Anna the Great</p></article>"
    assert byline_texts(tree(html)) == ["By Theo Ray", "By Anna the Great"]


def test_comments_sidebars_and_footers_are_not_bylines() -> None:
    html = (
        "<div id='comments'><span class='comment-author'>Reader One</span></div>"
        "<aside><span class='author'>Widget Person</span></aside>"
        "<footer><p>By Site Owner</p></footer>"
    )
    assert byline_texts(tree(html)) == []


def test_an_articles_own_footer_holds_its_byline() -> None:
    html = "<article><p>Text</p><footer class='entry-footer'><span class='byline'>By Ann Lee</span></footer></article>"
    assert byline_texts(tree(html)) == ["By Ann Lee"]


def test_screen_reader_labels_are_left_out() -> None:
    html = (
        "<header class='entry-header header-footer-group'><li class='post-author'>"
        "<span class='screen-reader-text'>Post author</span> By <a>Petra Hoffmann</a></li></header>"
    )
    assert byline_texts(tree(html)) == ["By Petra Hoffmann"]


def test_no_tree_no_bylines() -> None:
    assert byline_texts(None) == []


#: The author's profile beside a post, as Minimal Mistakes (and academicpages, made from
#: it) writes it: in the sidebar, outside the article, on every post.
PROFILE = (
    "<div id='main'><div class='sidebar sticky'><div itemscope class='h-card'>"
    "<div class='author__avatar'><img src='/me.jpg' alt='Mina Rao, PhD'></div>"
    "<div class='author__content'><h3 class='author__name p-name'>Mina Rao, PhD</h3>"
    "<p class='author__bio'>Research engineer</p></div></div></div>"
    "<article class='page'><h1 class='page__title'>Common commands</h1>"
    "<section class='page__content'><p>Text.</p></section></article></div>"
)


def test_the_authors_profile_beside_the_post_names_its_author() -> None:
    assert byline_texts(tree(PROFILE)) == ["Mina Rao, PhD"]
    assert author_name(byline_texts(tree(PROFILE))[0]) == "Mina Rao"


def test_a_byline_in_the_post_comes_before_the_profile() -> None:
    html = PROFILE.replace("<p>Text.</p>", "<p class='byline'>By Tom Ray</p><p>Text.</p>")
    assert byline_texts(tree(html)) == ["By Tom Ray"]


def test_a_profile_card_in_the_footer_or_comments_is_no_author() -> None:
    footer = (
        "<article><p>Text.</p></article><footer><h3 class='author__name'>Site Owner</h3></footer>"
    )
    comments = (
        "<article><p>Text.</p></article><div id='comments'><b class='author__name'>Reader</b></div>"
    )
    assert byline_texts(tree(footer)) == []
    assert byline_texts(tree(comments)) == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<p>Autor: <a href='/autori/novak'>Jan Novák</a></p>", ["Autor: Jan Novák"]),
        (
            "<div class='meta'>Napsal Jan Novák, 4. března 2021</div>",
            ["Napsal Jan Novák, 4. března 2021"],
        ),
        ("<p>Napisała Anna Nowak</p>", ["Napisała Anna Nowak"]),
        ("<span>Szerző: Kovács János</span>", ["Szerző: Kovács János"]),
        ("<p>Írta Nagy Péter</p>", ["Írta Nagy Péter"]),
        ("<p>Scris de Ion Popescu</p>", ["Scris de Ion Popescu"]),
        ("<p>Author: Jane Doe</p>", ["Author: Jane Doe"]),
    ],
)
def test_bylines_in_other_languages(line: str, expected: list[str]) -> None:
    html = f"<article><h1>Titulek článku</h1>{line}<p>Text článku.</p></article>"
    assert byline_texts(tree(html)) == expected


def test_an_author_in_a_books_details_is_no_byline() -> None:
    # a bookshop's details list the book's author, not the page's
    html = "<main><h1>Kniha</h1><ul><li>Autor: Jan Novák</li><li>Stran: 310</li></ul></main>"
    assert byline_texts(tree(html)) == []
    # and a sentence that starts with the word is no label
    assert byline_texts(tree("<article><p>Autor textu děkuje všem.</p></article>")) == []


@pytest.mark.parametrize(
    "html",
    [
        # a German heading "from X to Y" and its line in the table of contents
        (
            "<article><ul><li><a href='#von-bitkeeper-zu-git'>Von BitKeeper zu Git</a></li></ul>"
            "<h2 id='von-bitkeeper-zu-git'>Von BitKeeper zu Git</h2><p>Text.</p></article>"
        ),
        "<article><h2>Von der Idee zum Produkt</h2><p>Text.</p></article>",
        # a step of a list that starts with "von" and a determiner
        (
            "<article><ul><li>von jedem Quarz-Pin ein 22pF Kondensator nach Masse führen</li></ul>"
            "</article>"
        ),
        # French: "par" and a determiner, "par exemple"
        "<article><p>Par la suite, nous verrons.</p><ul><li>par exemple un arbre</li></ul></article>",
    ],
)
def test_a_phrase_that_starts_with_von_or_par_is_no_byline(html: str) -> None:
    assert byline_texts(tree(html)) == []


def test_german_and_french_bylines_still_read() -> None:
    assert byline_texts(tree("<article><p>Von Petra Hoffmann</p></article>")) == [
        "Von Petra Hoffmann"
    ]
    assert byline_texts(tree("<article><p>Par Marie Dupont</p></article>")) == ["Par Marie Dupont"]
    assert byline_texts(tree("<article><p>Von der Leyen, Ursula</p></article>")) == [
        "Von der Leyen, Ursula"
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("grnd0s", "grnd0s"), ("By k8smaster", "k8smaster"), ("Jane Doe 12. März 2021", "Jane Doe")],
)
def test_a_handle_with_digits_keeps_them(value: str, expected: str) -> None:
    assert author_name(value) == expected
