"""Titles without the site's name around them."""

from __future__ import annotations

import pytest

from webrobot.extract.sitetitle import without_site

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
    ],
)
def test_without_site(title: str, sites: list[str], h1s: list[str], expected: str) -> None:
    assert without_site(title, sites, h1s, URL) == expected
