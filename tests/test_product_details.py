"""Product fields as shops show them beyond their markup: codes in details tables and
lists (many languages), stock lines scoped to the product and read with their negation,
prices with the decimal mark of the page's language and currency, variants told as
several products, and the one walk of the tree that gathers what the readers need."""

from __future__ import annotations

from decimal import Decimal

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.codes import url_code
from webrobot.extract.product.details import labelled_codes
from webrobot.extract.product.prices import decimal_mark, parse_price_text
from webrobot.extract.product.stock import stock_line
from webrobot.extract.product.walk import PageWalk


def page(html: str, url: str = "https://shop.example.com/p/lamp") -> SourcePage:
    return SourcePage(url=url, html=html, root=Selector(text=html, type="html").root)


def shop_page(details: str, *, lang: str = "en", price: str = "$24.99", extra: str = "") -> str:
    return f"""<html lang="{lang}"><body><header><a href="/cart">Cart</a></header>
    <main class="product"><h1>Desk lamp</h1><span class="price">{price}</span>
    <button class="add-to-cart">Add to cart</button>{extra}
    <section class="product-details">{details}</section></main>
    <footer>SKU: FOOTER-1</footer></body></html>"""


# --- codes from details tables and lists -------------------------------------------------


@pytest.mark.parametrize(
    ("details", "field", "value"),
    [
        ("<table><tr><th>SKU</th><td>LMP-204</td></tr></table>", "sku", "LMP-204"),
        ("<dl><dt>Item #</dt><dd>88213</dd></dl>", "sku", "88213"),
        ("<ul><li>Art.-Nr.: 4711-02</li></ul>", "sku", "4711-02"),
        ("<table><tr><td>Artikelnummer</td><td>100234</td></tr></table>", "sku", "100234"),
        ("<p><span>Réf.</span> <span>ZX-99</span></p>", "sku", "ZX-99"),
        (
            "<div>Numéro de l'objet eBay&nbsp;: <span>293565036718</span></div>",
            "sku",
            "293565036718",
        ),
        ("<div>Numero oggetto eBay: <b>133588510845</b></div>", "sku", "133588510845"),
        ("<ul><li>Article Number: 12185160</li></ul>", "sku", "12185160"),
        ("<table><tr><th>Código</th><td>MX-330</td></tr></table>", "sku", "MX-330"),
        ("<dl><dt>Артикул</dt><dd>AB-1234</dd></dl>", "sku", "AB-1234"),
        ("<table><tr><th>商品番号</th><td>KT-26</td></tr></table>", "sku", "KT-26"),
        ("<table><tr><th>Part Number</th><td>AG-M22PCIE4</td></tr></table>", "mpn", "AG-M22PCIE4"),
        ("<dl><dt>Model</dt><dd>XWSC61251</dd></dl>", "mpn", "XWSC61251"),
        ("<dl><dt>Herstellernummer</dt><dd>HX-77</dd></dl>", "mpn", "HX-77"),
        ("<table><tr><th>EAN</th><td>4006381333931</td></tr></table>", "gtin", "4006381333931"),
        ("<ul><li>UPC: 036000291452</li></ul>", "gtin", "036000291452"),
        ("<dl><dt>ISBN-13</dt><dd>978-0-552-17374-2</dd></dl>", "gtin", "9780552173742"),
        ("<ul><li>Cod. articolo: AB-123</li></ul>", "sku", "AB-123"),
        ("<dl><dt>Codice articolo</dt><dd>XK-77</dd></dl>", "sku", "XK-77"),
        ("<p>N° d'article : 778812</p>", "sku", "778812"),
        ("<ul><li>Best.-Nr.: 33-104</li></ul>", "sku", "33-104"),
        (
            "<table><tr><th>JANコード</th><td>4901234567894</td></tr></table>",
            "gtin",
            "4901234567894",
        ),
    ],
)
def test_a_labelled_code_in_details(details: str, field: str, value: str) -> None:
    result = product(page(shop_page(details)))
    assert result is not None and result[field] == value


