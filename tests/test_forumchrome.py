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
    """A post as phpBB's prosilver theme writes it: the writer's card in a ``<dl>``,
    then the body, the edit note and the signature."""
    return f"""
<div id="p{n}" class="post has-profile bg2"><div class="inner">
  <dl class="postprofile" id="profile{n}">
    <dt><a href="./memberlist.php?u={n}" class="username">writer{n}</a></dt>
    <dd class="profile-rank">Senior Volunteer Moderator</dd>
    <dd class="profile-posts"><strong>Posts:</strong> <a href="#">17{n}5</a></dd>
    <dd class="profile-joined"><strong>Joined:</strong> 4. Jul 2012, 16:09</dd>
    <dd class="profile-custom-field profile-location"><strong>Location:</strong> Lower Saxony</dd>
  </dl>
  <div class="postbody">
    <h3><a href="#p{n}">Re: Discuss the new release here</a></h3>
    <div class="content">{body}</div>
    <div class="notice">Last edited by writer{n} on 3. Mar 2024</div>
    <div class="signature">Grandfather clocks and typewriters repaired at fair prices since 1998</div>
  </div>
</div></div>"""


def _thread() -> str:
    posts = "".join(_post(n, body) for n, body in enumerate(BODIES, start=1))
    return f"""<html><head><title>Discuss the new release here</title></head><body>
<div id="wrap"><h2 class="topic-title">Discuss the new release here</h2>
<div id="page-body">{posts}</div></div></body></html>"""


def _text(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_a_threads_cards_and_signatures_are_left_out_of_its_text() -> None:
    text = _text(_thread())
    for body in BODIES:
        assert body in text
    for furniture_line in ("Joined:", "Posts:", "Lower Saxony", "Grandfather clocks"):
        assert furniture_line not in text


def test_the_furniture_is_found_by_the_softwares_class_names() -> None:
    root = lxml.html.fromstring(_thread())
    found = furniture(root)
    classes = {element.get("class") for element in found}
    assert classes == {
        "profile-rank",
        "profile-posts",
        "profile-joined",
        "profile-custom-field profile-location",
        "signature",
    }
    assert len(found) == 5 * len(BODIES)
    without_forum_chrome(root)
    assert not root.xpath("//*[@class='signature' or @class='profile-posts']")
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
