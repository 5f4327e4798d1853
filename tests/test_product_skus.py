"""Which code is a product's sku when a page holds several: the URL's, the one the page
shows in an element marked as the product's code, the structured data's (cut to the
product's code where analytics tags name it), the buy form's; and the analytics tags
read from inline scripts."""

from __future__ import annotations

import json

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.codes import url_code
from webrobot.extract.product.datalayer import data_layer_code, data_layer_codes, script_code
from webrobot.extract.product.details import is_label, labelled_codes
from webrobot.extract.product.skus import shown_code


def page(html: str, url: str = "https://shop.example.com/p/desk-lamp") -> SourcePage:
    return SourcePage(url=url, html=html, root=Selector(text=html, type="html").root)


def shop_page(body: str = "", *, sku: str | None = None, head: str = "") -> str:
    """A product page with a JSON-LD product (of ``sku``, when given) and ``body``."""
    node: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Desk lamp",
    }
    if sku is not None:
        node["sku"] = sku
    node["offers"] = {"@type": "Offer", "price": "24.99", "priceCurrency": "EUR"}
    return f"""<html lang="en"><head>{head}
    <script type="application/ld+json">{json.dumps(node)}</script></head><body>
    <header><a href="/cart">Cart</a></header>
    <main class="product"><h1>Desk lamp</h1><span class="price">€24.99</span>
    <button class="add-to-cart">Add to cart</button>{body}</main>
    <div class="related"><div class="card"><span class="product-sku">REL-999</span></div></div>
    </body></html>"""


def sku_of(html: str, url: str = "https://shop.example.com/p/desk-lamp") -> str | None:
    result = product(page(html, url))
    assert result is not None
    return result["sku"]


# --- the code the page shows beats a structured sku nobody sees ----------------------------


def test_the_code_the_page_shows_beats_a_variants_database_code() -> None:
    body = '<p><span>Black</span> - <span data-qa-qualifier="product-reference">1002/710</span></p>'
    assert sku_of(shop_page(body, sku="84518927-040-35")) == "1002/710"


@pytest.mark.parametrize(
    "body",
    [
        '<p class="product__sku">SKU: LMP-204</p>',
        '<div id="product-reference"><span>Reference</span> <span>LMP-204</span></div>',
        '<span class="productCode">LMP-204</span>',
        '<span data-testid="item-number">LMP-204</span>',
    ],
)
def test_an_element_marked_as_the_products_code_is_read(body: str) -> None:
    html = shop_page(body)
    root = Selector(text=html, type="html").root
    assert shown_code(root) == "LMP-204"
    assert sku_of(shop_page(body, sku="99812231-001")) == "LMP-204"


def test_a_shown_structured_sku_stays_and_related_products_codes_are_not_the_products() -> None:
    body = '<p>Item: <b>84518927</b></p><span class="product-sku">OTHER-1</span>'
    assert sku_of(shop_page(body, sku="84518927")) == "84518927"  # shown: kept
    # The only marked code stands in a related product's card: not the product's.
    assert shown_code(Selector(text=shop_page(""), type="html").root) is None
    assert sku_of(shop_page("", sku="99812231")) == "99812231"


def test_only_the_products_box_is_searched_for_a_marked_code() -> None:
    # A carousel below the product, with no class that says "related": outside the box
    # that holds the product's heading and buy button, so its code is not the product's.
    html = shop_page(sku="99812231").replace(
        "</main>",
        '</main><section class="carousel"><div><div><div><span class="sku">OTHER-1</span>'
        "</div></div></div></section>",
    )
    assert sku_of(html) == "99812231"


def test_a_label_alone_is_no_code() -> None:
    assert is_label("SKU") and is_label("Ref.") and is_label("Item #")
    assert not is_label("SKU: LMP-1") and not is_label("LMP-1")
    html = shop_page('<span class="sku-label">SKU</span>')
    assert shown_code(Selector(text=html, type="html").root) is None


# --- the URL's code ----------------------------------------------------------------------------


