"""Whether an element is shown to a reader, as far as its own markup says."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.shown import hidden_by_markup


@pytest.mark.parametrize(
    ("markup", "hidden"),
    [
        ("<div>x</div>", False),
        ("<div hidden>x</div>", True),
        ("<div aria-hidden='true'>x</div>", True),
        ("<div aria-hidden='false'>x</div>", False),
        ("<div style='display:none'>x</div>", True),
        ("<div style='color: red; DISPLAY : None;'>x</div>", True),
        ("<div style='visibility: hidden'>x</div>", True),
        ("<div style='display: block'>x</div>", False),
        ("<span class='price visually-hidden'>x</span>", True),
        ("<span class='sr-only'>x</span>", True),
        ("<span class='screen-reader-text'>x</span>", True),
        ("<span class='sr-only md:not-sr-only'>x</span>", False),
        # closed tabs and accordion panels are hidden by utility classes a reader undoes
        ("<div class='hidden'>x</div>", False),
        ("<div class='d-none'>x</div>", False),
        ("<div class='visually-hidden-focusable-not'>x</div>", False),
        # a closed tab panel, and a block the browser's find in page opens, are read
        ("<div role='tabpanel' hidden>x</div>", False),
        ("<div role='tabpanel' aria-hidden='true'>x</div>", False),
        ("<div hidden='until-found'>x</div>", False),
        ("<div role='tab' hidden>x</div>", True),
        ("<div role='region' aria-hidden='true'>x</div>", True),
    ],
)
def test_hidden_by_markup(markup: str, hidden: bool) -> None:
    assert hidden_by_markup(lxml.html.fragment_fromstring(markup)) is hidden
