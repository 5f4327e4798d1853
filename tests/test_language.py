"""A page's language: one BCP 47 tag, from the first place that declares one."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract import metadata
from webrobot.extract.headtags import head_tags
from webrobot.extract.language import language_tag, page_language
from webrobot.extract.page import SourcePage


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("en", "en"),
        ("EN-us", "en-US"),
        ("pt_BR", "pt-BR"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("es-419", "es-419"),
        ("de-DE, en;q=0.5", "de-DE"),
        ("English", "en"),
        ("und", None),
        ("{{ lang }}", None),
        ("", None),
        ("x", None),
    ],
)
def test_language_tags(value: str, expected: str | None) -> None:
    assert language_tag(value) == expected


def language_of(
    markup: str, declared: list[str], headers: dict[str, str] | None = None
) -> str | None:
    root = Selector(text=markup, type="html").root
    page = SourcePage(url="https://example.com/", html=markup, root=root, headers=headers or {})
    return page_language(page, root, head_tags(root), declared)


@pytest.mark.parametrize(
    ("markup", "declared", "headers", "expected"),
    [
        (
            '<html lang="fr"><head><meta name="language" content="de"></head></html>',
            ["es"],
            {},
            "fr",
        ),
        ('<html><head><meta name="language" content="de"></head></html>', ["es"], {}, "es"),
        ('<html><head><meta name="language" content="de"></head></html>', [], {}, "de"),
        ('<html><head><meta property="og:locale" content="en_GB"></head></html>', [], {}, "en-GB"),
        ("<html><head></head></html>", ["und"], {"content-language": "pt-br"}, "pt-BR"),
        ("<html><head></head></html>", [], {}, None),
    ],
)
def test_page_language_takes_the_first_place_that_declares_one(
    markup: str, declared: list[str], headers: dict[str, str], expected: str | None
) -> None:
    assert language_of(markup, declared, headers) == expected


def test_the_tag_reader_is_still_importable_from_the_metadata_module() -> None:
    assert metadata.language_tag is language_tag