def test_a_label_inside_prose_or_a_value_that_is_no_code_is_not_read() -> None:
    assert labelled_codes(["The model we sell is the best one"]) == {}
    assert labelled_codes(["Model", "Black and white"]) == {}
    assert labelled_codes(["SKU", "EAN", "4006381333931"]) == {"gtin": "4006381333931"}
    assert labelled_codes(["EAN", "4006381333932"]) == {}  # wrong check digit


def test_the_shops_code_before_the_makers_and_the_makers_when_it_shows_none() -> None:
    both = "<dl><dt>Model</dt><dd>M-1</dd><dt>SKU</dt><dd>S-1</dd></dl>"
    result = product(page(shop_page(both)))
    assert result is not None and (result["sku"], result["mpn"]) == ("S-1", "M-1")
    result = product(page(shop_page("<dl><dt>Model</dt><dd>M-1</dd></dl>")))
    assert result is not None and (result["sku"], result["mpn"]) == ("M-1", "M-1")


def test_a_label_the_shops_name_begins_names_the_shops_own_code() -> None:
    # "iFixit Part Number": the shop's part number, its code for the product, not the maker's.
    assert labelled_codes(["iFixit Part Number", "IF145-348-5"], ("ifixit",)) == {
        "sku": "IF145-348-5"
    }
    assert labelled_codes(["Costco Item #: 1275464"], ("costco",)) == {"sku": "1275464"}
    # Without the shop's name, a part number is the maker's; another name begins no label.
    assert labelled_codes(["Part Number", "IF145-348-5"]) == {"mpn": "IF145-348-5"}
    assert labelled_codes(["Acme Part Number", "IF145-348-5"], ("ifixit",)) == {}
    assert labelled_codes(["iFixitPart Number", "IF145-348-5"], ("ifixit",)) == {}
    # A shop whose name is a label's first word still has that label read as before.
    assert labelled_codes(["Art Nr 4711-02"], ("art",)) == {"sku": "4711-02"}
    assert labelled_codes(["Model", "X1-22"], ("model",)) == {"mpn": "X1-22"}


def test_a_shops_name_that_folding_lengthens_still_begins_its_label() -> None:
    # "Straße" folds to "strasse": the name's end is found in the line itself.
    shops = ("straßenladen".casefold(),)
    assert labelled_codes(["Straßenladen Part Number", "SL-4711"], shops) == {"sku": "SL-4711"}
    assert labelled_codes(["STRASSENLADEN Item #: 1275464"], shops) == {"sku": "1275464"}
    assert labelled_codes(["Straßenladenx Part Number", "SL-4711"], shops) == {}


def test_the_shops_part_number_beats_a_structured_sku_the_page_nowhere_shows() -> None:
    table = "<table><tr><th>iFixit Part Number</th><td>IF145-348-5</td></tr></table>"
    html = f"""<html><head><meta property="og:site_name" content="iFixit">
    <script type="application/ld+json">{{"@type": "Product", "name": "Toolkit",
    "sku": "145348", "mpn": "IF145-348-5", "offers": {{"price": "29.95", "priceCurrency": "USD"}}}}
    </script></head><body><main class="product"><h1>Toolkit</h1><span class="price">$29.95</span>
    <button class="add-to-cart">Add to cart</button>{table}</main></body></html>"""
    result = product(page(html, "https://www.example.org/products/toolkit"))
    assert result is not None and result["sku"] == "IF145-348-5"
    # The same table on another shop's page names the maker's part only: the sku stands.
    other = html.replace("iFixit Part Number", "Part Number")
    result = product(page(other, "https://www.example.org/products/toolkit"))
    assert result is not None and result["sku"] == "145348"


def test_a_shops_names_are_its_site_name_and_its_hosts_registered_name() -> None:
    from webrobot.extract.headtags import head_tags
    from webrobot.extract.product.context import ProductContext

    html = '<html><head><meta property="og:site_name" content="Best Buy"></head></html>'
    source = page(html, "https://www.bestbuy.co.uk/site/p/1")
    ctx = ProductContext(source, source.root, source.url, head_tags(source.root))
    assert ctx.shop_names == ("best buy", "bestbuy")
    source = page("<html></html>", "https://shop.bombas.com/products/socks")
    ctx = ProductContext(source, source.root, source.url, head_tags(source.root))
    assert ctx.shop_names == ("bombas",)


