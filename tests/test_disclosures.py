"""Questions and answers in ``<details>`` (``webrobot/extract/disclosures.py``), and the
main text of an article that closes its FAQ in them."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.disclosures import is_answered, open_answers

ANSWER = (
    "The plate does not define a number of calories or servings a day from each group; "
    "the sections suggest proportions."
)


def _details(html: str) -> object:
    return lxml.html.fragment_fromstring(html)


def test_a_question_and_its_answer_in_prose_are_answered() -> None:
    assert is_answered(
        _details(f'<details class="expandable"><summary>Why?</summary><p>{ANSWER}</p></details>')
    )


@pytest.mark.parametrize(
    "html",
    [
        # a menu's submenu: links only
        (
            '<details class="menu-expand"><summary>Programs</summary><ul><li><a href="/a">'
            'Guitar</a></li><li><a href="/b">Piano</a></li></ul></details>'
        ),
        # references: a list alone
        "<details><summary>References</summary><ol><li>" + ANSWER + "</li></ol></details>",
        # a paragraph that is mostly a link
        f'<details><summary>More</summary><p><a href="/x">{ANSWER}</a> here</p></details>',
        # a short line
        "<details><summary>Note</summary><p>Always active.</p></details>",
        # no summary
        f"<details><p>{ANSWER}</p></details>",
    ],
)
def test_menus_lists_and_short_lines_are_not_answers(html: str) -> None:
    assert not is_answered(_details(html))


def test_only_answers_lose_their_names() -> None:
    tree = lxml.html.fromstring(
        '<div><details class="expandable" id="q1"><summary>Why?</summary>'
        f"<p>{ANSWER}</p></details>"
        '<details class="expandable" id="refs"><summary>References</summary>'
        "<ol><li>A. Author, 2011.</li></ol></details></div>"
    )
    assert open_answers(tree.iter("details")) == 1
    first, second = tree.iter("details")
    assert first.get("class") is None and first.get("id") is None
    assert second.get("class") == "expandable" and second.get("id") == "refs"


_BODY = "".join(
    f"<p>Paragraph {n} of the guide holds words enough to be read as the text of this "
    "article, and then some more words about meals and plates.</p>"
    for n in range(6)
)
GUIDE = f"""<html lang="en"><head><title>The healthy plate</title>
<meta property="og:type" content="article"></head><body><article>
<h1>The healthy plate</h1>{_BODY}<h2>Your questions answered</h2>
<div class="faq"><details class="expandable bg-light"><summary>Is the plate based on
calories?</summary><p>{ANSWER}</p></details>
<details class="expandable bg-light"><summary>Who made the plate?</summary><p>Nutrition
experts of the school of public health made it, with the editors of its health
publications, to fix what the older guides got wrong.</p></details></div>
</article></body></html>"""


def test_the_main_text_keeps_the_questions_and_answers() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://guide.example/plate", GUIDE)) or ""
    assert "Paragraph 5 of the guide" in text
    assert "sections suggest proportions" in text
    assert "Nutrition experts of the school" in text
    assert "Is the plate based on calories?" in text
