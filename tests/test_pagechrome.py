"""The chrome rules on their own: heading self-links, pleas, the pruning XPath."""

from __future__ import annotations

import lxml.etree
import lxml.html

from webrobot.extract.pagechrome import (
    CHROME_XPATH,
    headings,
    reading_tree,
    unlinked_headings,
    without_pleas,
)


def test_a_tree_without_heading_links_is_not_copied() -> None:
    tree = lxml.html.fromstring("<div><h2>Plain</h2><p><a href='#x'>in text</a></p></div>")
    assert unlinked_headings(tree) is tree


def test_heading_links_are_unwrapped_or_dropped_on_a_copy() -> None:
    tree = lxml.html.fromstring(
        "<div><h2><a href='#a'>Words</a></h2><h3>Title<a href='#b'>#</a> tail</h3>"
        "<h4><a href='/elsewhere'>Away</a></h4></div>"
    )
    copy = unlinked_headings(tree)
    assert copy is not tree
    assert [h.text_content() for h in copy.iter("h2", "h3", "h4")] == [
        "Words",
        "Title tail",
        "Away",
    ]
    assert copy.xpath("//a/@href") == ["/elsewhere"]
    assert tree.xpath("//a/@href") == ["#a", "#b", "/elsewhere"]  # the crawl's tree as it was


def test_closing_pleas_are_dropped() -> None:
    text = "First paragraph.\nSecond paragraph.\nIf this helped, buy me a coffee on Ko-fi."
    assert without_pleas(text) == "First paragraph.\nSecond paragraph."
    assert without_pleas("A.\n\nBecome a patron on Patreon.\n\n") == "A."
    assert without_pleas("Hat dir der Text gefallen? Unterstütze mich mit einer Spende.") == (
        "Hat dir der Text gefallen? Unterstütze mich mit einer Spende."
    )  # nothing would be left


def test_a_plea_in_the_body_or_a_long_closing_line_stays() -> None:
    body = "The charity asked for donations after the flood.\nThe river fell by Friday."
    assert without_pleas(body) == body
    news = "The river fell by Friday.\nThe charity asked residents to donate blankets."
    assert without_pleas(news) == news, "money asked for someone else is the story"
    veterans = "A.\nThe fund will support US veterans."
    assert without_pleas(veterans) == veterans
    assert without_pleas("A.\nEvery donation helps me keep writing.") == "A."
    assert without_pleas("A.\nSoutenez notre travail : faire un don.") == "A."
    long_line = "Donations " + "x" * 500
    assert without_pleas("A.\n" + long_line) == "A.\n" + long_line


def test_the_xpath_finds_footers_donation_boxes_and_gutters() -> None:
    tree = lxml.html.fromstring(
        "<html><body><article><p>Text</p><div class='donate-box'>Give</div><section class='donate'>Kept</section>"
        "<table><tr><td class='gutter gl'><pre class='lineno'>1</pre></td><td>code</td></tr></table>"
        "</article><footer>Site</footer><div role='contentinfo'>Info</div></body></html>"
    )
    found = {(e.tag, e.get("class") or e.get("role") or "") for e in tree.xpath(CHROME_XPATH)}
    assert ("div", "donate-box") in found and ("footer", "") in found
    assert ("div", "contentinfo") in found and ("td", "gutter gl") in found
    assert not any(tag in ("p", "section") for tag, _ in found)


def test_the_reading_tree_is_a_pruned_copy() -> None:
    html = (
        "<html><head><meta name='x' content='y'><script>var x = 1;</script>"
        '<script type="application/ld+json">{"@type": "BlogPosting"}</script>'
        "<style>p {}</style></head><body><nav>Menu</nav><article>"
        "<h2><a href='#s'>Section</a></h2><p>Before<!-- note --> after"
        "<svg><path d='M0'/></svg> drawn</p><div class='sponsor-box'>Give</div>"
        "<div role='navigation'>Links</div><noscript>Enable</noscript>"
        "<form><input name='q'><button>Go</button> search<select><option>A</option></select></form>"
        "</article><footer>Site</footer></body></html>"
    )
    tree = lxml.html.fromstring(html)
    copy = reading_tree(tree)
    assert copy is not tree
    assert lxml.html.tostring(tree, encoding="unicode").count("<script") == 2  # untouched
    assert [s.get("type") for s in copy.iter("script")] == ["application/ld+json"]
    assert not list(copy.iter("style", "svg", "nav", "footer", lxml.etree.Comment))
    assert not list(copy.iter("meta", "button", "input", "select", "option"))
    assert copy.xpath("//form")[0].text_content() == " search"  # tails stay
    assert copy.xpath("//p")[0].text_content() == "Before after drawn"
    assert copy.xpath("//h2")[0].text_content() == "Section" and not copy.xpath("//h2//a")
    body = copy.text_content()
    assert "Give" not in body and "Links" not in body and "Enable" in body
    # the same nodes as the pruning expression trafilatura was given
    assert tree.xpath(CHROME_XPATH) and not copy.xpath(CHROME_XPATH)
    # a plain copy: its form is no FormElement (see htmltree.plain_copy)
    assert type(copy.xpath("//form")[0]) is lxml.html.HtmlElement


