"""A forum post's furniture (``webrobot/extract/forumchrome.py``): the writer's card, the
signature and the edit note, named by the forum software's own classes, left out of a
thread's main text."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.forumchrome import furniture, without_forum_chrome
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage

BODIES = (
    (
        "The new release boots my old guest without trouble, and the shared folders work"
        " again after the upgrade of the additions, which had failed for me since spring."
    ),
    (
        "Same here on a laptop with an older processor: the machine starts, the display"
        " scales as it should and the clipboard is shared both ways without any tweaks."
    ),
    (
        "I still see the audio stutter that was reported last month, so I went back to the"
        " earlier version until someone finds out what changed in the sound driver there."
    ),
)


def _post(n: int, body: str) -> str:
    """A post as vBulletin 4 writes it: the writer's card (title and stats), then the
    body, the edit note and the signature."""
    return f"""
<li class="postbitlegacy postbitim postcontainer" id="post_{n}">
  <div class="posthead"><span class="date">Nov 3rd, 2024</span></div>
  <div class="postdetails">
    <div class="userinfo"><a class="username" href="/member.php?u={n}">writer{n}</a>
      <span class="usertitle">Senior Volunteer Moderator</span>
      <div class="userinfo_extra"><dl class="userstats">
        <dt>Join Date</dt> <dd>Nov 2024</dd> <dt>Posts</dt> <dd>17{n}5</dd>
        <dt>Location</dt> <dd>Lower Saxony</dd></dl></div>
    </div>
    <div class="postbody"><div class="postrow"><div class="content">
      <blockquote class="postcontent restore">{body}</blockquote></div></div>
      <blockquote class="postcontent lastedited">Last edited by writer{n}; Nov 3rd, 2024</blockquote>
      <div class="after_content"><blockquote class="signature restore">
        <div class="signaturecontainer">Grandfather clocks and typewriters repaired</div>
      </blockquote></div>
    </div>
  </div>
</li>"""


def _thread() -> str:
    posts = "".join(_post(n, body) for n, body in enumerate(BODIES, start=1))
    return f"""<html><head><title>Discuss the new release here</title></head><body>
<div id="wrap"><h2 class="topic-title">Discuss the new release here</h2>
<ol id="posts" class="posts">{posts}</ol></div></body></html>"""


def _text(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_a_threads_cards_and_signatures_are_left_out_of_its_text() -> None:
    text = _text(_thread())
    for body in BODIES:
        assert body in text
    for furniture_line in ("Join Date", "Moderator", "Lower Saxony", "Last edited", "Grandfather"):
        assert furniture_line not in text


def test_the_furniture_is_found_by_the_softwares_class_names() -> None:
    root = lxml.html.fromstring(_thread())
    found = furniture(root)
    classes = {element.get("class") for element in found}
    assert classes == {"usertitle", "userinfo_extra", "postcontent lastedited", "signature restore"}
    assert len(found) == 4 * len(BODIES)
    without_forum_chrome(root)
    assert not root.xpath("//*[@class='signaturecontainer' or @class='userstats']")
    assert root.xpath("//a[@class='username']")  # the writer's name stays


def test_a_lone_signature_is_no_threads_furniture() -> None:
    root = lxml.html.fromstring(
        "<html><body><p>Thank you for your support this year.</p>"
        "<div class='signature'>Jane Doe, chair of the board</div></body></html>"
    )
    assert furniture(root) == []
    without_forum_chrome(root)
    assert root.xpath("//div[@class='signature']")


def test_stack_exchanges_writer_card_and_other_classes_are_not_furniture() -> None:
    root = lxml.html.fromstring(
        "<html><body>"
        + "<div class='post-signature'><div class='user-details'>a writer</div></div>" * 3
        + "<div class='signature-dish'>Lamb</div>" * 3
        + "</body></html>"
    )
    assert furniture(root) == []


def test_nested_furniture_is_removed_once_and_the_page_never() -> None:
    root = lxml.html.fromstring(
        "<html><body><main class='signature'><p>Kept.</p></main>"
        + "<div class='signaturecontainer'><div class='signature'>a slogan</div></div>" * 2
        + "</body></html>"
    )
    found = furniture(root)
    assert [element.get("class") for element in found] == ["signaturecontainer"] * 2


def test_a_section_under_its_own_heading_is_no_furniture() -> None:
    """A restaurant's "signature" dishes and wines, each a section with its heading: the
    class name a forum gives its signatures, used for the page's own text."""
    html = """<html><head><title>Casa Olmo, a trattoria in the old town</title></head><body>
<header><nav><a href="/">Home</a> <a href="/menu">Menu</a></nav></header>
<main><h1>Our kitchen</h1>
<p>Casa Olmo has cooked the dishes of the hill villages for three generations, with flour
milled down the valley and oil pressed by our neighbours every November.</p>
<section class="signature"><h2>Signature dishes</h2>
<p>Hand-cut tagliatelle with a slow ragù of beef cheek and pork shoulder, simmered for six
hours and finished with aged parmesan from a dairy we have bought from since 1987.</p>
<p>Chestnut gnocchi with brown butter, sage and a little smoked ricotta, made every morning
from chestnuts dried over a wood fire in the mountains above the town.</p></section>
<section class="signature"><h2>Signature wines</h2>
<p>A dry white from volcanic soil on the eastern slope, cold fermented and bottled young,
which our sommelier pours with the fish of the day and the fried artichokes.</p></section>
</main><footer>© Casa Olmo</footer></body></html>"""
    assert furniture(lxml.html.fromstring(html)) == []
    text = " ".join(_text(html).split())
    for kept in ("Hand-cut tagliatelle", "Chestnut gnocchi", "A dry white from volcanic soil"):
        assert kept in text