def test_a_variants_suffix_is_dropped_when_the_url_names_the_product() -> None:
    html = """<html><head><script type="application/ld+json">{"@type": "Product",
    "name": "Joypad", "sku": "MKI6IKW1N4-1", "offers": {"price": "24990", "priceCurrency": "CLP"}}
    </script></head><body></body></html>"""
    result = product(page(html, "https://shop.example.cl/joypad-MKI6IKW1N4.html"))
    assert result is not None and result["sku"] == "MKI6IKW1N4"
    result = product(page(html, "https://shop.example.cl/joypad.html"))
    assert result is not None and result["sku"] == "MKI6IKW1N4-1"


def test_products_of_one_name_with_different_skus_are_one_products_variants() -> None:
    sizes = ", ".join(
        f'{{"@type": "Product", "name": "Boots", "sku": "845-040-{size}", "offers": {{"price":'
        f' "69.95", "priceCurrency": "EUR", "availability": "{stock}"}}}}'
        for size, stock in (("35", "OutOfStock"), ("36", "InStock"), ("37", "OutOfStock"))
    )
    html = f'<html><head><script type="application/ld+json">[{sizes}]</script></head></html>'
    result = product(page(html))
    assert result is not None
    assert (result["sku"], result["availability"], result["price"]) == (
        "845-040",
        "InStock",
        "69.95",
    )


# --- availability: stock lines, scope, negation -----------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In stock", "InStock"),
        ("Not in stock", "OutOfStock"),
        ("Currently unavailable", "OutOfStock"),
        ("Only 3 left", "LimitedAvailability"),
        ("Auf Lager", "InStock"),
        ("Nicht auf Lager", "OutOfStock"),
        ("Skladom", "InStock"),
        ("Nie je skladom", "OutOfStock"),
        ("В наличии", "InStock"),
        ("Нет в наличии", "OutOfStock"),
        ("În stoc", "InStock"),
        ("缺貨", "OutOfStock"),
        ("Ships in 3 days", "InStock"),
        ("Na objednanie do 20 prac. dní", "InStock"),
        ("We'll let you know when it's in stock", None),
        ("Notify me when back in stock", None),
        ("Free returns", None),
    ],
)
def test_stock_lines(text: str, expected: str | None) -> None:
    assert stock_line(text) == expected


def test_a_sizes_stock_words_are_not_the_products() -> None:
    sizes = """<ul class="size-selector"><li><span class="stock-status">35 - Out of stock</span></li>
    <li><span class="stock-status">36</span></li></ul>"""
    result = product(page(shop_page("", extra=sizes)))
    assert result is not None and result["availability"] == "InStock"


def test_a_stock_class_that_its_words_contradict_is_not_believed() -> None:
    line = '<span class="unavailable">Ships in 20 days</span>'
    result = product(page(shop_page("", extra=line)))
    assert result is not None and result["availability"] == "InStock"
    line = '<span class="stock-badge out-of-stock"></span>'
    result = product(page(shop_page("", extra=line)))
    assert result is not None and result["availability"] == "OutOfStock"


def test_a_sold_out_line_wins_over_the_buy_button() -> None:
    line = '<p class="availability">Sold out</p>'
    result = product(page(shop_page("", extra=line)))
    assert result is not None and result["availability_detail"] == "SoldOut"
    assert result["availability"] == "OutOfStock"


