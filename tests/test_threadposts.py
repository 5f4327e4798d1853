"""A forum thread read from the schema.org microdata of its posts: every post, each
after its writer's name; a blog post's comments and an FAQ's answers never stand in for
the page's text."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract import maintext, threadposts
from webrobot.extract.page import SourcePage

POSTS = [
    ("river_fan", "Has anyone tried the new ferry timetable since the harbour reopened on Monday?"),
    ("quay_walker", "Yes, the morning boats now leave every twenty minutes instead of every hour."),
    ("old_sailor", "The evening boats are still hourly, which is a pity for people who work late."),
    ("river_fan", "Thanks, that settles it: I will take the early boat and come back by bus."),
]
SCHEMA = "https://schema.org/"


def _post(name: str, said: str, kind: str = "Comment", quote: str = "") -> str:
    return (
        f'<article class="message" itemscope itemtype="{SCHEMA}{kind}">'
        f'<div class="user" itemprop="author" itemscope itemtype="{SCHEMA}Person">'
        f'<h4><a href="/members/{name}" itemprop="name">{name}</a></h4></div>'
        f'<div class="body" itemprop="text">{quote}<p>{said}</p></div>'
        '<div class="actions"><a href="#">Like</a> <a href="#">Reply</a></div></article>'
    )


def _thread(posts: str, head: str = "") -> str:
    return (
        f"<html><head><title>Ferry timetable</title>{head}</head><body>"
        "<nav><a href='/'>Forums</a></nav><h1>Ferry timetable</h1>"
        f"<div class='thread'>{posts}</div>"
        "<aside><h3>Similar threads</h3><ul><li><a href='/t/1'>Bus times</a></li></ul></aside>"
        "</body></html>"
    )


def test_every_post_is_read_after_its_writers_name() -> None:
    quote = '<blockquote class="quote">river_fan said: Has anyone tried it?</blockquote>'
    posts = [_post(*POSTS[0], kind="DiscussionForumPosting")]
    posts += [
        _post(name, said, quote=quote if i == 2 else "")
        for i, (name, said) in enumerate(POSTS[1:], 1)
    ]
    text = threadposts.thread_text(lxml.html.fromstring(_thread("".join(posts))))
    assert text is not None
    lines = text.splitlines()
    for name, said in POSTS:
        assert said in lines
        assert lines[lines.index(said) - 1] in (name, "river_fan said: Has anyone tried it?")
    assert "Like" not in text and "Similar threads" not in text


def test_the_main_text_of_a_thread_holds_all_its_posts() -> None:
    html = _thread("".join(_post(*post) for post in POSTS))
    text = maintext.main_text(SourcePage("", html, root=Selector(text=html).root)) or ""
    lines = text.splitlines()
    assert [said for _, said in POSTS] == [
        line for line in lines if line in {said for _, said in POSTS}
    ]
    assert all(name in lines for name, _ in POSTS)


def test_comments_under_a_post_and_answers_of_an_faq_are_left_as_they_are() -> None:
    article = "<p>" + "The harbour reopened on Monday after two years of work. " * 8 + "</p>"
    comments = "".join(_post(name, said * 3) for name, said in POSTS)
    root = lxml.html.fromstring(_thread(article + comments))
    assert threadposts.thread_reading(root, article[3:-4]) is None
    faq = "".join(
        f'<div itemscope itemtype="{SCHEMA}Question"><h3 itemprop="name">Q{i}?</h3>'
        f'<div itemscope itemprop="acceptedAnswer" itemtype="{SCHEMA}Answer">'
        f'<div itemprop="text"><p>{said}</p></div></div></div>'
        for i, (_, said) in enumerate(POSTS)
    )
    root = lxml.html.fromstring(_thread(faq))
    assert threadposts.thread_reading(root, POSTS[0][1]) is None


def test_comments_on_a_question_or_an_answer_are_not_posts() -> None:
    comment = _post("critic", "This question was asked before, please search first.")
    question = _post(*POSTS[0], kind="Question").replace("</article>", comment + "</article>")
    answer = _post(*POSTS[1], kind="Answer")
    found = threadposts.posts(lxml.html.fromstring(_thread(question + answer)))
    assert [threadposts.author(item) for item, _ in found] == ["river_fan", "quay_walker"]


def _plain_post(name: str, said: str, when: str = "2008-02-27 09:21 UTC") -> str:
    return (
        f'<article class="post">\n<div class="post-head">\n<span class="post-author">{name}</span>'
        f'\n<span class="post-date muted">{when}</span>\n</div>\n'
        f'<div class="post-body">{said}</div>\n</article>\n'
    )


#: A thread as a static archive shows it: a long opening post, its lines parted by
#: ``<br>``, and short replies.
OPENING = "<br>\n".join(
    f"{i}. The harbour's ferry timetable changed on Monday, and line {i} now says so."
    for i in range(1, 9)
)


def test_a_thread_without_microdata_is_read_from_its_posts_writers_and_bodies() -> None:
    # A static forum archive: each post an <article> with its writer and its body, no
    # schema.org markup; the reading kept the opening post alone.
    html = (
        "<html><head><title>Ferry timetable · Forum archive</title></head><body>"
        "<header><a href='/'>Forum archive</a></header><main>"
        "<p class='breadcrumbs'><a href='/'>Boards</a> / Harbour / Topic 7</p>"
        "<h1>Ferry timetable</h1><p class='meta'>Started by river_fan · 4 replies</p>"
        + _plain_post(POSTS[0][0], OPENING)
        + "".join(_plain_post(*post) for post in POSTS[1:])
        + "</main><footer>Generated from the forum's database.</footer></body></html>"
    )
    text = maintext.main_text(SourcePage("", html, root=Selector(text=html).root)) or ""
    lines = text.splitlines()
    assert lines[:2] == [
        "river_fan",
        "1. The harbour's ferry timetable changed on Monday, and line 1 now says so.",
    ]
    for name, said in POSTS[1:]:
        assert said in lines and lines[lines.index(said) - 1] == name
    assert "database" not in text


def test_a_listings_teasers_and_a_posts_plain_comments_are_no_thread() -> None:
    teasers = "".join(
        f'<article class="post post-card"><h2><a href="/p/{i}/">Story {i}</a></h2>'
        f'<span class="author">{name}</span><p>{said}</p></article>'
        for i, (name, said) in enumerate(POSTS)
    )
    root = lxml.html.fromstring(_thread(teasers))
    assert threadposts.thread_reading(root, POSTS[0][1]) is None
    # a card whose link holds its title (Ghost's Casper)
    cards = teasers.replace('<h2><a href="/p/', '<a href="/p/').replace("</a></h2>", "</a>")
    cards = cards.replace('/">Story', '/"><h2>Story').replace("</a><span", "</h2></a><span")
    assert "<a href" in cards and "</h2></a>" in cards
    root = lxml.html.fromstring(_thread(cards))
    assert threadposts.thread_reading(root, POSTS[0][1]) is None
    article = "<p>" + "The harbour reopened on Monday after two years of work. " * 8 + "</p>"
    comments = "".join(_plain_post(name, said * 3) for name, said in POSTS)
    root = lxml.html.fromstring(_thread(article + comments))
    assert threadposts.thread_reading(root, article[3:-4]) is None


def test_a_plain_posts_writer_may_follow_an_avatar() -> None:
    # an avatar whose class names the writer, before the element with the writer's name
    def avatar(name: str, said: str) -> str:
        return (
            f'<article class="post"><div class="author-avatar"><img src="/a/{name}.png" alt="">'
            f'</div><span class="author-name">{name}</span><div class="post-body">{said}</div>'
            "</article>"
        )

    root = lxml.html.fromstring(_thread("".join(avatar(*p) for p in POSTS)))
    found = threadposts.posts(root)
    assert [threadposts.author(item) for item, _ in found] == [name for name, _ in POSTS]
    thread = threadposts.thread_reading(root, POSTS[0][1]) or ""
    assert thread.splitlines()[:2] == list(POSTS[0])


def test_a_posts_shown_date_follows_its_writers_name() -> None:
    """Discourse and XenForo show each post's date in a ``<time itemprop="datePublished">``
    beside the writer; a date given only as markup (``<meta>``) or by a post inside the
    item (a reply nested in the opening post) is not the item's own."""

    def dated(name: str, said: str, when: str, kind: str = "Comment", inner: str = "") -> str:
        return (
            f'<div itemscope itemtype="{SCHEMA}{kind}">'
            f"<meta itemprop='datePublished' content='2024-09-22T14:43:36Z'>{inner}"
            f'<span itemprop="author" itemscope itemtype="{SCHEMA}Person">'
            f'<span itemprop="name">{name}</span></span>'
            f"<time itemprop='datePublished' datetime='2024-09-22'>\n  {when}\n</time>"
            f'<div itemprop="text"><p>{said}</p></div></div>'
        )

    replies = "".join(
        dated(name, said, f"September {22 + i}, 2024, 2:4{i}pm")
        for i, (name, said) in enumerate(POSTS[1:], 1)
    )
    opening = (
        f'<div itemscope itemtype="{SCHEMA}DiscussionForumPosting">'
        f"<meta itemprop='datePublished' content='2024-09-22T14:43:36Z'>"
        f'<div itemprop="author" itemscope itemtype="{SCHEMA}Person">'
        f'<span itemprop="name">{POSTS[0][0]}</span></div>'
        f'<div itemprop="articleBody"><p>{POSTS[0][1]}</p></div>{replies}</div>'
    )
    lines = (threadposts.thread_text(lxml.html.fromstring(_thread(opening))) or "").splitlines()
    assert lines[:2] == [POSTS[0][0], POSTS[0][1]]  # the opening post's date is a <meta>
    for i, (name, said) in enumerate(POSTS[1:], 1):
        at = lines.index(said)
        assert lines[at - 2 : at] == [name, f"September {22 + i}, 2024, 2:4{i}pm"]


