"""Authors' names from the values pages give: split, cleaned, each once."""

from __future__ import annotations

import pytest

from webrobot.extract.authornames import author_names


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["By Jane Doe"], ["Jane Doe"]),
        (["Jane Doe and John Roe"], ["Jane Doe", "John Roe"]),
        (["Jane Doe; John Roe", "john roe"], ["Jane Doe", "John Roe"]),
        (["hessenschau.de, Frankfurt, Germany"], ["hessenschau.de"]),
        (["Olympia-Verlag GmbH, Nürnberg, Germany"], ["Olympia-Verlag GmbH"]),
        (["Kirche und Leben, Münster, Germany"], ["Kirche und Leben"]),
        (["Jane Doe und Max"], ["Jane Doe", "Max"]),
        # a semicolon or a bar never joins one name: two agencies, two handles
        (["dpa; AFP"], ["dpa", "AFP"]),
        (["Alice | Bob"], ["Alice", "Bob"]),
        (["Alice & Bob"], ["Alice & Bob"]),
        (["Jane Doe, London"], ["Jane Doe, London"]),  # a one-word part: not two names
        (["https://example.com/jane", "@jane", "www.example.com"], []),
    ],
)
def test_author_names(values: list[str], expected: list[str]) -> None:
    assert author_names(values) == expected
