"""Titles without the site's name around them."""

from __future__ import annotations

import pytest

from webrobot.extract.sitetitle import title_parts, without_dangling, without_site

URL = "https://www.example-news.com/2021/03/04/story"


@pytest.mark.parametrize(
    ("title", "sites", "h1s", "expected"),
    [
        ("Post title | The Site", ["The Site"], [], "Post title"),
        ("The Site - Post title", ["The Site"], [], "Post title"),
        ("Post title – The Site", ["the site"], [], "Post title"),
        ("Post title :: News :: The Site", ["The Site"], [], "Post title :: News"),
        ("Post title | example-news.com", [], [], "Post title"),
        ("Post title | Example News", [], [], "Post title"),  # the host, squashed
        ("Welcome to Jekyll! | Jane's Notes", [], ["Welcome to Jekyll!"], "Welcome to Jekyll!"),
        ("Jane's Notes » Welcome", [], ["Welcome"], "Welcome"),
        ("Titre : sous-titre", [], [], "Titre : sous-titre"),  # nothing decides: kept
        ("Spider-Man - A review", ["Other"], [], "Spider-Man - A review"),
        ("Just a title", ["Just a title"], [], "Just a title"),
        ("The Site", ["The Site"], [], "The Site"),
        # A theme that writes "{title} &middot; {site}" for a site with no name set.
        ("Graph Implementation ·", [], [], "Graph Implementation"),
        ("Graph Implementation · ", [], ["Graph Implementation"], "Graph Implementation"),
        ("| Notes on caching", [], [], "Notes on caching"),
        ("Notes on caching -", ["Other"], [], "Notes on caching"),
        ("·", [], [], "·"),  # nothing but a separator: kept
        ("C++: a tour", [], [], "C++: a tour"),  # a colon that is the title's own
        ("« Les matériaux »", [], ["« Les matériaux »"], "« Les matériaux »"),  # quotes
        # Medium: "{title} | by {author} | {publication} | Medium"
        ("Why caching | by Jane Doe | Better Programming | Medium", ["Medium"], [], "Why caching"),
        ("Why caching | by Jane Doe | Medium", ["Medium"], [], "Why caching"),
        ("Why caching - by Jane Doe", [], [], "Why caching"),
        ("Ein Titel | von Jana Novák | Magazin", ["Magazin"], [], "Ein Titel"),
        # a byline's word that starts a phrase is the title's own
        ("Stand by Me | Film notes", ["Film notes"], [], "Stand by Me"),
        ("Report | By the numbers | Site", ["Site"], [], "Report | By the numbers"),
        # a name is written with a capital: "by owner" is a classified ad's category
        (
            "Washing machine - appliances - by owner",
            ["craigslist"],
            [],
            "Washing machine - appliances - by owner",
        ),
        # A theme that writes the post's title as og:site_name: the part the post's
        # own headline starts with is its title, not the site's name.
        (
            "Dart: a fast language - Adaman blog",
            ["Dart: a fast language"],
            ["Dart: a fast language for the web and for phones"],
            "Dart: a fast language",
        ),
        # ... or that heads the post "Author / Post title", as a code host heads a file
        (
            "PostgreSQL 11, a review - Adaman blog",
            ["PostgreSQL 11, a review"],
            ["Artyom / PostgreSQL 11, a review"],
            "PostgreSQL 11, a review",
        ),
        ("Products | Acme", ["Acme"], ["Acme / Products"], "Products"),
        # a long site name before the section's own name in the headline is the site's
        (
            "Podcasts | Harvard Business Review",
            ["Harvard Business Review"],
            ["Harvard Business Review Podcasts"],
            "Podcasts",
        ),
        (
            "Harvard Business Review - Podcasts",
            ["Harvard Business Review"],
            ["Podcasts / Harvard Business Review"],
            "Podcasts",
        ),
        # the site's name as the headline (a theme's <h1> that is the site) still goes
        ("Post title | The Site", ["The Site"], ["The Site"], "Post title"),
        # a short site name that starts the headline by chance still goes
        ("Acme: our new shop | Acme", ["Acme"], ["Acme: our new shop"], "Acme: our new shop"),
    ],
)
def test_without_site(title: str, sites: list[str], h1s: list[str], expected: str) -> None:
    assert without_site(title, sites, h1s, URL) == expected


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Post title · ", "Post title"),
        ("  | Post title", "Post title"),
        ("Post title", "Post title"),
        ("Spider-Man -", "Spider-Man"),
        ("-", "-"),
        ("« Les matériaux de la conservation »", "« Les matériaux de la conservation »"),
    ],
)
def test_without_dangling(title: str, expected: str) -> None:
    assert without_dangling(title) == expected


def test_title_parts() -> None:
    assert title_parts("Dev Env Setup | Derek Chang") == ["Dev Env Setup", "Derek Chang"]
    assert title_parts("Post :: News :: Site ·") == ["Post", "News", "Site"]
    assert title_parts("Just a title") == ["Just a title"]