def _phpbb_post(n: int, name: str, said: str) -> str:
    """A post as phpBB's prosilver theme writes it: no microdata, a ``<div class="post">``
    headed by a link to its own anchor, its text in ``content`` inside ``postbody``."""
    return (
        f'<div id="p{n}" class="post has-profile bg2"><div class="inner">'
        f'<dl class="postprofile"><dt><a href="/u/{n}" class="username">{name}</a></dt>'
        f'<dd class="profile-posts"><strong>Posts:</strong> 1{n}7</dd></dl>'
        f'<div class="postbody"><h3><a href="./viewtopic.php?p={n}#p{n}">Re: Ferries</a></h3>'
        f'<p class="author">by <strong>{name}</strong> » Tue Aug 27, 2019</p>'
        f'<div class="content">{said}</div>'
        f'<div class="signature">{name} sails on Sundays</div></div></div></div>'
    )


def test_a_phpbb_thread_is_read_from_its_post_divs() -> None:
    posts = "".join(_phpbb_post(n, name, said) for n, (name, said) in enumerate(POSTS, 1))
    root = lxml.html.fromstring(_thread(posts))
    found = threadposts.posts(root)
    assert [threadposts.author(post) for post, _ in found] == [name for name, _ in POSTS]
    assert [body.get("class") for _, body in found] == ["content"] * len(POSTS)
    lines = (threadposts.thread_text(root, found) or "").splitlines()
    assert lines == [line for post in POSTS for line in post]  # no header, no signature


def test_a_heading_linking_elsewhere_still_marks_a_teaser() -> None:
    posts = "".join(
        _phpbb_post(n, name, said).replace(f"#p{n}", f"#p{n + 1}")
        for n, (name, said) in enumerate(POSTS, 1)
    )
    assert threadposts.plain_posts(lxml.html.fromstring(_thread(posts))) == []


def test_a_quotes_expand_link_is_left_out_of_the_post() -> None:
    quote = (
        '<blockquote class="bbCodeBlock bbCodeBlock--quote">'
        '<div class="bbCodeBlock-title">river_fan said:</div>'
        '<div class="bbCodeBlock-content">Has anyone tried it?</div>'
        '<div class="bbCodeBlock-expandLink"><a role="button">Click to expand...</a></div>'
        '<div class="bbCodeBlock-shrinkLink"><a role="button">Click to shrink...</a></div>'
        "</blockquote>"
    )
    posts = [_post(*POSTS[0], kind="DiscussionForumPosting")]
    posts += [_post(name, said, quote=quote) for name, said in POSTS[1:]]
    text = threadposts.thread_text(lxml.html.fromstring(_thread("".join(posts)))) or ""
    assert "river_fan said:" in text and "Has anyone tried it?" in text
    assert "Click to" not in text