def test_a_product_page_with_a_price_and_no_word_against_it_is_in_stock() -> None:
    html = """<html><head><meta property="og:type" content="product">
    <meta property="product:price:amount" content="20"><meta property="product:price:currency"
    content="EUR"></head><body><h1>Remote control</h1></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "InStock"
    html = html.replace('<meta property="product:price:amount" content="20">', "")
    result = product(page(html))
    assert result is not None and result["availability"] is None


def test_a_product_og_type_after_an_seo_plugins_article_one_still_makes_a_product_page() -> None:
    # WordPress shops: an SEO plugin writes og:type "article", the shop's theme
    # "og:product" and its price after it; three related products' buy buttons.
    related = "".join(
        f'<div class="product-item"><h6>Comb {n}</h6><span>${n}4.95</span>'
        f'<div class="btn add-to-cart">Add to Bag</div></div>'
        for n in range(1, 5)
    )
    html = f"""<html lang="en"><head><meta property="og:type" content="article">
    <meta property="og:type" content="og:product"><meta property="og:title" content="Dryer">
    <meta property="product:price:amount" content="101.97">
    <meta property="product:price:currency" content="USD"></head>
    <body>{related}<h1>Dryer</h1><p><del>$169.95</del> <ins>$101.97</ins></p></body></html>"""
    result = product(page(html, "https://shop.example.com/product/dryer"))
    assert result is not None
    assert (result["price"], result["currency"], result["availability"]) == (
        "101.97",
        "USD",
        "InStock",
    )
    article = html.replace('<meta property="og:type" content="og:product">', "")
    assert product(page(article, "https://shop.example.com/product/dryer")) is None


# --- prices with the page's decimal mark -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "tld", "amount"),
    [
        ("$24.990", "en", "com", Decimal("24.990")),
        ("$24.990", "es", "cl", Decimal(24990)),  # Chilean pesos have no cents
        ("1.234 €", "de", "de", Decimal(1234)),
        ("1,234", "de", "de", Decimal("1.234")),
        ("$1,234", "en", "com", Decimal(1234)),
        ("23.450 zł", "pl", "pl", Decimal(23450)),
        ("¥1,200", "ja", "jp", Decimal(1200)),
        ("1.299,00 €", "en", "", Decimal("1299.00")),
        ("24.99", "de", "de", Decimal("24.99")),
        ("$24.990", "", "", Decimal(24990)),  # nothing known: price-parser's reading
    ],
)
def test_a_mark_before_three_digits_is_read_as_the_page_writes(
    text: str, language: str, tld: str, amount: Decimal
) -> None:
    assert parse_price_text(text, language=language, tld=tld)[0] == amount


def test_decimal_marks() -> None:
    assert decimal_mark("en-GB") == "."
    assert decimal_mark("de-DE") == ","
    assert decimal_mark("de-CH") == "."
    assert decimal_mark("es-MX") == "."
    assert decimal_mark("es") == ","
    assert decimal_mark("es", "CLP") is None
    assert decimal_mark("en", "KWD") == "."
    assert decimal_mark("xx") is None


def test_the_shown_price_is_read_with_the_pages_language() -> None:
    result = product(page(shop_page("", lang="en-US", price="$24.990")))
    assert result is not None and result["price"] == "24.990"
    result = product(page(shop_page("", lang="de-DE", price="24.990 €")))
    assert result is not None and result["price"] == "24990.00"


# --- one walk ------------------------------------------------------------------------------


def test_the_walk_gathers_itemprops_codes_buttons_and_the_visible_text() -> None:
    html = """<html><head><title>T</title><script>var x = "hidden";</script></head><body>
    <nav>Menu</nav><div itemprop="name brand">Lamp</div><span class="sku">L-1</span>
    Tail text<!-- a comment --> after comment<button>Add</button>
    <input type="SUBMIT" value="Buy"><input type="text"><a href="/cart/add">Cart</a>
    <footer>Imprint</footer><style>.x{}</style></body></html>"""
    walk = PageWalk(Selector(text=html, type="html").root)
    assert (
        [e.text for e in walk.itemprops["name"]]
        == ["Lamp"]
        == [e.text for e in walk.itemprops["brand"]]
    )
    assert [e.text for e in walk.coded["sku"]] == ["L-1"]
    assert [e.tag for e in walk.button_candidates] == ["button", "input", "a"]
    assert walk.lines == ["Lamp", "L-1", "Tail text", "after comment", "Add", "Cart"]


def test_the_walk_of_no_tree_is_empty() -> None:
    walk = PageWalk(None)
    assert (walk.itemprops, walk.button_candidates, walk.lines) == ({}, [], [])


# --- the code a product URL ends with ------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://shop.example.pt/codigo-do-trabalho-anotado-1589482272.html", "1589482272"),
        ("https://shop.example.sk/pc/anpix-redukcia-114768289", "114768289"),
        ("https://market.example.com/itm/a-title/302474151804", "302474151804"),
        ("https://shop.example.com/dp/B07PXGQC1Q", "B07PXGQC1Q"),
        ("https://shop.example.com/p/desk-lamp", None),
        ("https://shop.example.com/p/lamp-123", None),
        ("https://blog.example.com/2024/01/post-20240131", None),
        ("https://shop.example.com/products/shirt?variant=123456", None),
        ("", None),
    ],
)
def test_the_code_a_product_url_ends_with(url: str, code: str | None) -> None:
    assert url_code(url) == code


def test_the_url_code_is_the_sku_only_where_the_page_gives_none() -> None:
    html = shop_page("")
    result = product(page(html, "https://shop.example.com/desk-lamp-1589482272.html"))
    assert result is not None and result["sku"] == "1589482272"
    html = shop_page("<dl><dt>SKU</dt><dd>LMP-1</dd></dl>")
    result = product(page(html, "https://shop.example.com/desk-lamp-1589482272.html"))
    assert result is not None and result["sku"] == "LMP-1"
    canonical = '<link rel="canonical" href="https://shop.example.com/lamp-77881234.html">'
    html = shop_page("").replace('<html lang="en">', f'<html lang="en"><head>{canonical}</head>')
    result = product(page(html, "https://shop.example.com/lamp?ref=home"))
    assert result is not None and result["sku"] == "77881234"


def test_the_stock_line_nearest_the_buy_button_is_the_products() -> None:
    html = """<html lang="en"><body><div class="carousel"><div class="card"><h3>Other lamp</h3>
    <p class="stock-label">Out of stock</p></div></div>
    <main><h1>Desk lamp</h1><span class="price">$24.99</span>
    <div class="buybox"><p class="stock-label">In stock</p>
    <button class="add-to-cart">Add to cart</button></div></main></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "InStock"
    flipped = html.replace(">Out of stock<", ">In stock!<").replace(">In stock<", ">Sold out<")
    result = product(page(flipped))
    assert result is not None and result["availability_detail"] == "SoldOut"
    assert result["availability"] == "OutOfStock"