def test_the_code_the_url_carries_beats_a_structured_ean() -> None:
    url = "https://books.example.pt/codigo-do-trabalho-anotado-1589482272.html"
    assert sku_of(shop_page(sku="9789724084985"), url) == "1589482272"
    # A code the page labels as its sku stays.
    labelled = shop_page("<dl><dt>SKU</dt><dd>LMP-1</dd></dl>", sku="LMP-1")
    assert sku_of(labelled, url) == "LMP-1"
    # So does one it shows in an element marked as the product's code.
    marked = shop_page('<span class="sku">LMP-2</span>', sku="LMP-2")
    assert sku_of(marked, url) == "LMP-2"
    # And with no structured sku, the URL's code before a marked one, the form's after.
    assert sku_of(shop_page('<span class="product-code">LMP-3</span>'), url) == "1589482272"
    assert sku_of(shop_page('<span class="product-code">LMP-3</span>')) == "LMP-3"


def test_a_trailing_ref_segment_does_not_hide_the_urls_code() -> None:
    assert url_code("https://www.example.com/Lamp/dp/B07PXGQC1Q/ref=sr_1_1") == "B07PXGQC1Q"
    assert url_code("https://shop.example.com/lamp-77881234/reviews") == "77881234"


# --- analytics tags ---------------------------------------------------------------------------


def test_analytics_tags_cut_a_variants_suffix_off_the_structured_sku() -> None:
    head = """<script>dataLayer.push({'ecommerce': {'detail': {'actionField': {'list': 'pdp'},
    'products': [{'name': 'Desk lamp', 'id': 'MKI6IKW1N4', 'price': '24.99'}]}}});</script>"""
    assert sku_of(shop_page(sku="MKI6IKW1N4-1", head=head)) == "MKI6IKW1N4"
    assert sku_of(shop_page(sku="MKI6IKW1N4-1")) == "MKI6IKW1N4-1"  # no tag: as given


@pytest.mark.parametrize(
    ("script", "source", "code"),
    [
        (
            "dataLayer.push({ecommerce:{detail:{products:[{name:'Lamp',sku:'LMP-1'}]}}})",
            "ga_detail",
            "LMP-1",
        ),
        (
            (
                'gtag("event", "view_item", {"currency": "EUR", "items": [{"item_id": "LMP-2",'
                ' "price": 24.99}]});'
            ),
            "ga4_view_item",
            "LMP-2",
        ),
        (
            "dataLayer.push({'productSku': 'LMP-3', 'productPrice': '24.99'});",
            "data_layer",
            "LMP-3",
        ),
        (
            "fbq('track', 'ViewContent', {content_type: 'product', content_ids: ['LMP-4']});",
            "fb_pixel",
            "LMP-4",
        ),
        (
            'window.criteo_q.push({ event: "viewItem", item: "LMP-5" });',
            "criteo",
            "LMP-5",
        ),
        (
            (
                'var meta = {"product":{"id":1,"vendor":"Oak","variants":[{"id":2,"price":2499,'
                '"sku":"LMP-6"}]}};'
            ),
            "shopify_meta",
            "LMP-6",
        ),
    ],
)
def test_the_code_each_analytics_tag_names(script: str, source: str, code: str) -> None:
    assert data_layer_codes(script) == {source: code}


def test_recommendations_prices_and_tokens_are_no_analytics_code() -> None:
    impressions = "dataLayer.push({ecommerce:{impressions:[{id:'REL-1'},{id:'REL-2'}]}});"
    assert data_layer_code(impressions) is None
    assert script_code("24.99") is None
    assert script_code("0f1e2d3c4b5a69788796a5b4") is None
    assert script_code("0000") is None
    assert script_code("LMP-7") == "LMP-7"
    # Alone, a tag's code is not taken for the sku: shops show none on such pages.
    script = "<script>fbq('track', 'ViewContent', {content_ids: ['1409']});</script>"
    assert sku_of(shop_page(head=script)) is None


# --- the buy form, classified ads -------------------------------------------------------------


def test_the_buy_forms_product_sku_where_nothing_else_names_one() -> None:
    html = shop_page().replace(
        '<button class="add-to-cart">Add to cart</button>',
        '<form data-product-sku="24-MB01"><button class="add-to-cart">Add to cart</button></form>',
    )
    assert sku_of(html) == "24-MB01"


@pytest.mark.parametrize(
    "lines",
    [
        ["Anzeige:", "278526196", "Datum:", "Heute"],
        ["Anzeigennummer: 278526196"],
        ["Ad ID", "278526196"],
        ["N° d'annonce : 278526196"],
    ],
)
def test_a_classified_ads_number_is_its_code(lines: list[str]) -> None:
    assert labelled_codes(lines) == {"sku": "278526196"}