def _words(n: int) -> str:
    return " ".join(f"word{i}" for i in range(n))


def test_a_chrome_node_holding_the_page_is_kept() -> None:
    # broken markup leaving the article inside a menu button, a content class that names
    # an "unsponsored" post: the node is the page, not chrome
    for wrapper in (
        "<button class='menu'>{}</button>",
        "<div class='unsponsored-post main-content'>{}</div>",
        "<nav class='wrap'>{}</nav>",
    ):
        article = "".join(f"<p>{_words(60)}.</p>" for _ in range(5))
        tree = lxml.html.fromstring(
            "<html><body><div class='top'><a href='/'>Home</a></div>"
            + wrapper.format(article)
            + "</body></html>"
        )
        kept = reading_tree(tree)
        assert len(kept.xpath("//p")) == 5, wrapper


def test_a_menu_holding_most_of_the_page_is_still_pruned() -> None:
    menu = "".join(f"<li><a href='/{i}'>{_words(8)}</a></li>" for i in range(40))
    tree = lxml.html.fromstring(
        f"<html><body><nav><ul>{menu}</ul></nav><p>{_words(30)}</p></body></html>"
    )
    pruned = reading_tree(tree)
    assert not pruned.xpath("//nav") and not pruned.xpath("//a")
    assert len(pruned.xpath("//p")) == 1


def test_small_chrome_is_pruned_whatever_its_share() -> None:
    tree = lxml.html.fromstring("<html><body><footer><p>Only text</p></footer></body></html>")
    assert not reading_tree(tree).xpath("//footer")


def test_buttons_and_option_lists_stay_when_asked() -> None:
    tree = lxml.html.fromstring(
        "<html><body><nav>Menu</nav><button>Week 1</button>"
        "<select><option>2025</option></select><p>Text</p></body></html>"
    )
    assert reading_tree(tree).xpath("//button") == []
    kept = reading_tree(tree, unread=False)
    assert kept.xpath("//button") and kept.xpath("//option")
    assert not kept.xpath("//nav")


def test_cookie_consent_banners_are_pruned() -> None:
    banner = (
        "<div id='onetrust-consent-sdk'><div class='ot-sdk-container'><h2>Your Privacy</h2>"
        f"<p>{_words(200)}</p></div></div>"
        "<div class='theme-fx spicy-Consent-wrapper'><h4>Served with love!</h4></div>"
        "<div class='cookie-bar'><p>We use cookies.</p></div>"
    )
    tree = lxml.html.fromstring(
        f"<html><body>{banner}<main><p>{_words(40)}</p></main></body></html>"
    )
    pruned = reading_tree(tree)
    assert pruned.xpath("//main/p")
    assert not pruned.xpath("//h2") and not pruned.xpath("//h4")
    assert "cookies" not in pruned.text_content()


def test_a_page_wrapped_in_a_cookie_class_is_kept() -> None:
    article = "".join(f"<p>{_words(60)}.</p>" for _ in range(5))
    tree = lxml.html.fromstring(
        f"<html><body><div class='page has-cookie-banner'><h1>Title</h1>{article}</div>"
        "</body></html>"
    )
    assert len(reading_tree(tree).xpath("//p")) == 5


def test_a_post_whose_category_names_cookies_is_kept() -> None:
    # WordPress and WooCommerce name a post's or a product's categories and tags in its
    # class: a baking blog's posts are not consent banners.
    post = f"<h2><a href='/p'>Recipe</a></h2><p>{_words(40)}</p>"
    tree = lxml.html.fromstring(
        "<html><body><main>"
        f"<div id='post-1' class='post-1 post type-post category-cookies'>{post}</div>"
        f"<div class='product type-product product_cat-cookies tag-cookie-recipes'>{post}</div>"
        "<div class='category-news cookie-notice'><p>We use cookies.</p></div>"
        "</main></body></html>"
    )
    pruned = reading_tree(tree)
    assert len(pruned.xpath("//h2")) == 2
    assert "We use cookies" not in pruned.text_content()


