"""A thread found by the shape of its posts: sibling blocks of one tag and class, each
linking its writer to a profile page, read as the posts whatever software wrote them (a
table row a comment, a ``<div>`` a post); a listing's teasers, a side bar's members and
an avatar's initial are not posts or names."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract import maintext, repeatedposts, threadposts
from webrobot.extract.page import SourcePage

COMMENTS = [
    (
        "harbourmaster",
        "The new ferry timetable starts on Monday and the morning boats run more often.",
    ),
    ("quay_walker", "Twenty minutes between boats in the morning is a real improvement for us."),
    ("old_sailor", "The evening boats are still hourly, which is a pity for people who work late."),
    ("river_fan", "Thanks, that settles it: I will take the early boat and come back by bus."),
]


def _row(name: str, said: str) -> str:
    """A comment as a table row, its writer in a header of links (Hacker News's shape)."""
    return (
        '<tr class="athing comtr"><td><table><tr><td class="ind"><img src="s.gif"></td>'
        f'<td class="default"><div><span class="comhead"><a href="user?id={name}" '
        f'class="hnuser">{name}</a> <span class="age"><a href="item?id=1">2 hours ago</a>'
        '</span> <a href="#up">parent</a> | <a href="#next">next</a></span></div>'
        f'<div class="comment"><div class="commtext c00">{said}</div>'
        '<div class="reply"><a href="reply?id=1">reply</a></div></div></td></tr></table>'
        "</td></tr>"
    )


def _table_thread(rows: str) -> str:
    return (
        "<html><head><title>Ferry timetable | News</title></head><body><center><table>"
        "<tr><td><a href='news'>new</a> | <a href='past'>past</a> | <a href='login'>login</a>"
        f"</td></tr><tr><td><table class='comment-tree'>{rows}</table></td></tr>"
        "<tr><td><a href='faq'>FAQ</a> | <a href='lists'>Lists</a></td></tr>"
        "</table></center></body></html>"
    )


def _div_post(name: str, said: str, avatar: str = "") -> str:
    """A post as a ``<div>`` whose heading links to its writer's profile (Simple
    Machines' shape), an edit line and a permalink in its header."""
    return (
        f'<div class="windowbg"><div class="post_wrapper"><div class="poster">{avatar}'
        f'<h4><a href="index.php?action=profile;u=12">{name}</a></h4>'
        "<ul><li>Newbie</li><li>Posts: 12</li></ul></div>"
        '<div class="postarea"><div class="keyinfo"><h5><a href="index.php?topic=5.msg7#msg7">'
        "Re: Ferry timetable</a></h5><span>June 04, 2024</span></div>"
        f'<div class="post"><div class="inner">{said}<br>{said}</div></div></div></div></div>'
    )


def _page(posts: str, aside: str = "") -> str:
    return (
        "<html><head><title>Ferry timetable</title></head><body>"
        "<nav><a href='/'>Forums</a> <a href='/help'>Help</a></nav>"
        f"<div class='thread'>{posts}</div>{aside}<footer>Powered by a forum</footer>"
        "</body></html>"
    )


def _root(html: str) -> object:
    return lxml.html.fromstring(html)


def _main_text(html: str) -> str | None:
    return maintext.main_text(SourcePage("", html, root=Selector(text=html, type="html").root))


def test_a_thread_of_table_rows_is_read_as_its_comments_each_after_its_writer() -> None:
    html = _table_thread("".join(_row(name, said) for name, said in COMMENTS))
    found = repeatedposts.posts(_root(html))
    assert [name for _, _, name in found] == [name for name, _ in COMMENTS]
    assert [body.get("class") for _, body, _ in found] == ["commtext c00"] * 4
    text = _main_text(html) or ""
    lines = text.splitlines()
    for name, said in COMMENTS:
        assert said in lines
        assert lines[lines.index(said) - 1] == name
    assert "reply" not in lines and "2 hours ago" not in text


def test_posts_whose_heading_links_to_the_writer_are_posts_not_teasers() -> None:
    html = _page("".join(_div_post(name, said) for name, said in COMMENTS))
    found = repeatedposts.posts(_root(html))
    assert [name for _, _, name in found] == [name for name, _ in COMMENTS]
    thread = threadposts.shaped_reading(_root(html), None) or ""
    expected = [line for n, s in COMMENTS for line in (n, "June 04, 2024", s, s)]
    assert thread.splitlines() == expected


def test_an_avatars_initial_is_no_writers_name() -> None:
    avatar = '<a href="index.php?action=profile;u=12" class="avatar">{}</a>'
    posts = "".join(_div_post(n, s, avatar.format(n[0].upper())) for n, s in COMMENTS)
    found = repeatedposts.posts(_root(_page(posts)))
    assert [name for _, _, name in found] == [name for name, _ in COMMENTS]


def test_a_listings_teasers_are_no_thread() -> None:
    teasers = "".join(
        f'<div class="teaser"><h2><a href="/news/{i}">{said[:30]}</a></h2>'
        f'<p>By <a href="/members/{name}">{name}</a></p><p>{said}</p></div>'
        for i, (name, said) in enumerate(COMMENTS)
    )
    assert repeatedposts.posts(_root(_page(teasers))) == []


def test_a_side_bars_members_are_no_thread() -> None:
    article = "".join(f"<p>{said} {said} {said}</p>" for _, said in COMMENTS)
    members = "".join(
        f'<li class="member"><a href="/members/{name}">{name}</a> joined today</li>'
        for name, _ in COMMENTS
    )
    html = _page(f"<article>{article}</article>", f"<aside><ul>{members}</ul></aside>")
    assert repeatedposts.posts(_root(html)) == []


def test_two_posts_are_no_thread_and_a_longer_reading_is_kept() -> None:
    two = _page("".join(_div_post(name, said) for name, said in COMMENTS[:2]))
    assert repeatedposts.posts(_root(two)) == []
    html = _page("".join(_div_post(name, said) for name, said in COMMENTS))
    longer = "x" * 2000
    assert threadposts.shaped_reading(_root(html), longer) is None


def test_profile_links_are_told_by_their_path_or_query() -> None:
    for href in (
        "user?id=caprock",
        "index.php?action=profile;u=261870",
        "member.php?u=1370162",
        "/members/spartan14.887916/",
        "/u/someone",
        "memberlist.php?mode=viewprofile&u=5",
        "//slashdot.org/~someone",
    ):
        assert repeatedposts._profile(href), href
    for href in ("/wanted-members-looking-hire-you", "/news/users-guide-2024", "#p5", "/"):
        assert not repeatedposts._profile(href), href


def test_a_posts_shown_date_follows_its_writer_and_a_writers_card_is_no_date() -> None:
    card = '<dd class="profile-joined">Joined: 14. Sep 2019</dd><span>Joined Nov 2024</span>'
    posts = "".join(_div_post(name, f"{said} {said}", card) for name, said in COMMENTS)
    root = _root(_page(posts))
    found = repeatedposts.posts(root)
    assert [repeatedposts.shown_date(post, body) for post, body, _ in found] == [
        "June 04, 2024"
    ] * 4
    table = _root(
        _table_thread(
            "".join(_row(n, s).replace("2 hours ago", "on Dec 26, 2023") for n, s in COMMENTS)
        )
    )
    lines = (threadposts.shaped_reading(table, None) or "").splitlines()
    assert lines[:3] == [COMMENTS[0][0], "on Dec 26, 2023", COMMENTS[0][1]]


def test_a_date_inside_the_body_is_the_posts_text_not_its_shown_date() -> None:
    said = "We sailed on 12 May 2019 and came back the next week, tired but happy."
    posts = "".join(
        _div_post(name, said).replace("<span>June 04, 2024</span>", "") for name, _ in COMMENTS
    )
    found = repeatedposts.posts(_root(_page(posts)))
    assert found and all(repeatedposts.shown_date(p, b) is None for p, b, _ in found)


def test_a_pages_header_content_and_footer_are_no_thread() -> None:
    story = "".join(f"<p>{said} {said}</p>" for _, said in COMMENTS * 3)
    html = (
        "<html><body>"
        '<div><a href="/user/login">Sign in</a> <a href="/">Home</a></div>'
        f'<div><h1>Ferry timetable</h1><p>By <a href="/members/harbourmaster">harbourmaster</a>'
        f"</p>{story}</div>"
        '<div><a href="/users/">Our members</a> <a href="/contact">Contact</a></div>'
        "</body></html>"
    )
    assert repeatedposts.posts(_root(html)) == []


def _blog_post_with_comments(comments: int) -> str:
    """A blog post (no og:type, no JSON-LD) and under it its readers' comments, each
    naming its writer by a link to a profile (Blogger's ``/profile/`` links)."""
    post = " ".join(
        f"The harbour walk is a pleasant way to spend a morning, sentence {i} of the post."
        for i in range(14)
    )
    rows = "".join(
        f'<li class="comment"><div class="comment-author"><a href="https://www.blogger.com/'
        f'profile/{i}123">Reader {i}</a> said on March {i + 1}, 2024</div>'
        '<div class="comment-body"><p>'
        + " ".join(
            f"I walked the harbour too, comment {i} line {j}, lovely light." for j in range(4)
        )
        + "</p></div></li>"
        for i in range(comments)
    )
    return (
        "<html><head><title>Harbour walk</title></head><body><div class='post'>"
        f"<h1>A morning on the harbour walk</h1><div class='post-body'><p>{post}</p>"
        f"<p>{post[:600]}</p></div></div><div class='comments'><h3>Comments</h3><ol>{rows}</ol>"
        "</div></body></html>"
    )


def test_a_blog_posts_comments_never_stand_in_for_the_post() -> None:
    """The comments have a thread's shape and hold most of the page, but the reading
    kept the post, which is longer than any comment and not one of them."""
    page = SourcePage("https://blog.example/2024/03/harbour.html", _blog_post_with_comments(10))
    assert repeatedposts.posts(_root(_blog_post_with_comments(10)))  # the comments' shape
    text = maintext.main_reading(page).text or ""
    assert "sentence 3 of the post" in text


def test_a_blog_post_written_without_paragraphs_is_read_not_its_comments() -> None:
    """Blogger writes a post's body as text and line breaks in a ``<div>``, no ``<p>``."""
    html = _blog_post_with_comments(10)
    start, end = (
        html.index("<div class='post-body'>"),
        html.index("</div></div><div class='comments'>"),
    )
    body = html[start:end].replace("<p>", "").replace("</p>", "<br>")
    html = html[:start] + body + html[end:]
    assert "<p>sentence" not in html and "<br>" in html
    text = maintext.main_reading(SourcePage("https://blog.example/2024/03/harbour.html", html)).text
    assert "sentence 3 of the post" in (text or "")


def test_a_slug_that_abbreviates_with_dots_is_no_profile() -> None:
    """ "u.s." in a story's address is no ``/u/`` profile; ``/u/name`` still is."""
    for href in ("/news/2024/u.s.-election-results", "/world/u.k./budget"):
        assert not repeatedposts._profile(href), href
    assert repeatedposts._profile("/u/someone")
    assert repeatedposts._profile("member.php?u=3")


def test_a_shown_date_that_names_the_writer_is_the_posts_first_line_alone() -> None:
    """A header that says "<writer> said on <day>" in one element is read once, not
    after the writer's name again."""
    posts = "".join(
        f'<div class="comment"><p class="said"><a href="/profile/{name}">{name}</a> said on '
        f'March 1, 2024</p><div class="text">{said} {said}</div></div>'
        for name, said in COMMENTS
    )
    lines = (threadposts.shaped_reading(_root(_page(posts)), None) or "").splitlines()
    assert lines[:2] == [
        f"{COMMENTS[0][0]} said on March 1, 2024",
        f"{COMMENTS[0][1]} {COMMENTS[0][1]}",
    ]
    assert sum(COMMENTS[1][0] in line for line in lines) == 1
