"""The consent dialogs no class names, told by what they say, and the main text's
reading of a page that has one."""

from __future__ import annotations

import lxml.html

from webrobot.extract.consentdialog import consent_dialogs, says_consent
from webrobot.extract.pagechrome import reading_tree

_PRODUCT = (
    "<h1>Portman P1 roadcase</h1><p>A hard case for four lights, foam cut to fit, with"
    " wheels and a handle. Ships in two to four weeks.</p>"
)
_BANNER = (
    '<div id="ensNotifyBanner" class="ensNotifyBanner" role="dialog"'
    ' aria-label="Consent Banner"><p>We use cookies to improve your web browsing'
    " experience.</p><button>Accept</button></div>"
)
_SETTINGS = (
    '<section id="ensModalWrapper" role="dialog" aria-modal="true"><h2>Customize your'
    " settings</h2><p>Performance. These technologies collect information about how you"
    " use a website, like which pages you visited.</p><button>Alle akzeptieren</button>"
    "</section>"
)
_SIZE_GUIDE = (
    '<div class="modal" role="dialog"><h2>Size guide</h2><p>Chest 96 cm, waist 81 cm.</p></div>'
)


def _page(body: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(
        f"<html><head><title>Roadcase</title></head><body>{body}</body></html>"
    )


def test_dialogs_that_speak_of_cookies_or_accepting_all_are_found() -> None:
    tree = _page(f'<main><div class="product">{_PRODUCT}</div></main>{_BANNER}{_SETTINGS}')
    found = consent_dialogs(tree)
    assert [element.get("id") for element in found] == ["ensNotifyBanner", "ensModalWrapper"]


def test_a_dialog_that_says_nothing_of_cookies_stays() -> None:
    tree = _page(f"{_PRODUCT}{_SIZE_GUIDE}")
    assert consent_dialogs(tree) == []
    assert not says_consent(tree.find(".//div"))


def test_the_label_alone_tells_a_banner() -> None:
    banner = lxml.html.fragment_fromstring(
        '<div role="alertdialog" aria-label="Cookie settings"><p>Choose.</p></div>'
    )
    assert says_consent(banner)


def test_a_dialog_inside_one_found_is_not_counted_twice() -> None:
    tree = _page(f'<div role="dialog" aria-label="Consent">{_SETTINGS}</div>')
    assert len(consent_dialogs(tree)) == 1


def test_the_reading_tree_loses_the_unnamed_banner_and_keeps_the_size_guide() -> None:
    tree = _page(f'<div class="product">{_PRODUCT}</div>{_SIZE_GUIDE}{_BANNER}{_SETTINGS}')
    text = reading_tree(tree).text_content()
    assert "roadcase" in text
    assert "Chest 96 cm" in text
    assert "We use cookies" not in text
    assert "Performance" not in text


def test_a_dialog_that_holds_the_page_stays() -> None:
    tree = _page(f'<div role="dialog" aria-label="Cookie notice"><main>{_PRODUCT}</main></div>')
    assert "roadcase" in reading_tree(tree).text_content()