def test_a_short_page_wrapped_in_a_cookie_class_is_kept() -> None:
    # however short the page: a node holding the <main> is not the banner
    tree = lxml.html.fromstring(
        f"<html><body><div class='cookie-notice-wrap'><main><h2>Hello</h2><p>{_words(30)}</p>"
        "</main></div></body></html>"
    )
    assert reading_tree(tree).xpath("//main/p")


#: Hexo's highlighter (and Rouge's, with line numbers): a table of two cells, the line
#: numbers' gutter and the code, in a ``<figure>``.
HIGHLIGHT = (
    "<html><body><article><h2>Run it</h2><figure class='highlight go'><table><tr>"
    "<td class='gutter'><pre><span class='line'>1</span><br><span class='line'>2</span></pre></td>"
    "<td class='code'><pre><span class='line'>package main</span><br>"
    "<span class='line'>func main() {}</span><br></pre></td></tr></table></figure>"
    "<p>Then build it.</p><table><tr><td class='gutter'>Key</td><td>Value</td></tr></table>"
    "</article></body></html>"
)


def test_a_code_block_laid_out_in_a_table_beside_its_line_numbers_is_the_code_alone() -> None:
    tree = reading_tree(lxml.html.document_fromstring(HIGHLIGHT))
    article = tree.find(".//article")
    assert [child.tag for child in article] == ["h2", "pre", "p", "table"]
    assert article.find("pre").text_content() == "package mainfunc main() {}"
    assert article.find("pre").tail is None or not article.find("pre").tail.strip()
    # a table of data whose cell is named "gutter" keeps its other cells
    assert [td.text for td in article.find("table").iter("td")] == ["Value"]


def test_a_cookie_policy_page_keeps_its_policy_and_drops_its_banner() -> None:
    """A site's cookie policy, in a box whose class names cookies, is the page's text
    when the page says it is about cookies; its consent banner (buttons) still goes."""
    policy = "".join(f"<h2>Part {n}</h2><p>{_words(60)}</p>" for n in range(3))
    page = (
        "<html><head><title>{title}</title></head><body><h1>Policy</h1>"
        f"<div class='cookie-policy-content'>{policy}</div>"
        "<div class='cookie-banner'><p>We use cookies.</p><button>Accept all</button></div>"
        "</body></html>"
    )
    kept = reading_tree(lxml.html.fromstring(page.format(title="Cookie policy | Example")))
    assert len(kept.xpath("//h2")) == 3 and "We use cookies" not in kept.text_content()
    other = reading_tree(lxml.html.fromstring(page.format(title="Our shop | Example")))
    assert other.xpath("//h2") == []


def test_the_headings_walk_fires_each_of_its_steps() -> None:
    """One walk of the headings unwraps their self-links (or removes a mark), gives an
    empty anchor its empty text, and unwraps a listicle entry's link to another site: the
    same as the self-links unwrapped over the whole tree first."""
    entry = "Yubico makes hardware keys. " * 10
    html = (
        "<html><head><link rel='canonical' href='https://www.example.org/post'></head><body>"
        "<h1>Best keys</h1>"
        "<h2><a href='#setup'>Setup</a></h2>"
        "<h3>Title<a href='#t'>¶</a> tail</h3>"
        "<h2><span id='anchor'></span>Empty anchor</h2>"
        f"<h2><a href='https://yubico.com/'>3. Yubico</a></h2><p>{entry}</p>"
        "<p>Body <a href='#setup'>link in text</a>.</p></body></html>"
    )
    prepared = reading_tree(lxml.html.fromstring(html), entries=True)
    shown = [h.text_content() for h in prepared.iter("h2", "h3")]
    assert shown == ["Setup", "Title tail", "Empty anchor", "3. Yubico"]
    assert [a.get("href") for a in prepared.iter("a")] == ["#setup"]  # the one in the text
    assert [s.text for s in prepared.iter("span") if s.get("id") == "anchor"] == [""]
    # the same tree as the self-links unwrapped over the whole tree before the other rules
    expected = reading_tree(unlinked_headings(lxml.html.fromstring(html)))
    headings(expected, "example.org", entries=True)
    assert lxml.etree.tostring(prepared) == lxml.etree.tostring(expected)