def test_a_labelled_price_where_no_element_says_price() -> None:
    html = """<html lang="zh-TW"><head><meta property="og:type" content="product"></head>
    <body><h1>Jerky</h1><ul><li>原價：<strike>1,390</strike></li></ul>
    <div class="deal">最低價$<span>99</span></div></body></html>"""
    result = product(page(html, "https://shop.example.tw/deal_1409.html"))
    assert result is not None and (result["price"], result["currency"]) == ("99.00", "TWD")
    html = """<html lang="de"><head><meta property="og:type" content="product"></head>
    <body><h1>Lampe</h1><p>UVP: 49,99 €</p><p>Preis: 39,99 €</p></body></html>"""
    result = product(page(html, "https://shop.example.de/lampe"))
    assert result is not None and result["price"] == "39.99"


def test_a_price_of_zero_is_no_price() -> None:
    html = """<html><head><script type="application/ld+json">{"@type": "Product",
    "name": "Lamp", "offers": {"price": "0.00", "priceCurrency": "EUR"}}</script></head>
    <body><h1>Lamp</h1><p>Price on request</p></body></html>"""
    result = product(page(html))
    assert result is not None and result["price"] is None and result["availability"] is None
    shown = html.replace("<p>Price on request</p>", '<span class="price">€ 12,50</span>')
    result = product(page(shown))
    assert result is not None and result["price"] == "12.50"


def test_a_disabled_buy_button_that_waits_for_a_size_says_nothing_against_the_product() -> None:
    html = """<html lang="en"><body><main><h1>Boots</h1><span class="price">$69.95</span>
    <form action="/cart/add"><ul class="size-list"><li>36</li><li>37</li></ul>
    <button class="add-to-cart" disabled>Add to cart</button></form></main></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "InStock"
    alone = html.replace('<ul class="size-list"><li>36</li><li>37</li></ul>', "")
    result = product(page(alone))
    assert result is not None and result["availability"] == "OutOfStock"


def test_a_token_that_changes_at_every_fetch_is_no_code() -> None:
    assert labelled_codes(["Reference 0f1e2d3c4b5a69788796a5b4"]) == {}
    assert labelled_codes(["Reference: 0F1E-2D3C"]) == {"sku": "0F1E-2D3C"}
