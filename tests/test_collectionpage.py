"""A page that says it is a collection is read as a page of cards, not as one article or
one product."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.collectionpage import declares_collection, reading_kinds
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage

OG = "<meta property='og:type' content='{}'>"
LD = '<script type="application/ld+json">{{"@context":"https://schema.org","@graph":[{}]}}</script>'
COLLECTION = '{"@type":"CollectionPage","name":"Wallets"}'
POST = '{"@type":"BlogPosting","headline":"Wallets"}'
CARD = (
    "<div class='product-card'><a href='/p/{i}'><img src='/i/{i}.jpg' alt=''></a>"
    "<div class='swatches'><button class='swatch'>Matte olive</button>"
    "<button class='swatch'>Burnt titanium</button></div>"
    "<a class='name' href='/p/{i}'>Wallet number {i}</a><div class='price'>$ {p}</div></div>"
)


def shop(head: str) -> str:
    """A shop's category: each card's colours are buttons (an article's and a product's
    readings drop buttons; on a grid they name what each card offers)."""
    cards = "".join(CARD.format(i=i, p=70 + i) for i in range(8))
    return (
        f"<html><head><title>Wallets</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a></nav></header><div class='page'><h1>All wallets</h1>"
        "<p>Every wallet we make, in aluminium, titanium and carbon fibre.</p>"
        f"<div class='grid'>{cards}</div></div></body></html>"
    )


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def root(head: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(shop(head))


def test_a_group_of_products_is_read_as_its_og_type_says() -> None:
    """Open Graph's ``product.group`` stays a product: a shop's category is read whole as
    a product page (the product rules), which keeps more of its grid."""
    assert not declares_collection(root(OG.format("product.group")))
    assert reading_kinds(root(OG.format("product.group"))) == (False, True, False)
    assert reading_kinds(root(OG.format("product"))) == (False, True, False)


def test_an_archive_that_declares_an_article_and_a_collection_page_is_a_collection() -> None:
    head = OG.format("article") + LD.format(COLLECTION)
    assert declares_collection(root(head))
    assert reading_kinds(root(head)) == (False, False, True)


def test_a_post_inside_a_collection_stays_an_article() -> None:
    head = OG.format("article") + LD.format(COLLECTION + "," + POST)
    assert not declares_collection(root(head))
    assert reading_kinds(root(head)) == (True, False, False)
    assert reading_kinds(root(OG.format("article"))) == (True, False, False)
    assert reading_kinds(root("")) == (False, False, True)


def test_a_collection_is_read_whole_as_a_page_of_cards() -> None:
    website = read(shop(OG.format("website")))
    assert website.count("Matte olive") == 8
    text = read(shop(OG.format("article") + LD.format(COLLECTION)))
    assert text.count("Matte olive") == 8
    assert text.count("Wallet number") == 8
    assert text.count("$ 7") == 8
    # a page that says it is one article still drops its buttons
    assert "Matte olive" not in read(shop(OG.format("article")))
    assert "Matte olive" not in read(
        shop(OG.format("article") + LD.format(COLLECTION + "," + POST))
    )


def test_odd_declarations_are_no_collection() -> None:
    broken = lxml.html.fromstring(
        "<html><head><script type='application/ld+json'>{\"@type\": </script></head>"
        "<body><p>x</p></body></html>"
    )
    assert not declares_collection(broken)
    assert reading_kinds(broken) == (False, False, True)
