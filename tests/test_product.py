"""Product fields: structured data first, then the markup a shop page shows; prices,
currencies and availability made canonical; never a failure for what a page holds."""

from __future__ import annotations

import sys
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import PRODUCT_KEYS, product
from webrobot.extract.product.codes import gtin_digits, valid_gtin
from webrobot.extract.product.prices import availability, currency_code, price_amount
from webrobot.extract.product.stock import can_be_ordered

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def page(
    html: str, url: str = "https://shop.example.com/p/tent", *, tree: bool = True
) -> SourcePage:
    root = Selector(text=html, type="html").root if tree else None
    return SourcePage(url=url, html=html, root=root)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://schema.org/InStock", "InStock"),
        ("https://schema.org/OutOfStock", "OutOfStock"),
        ("schema:PreOrder", "PreOrder"),
        ("instock", "InStock"),
        ("in_stock", "InStock"),
        ("In Stock", "InStock"),
        ("oos", "OutOfStock"),
        ("http://schema.org/OutStock", "OutOfStock"),
        ("out of stock", "OutOfStock"),
        ("BackOrder", "BackOrder"),
        ("http://schema.org/LimitedAvailability", "LimitedAvailability"),
        ("Discontinued", "Discontinued"),
        ("SoldOut", "SoldOut"),
        ("OnlineOnly", "OnlineOnly"),
        ("InStoreOnly", "InStoreOnly"),
        ("available for order", "InStock"),
        ("Sold out", "SoldOut"),
        ("Ausverkauft", "SoldOut"),
        ("Nicht auf Lager", "OutOfStock"),
        ("Auf Lager", "InStock"),
        ("Rupture de stock", "OutOfStock"),
        ("En stock", "InStock"),
        ("Sin existencias", "OutOfStock"),
        ("Em estoque", "InStock"),
        ("Only 3 left in stock", "LimitedAvailability"),
        ("Pre-order now", "PreOrder"),
        ("在庫切れ", "OutOfStock"),
        ("Free delivery", None),
        ("", None),
    ],
)
def test_availability_in_any_form(value: str, expected: str | None) -> None:
    assert availability(value) == expected


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("InStock", "InStock"),
        ("LimitedAvailability", "InStock"),
        ("PreOrder", "InStock"),
        ("BackOrder", "InStock"),
        ("OnlineOnly", "InStock"),
        ("OutOfStock", "OutOfStock"),
        ("SoldOut", "OutOfStock"),
        ("Discontinued", "OutOfStock"),
        (None, None),
    ],
)
def test_availability_says_whether_it_can_be_ordered(
    term: str | None, expected: str | None
) -> None:
    assert can_be_ordered(term) == expected


def test_a_product_gives_both_the_order_question_and_the_term() -> None:
    html = """<html><head><script type="application/ld+json">{"@type": "Product", "name": "Hat",
    "offers": {"@type": "Offer", "price": 20, "priceCurrency": "EUR",
    "availability": "https://schema.org/LimitedAvailability"}}</script></head></html>"""
    result = product(page(html))
    assert result is not None
    assert (result["availability"], result["availability_detail"]) == (
        "InStock",
        "LimitedAvailability",
    )


@pytest.mark.parametrize(
    ("value", "tld", "language", "expected"),
    [
        ("usd", "", "", "USD"),
        ("€", "", "", "EUR"),
        ("R$", "br", "pt-BR", "BRL"),
        ("$", "com", "en", "USD"),
        ("$", "ca", "en-CA", "CAD"),
        ("$", "au", "", "AUD"),
        ("¥", "jp", "ja", "JPY"),
        ("¥", "cn", "zh", "CNY"),
        ("kr", "se", "", "SEK"),
        ("kr", "com", "da", "DKK"),
        ("kr", "com", "", None),
        ("zł", "", "", "PLN"),
        ("CHF", "", "", "CHF"),
        ("₹", "", "", "INR"),
        ("NT$", "tw", "zh-TW", "TWD"),
        ("XYZ", "", "", None),
        ("dollars and cents", "", "", None),
    ],
)
def test_currency_codes(value: str, tld: str, language: str, expected: str | None) -> None:
    assert currency_code(value, tld=tld, language=language) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1299.00", "1299.00"),
        (1299, "1299.00"),
        (1299.5, "1299.50"),
        ("0.005", "0.005"),
        ("1.299,00 €", "1299.00"),
        ("$1,299", "1299.00"),
        ("¥1299", "1299.00"),
        ("R$ 1.299,00", "1299.00"),
        ("CHF 1'299.00", "1299.00"),
        ("1 299,00 zł", "1299.00"),
        ("From $19.99", "19.99"),
        (Decimal(5), "5.00"),
        ("-5", None),
        ("price on request", None),
        (None, None),
        (True, None),
        (float("nan"), None),
    ],
)
def test_price_amounts(value: object, expected: str | None) -> None:
    assert price_amount(value) == expected


def test_gtins() -> None:
    assert gtin_digits("4006825612349") == "4006825612349"
    assert gtin_digits("0 12345 67890 5") == "012345678905"
    assert gtin_digits("ean:4006825612349") == "4006825612349"
    assert gtin_digits("12345") is None and gtin_digits("ABC") is None
    assert valid_gtin("4006825612349") and not valid_gtin("4006825612345")
    assert valid_gtin("012345678905") and valid_gtin("96385074")


# --- pages -------------------------------------------------------------------------------


def test_jsonld_product_with_its_offer() -> None:
    html = """<html><head><script type="application/ld+json">{"@context": "https://schema.org",
    "@type": "Product", "name": "Tent", "sku": "T-1", "gtin13": "4006825612349", "mpn": "M1",
    "brand": {"@type": "Brand", "name": "Peak"}, "offers": {"@type": "Offer", "price": 1299,
    "priceCurrency": "usd", "availability": "https://schema.org/InStock"}}</script></head></html>"""
    assert product(page(html)) == {
        "name": "Tent", "price": "1299.00", "currency": "USD", "availability": "InStock",
        "sku": "T-1", "gtin": "4006825612349", "mpn": "M1", "brand": "Peak",
        "availability_detail": "InStock",
    }  # fmt: skip


@pytest.mark.parametrize("written", ["product", "PRODUCT", "http://schema.org/product"])
def test_a_product_type_written_in_another_case_is_the_product(written: str) -> None:
    html = (
        '<html><head><script type="application/ld+json">{"@context": "http://www.schema.org",'
        f' "@type": "{written}", "name": "Mouse", "sku": "433507", "mpn": "TP-GM-X20W",'
        ' "offers": {"@type": ["Offer", "PriceSpecification"], "price": "39.98",'
        ' "priceCurrency": "EUR", "availability": "http://schema.org/InStock"}}'
        "</script></head><body><p>Nothing else</p></body></html>"
    )
    result = product(page(html))
    assert result is not None
    assert (result["price"], result["sku"], result["mpn"], result["availability"]) == (
        "39.98",
        "433507",
        "TP-GM-X20W",
        "InStock",
    )


SIZES_BY_EAN = """<html><head><script type="application/ld+json">{"@context": "http://schema.org",
"@type": "brand", "name": "JJ", "@graph": [
 {"@type": "product", "name": "Zipped Cardigan", "gtin8": "5715093615745", "brand": {"@type": "brand",
  "name": "JJ"}, "offers": {"@type": "Offer", "price": "49.99", "priceCurrency": "EUR",
  "availability": "http://schema.org/InStock"}},
 {"@type": "product", "name": "Zipped Cardigan", "gtin8": "5715093615721", "brand": {"@type": "brand",
  "name": "JJ"}, "offers": {"@type": "Offer", "price": "49.99", "priceCurrency": "EUR",
  "availability": "http://schema.org/InStock"}},
 {"@type": "Product", "image": "https://shop.example.com/cardigan.jpg"}]}</script></head>
<body><h1>Zipped Cardigan</h1></body></html>"""


def test_one_products_sizes_told_by_their_eans_are_one_product_without_an_ean() -> None:
    # A node with neither name nor sku is the same product told again, not another one;
    # sizes told apart only by their EANs give the product no EAN (none is the page's).
    result = product(page(SIZES_BY_EAN))
    assert result is not None
    assert (result["name"], result["brand"], result["price"], result["gtin"]) == (
        "Zipped Cardigan",
        "JJ",
        "49.99",
        None,
    )


VARIANTS = """<html><head><script type="application/ld+json">{"@type": "Product", "name": "Shoe",
"offers": [
 {"@type": "Offer", "sku": "S-41", "price": "90", "priceCurrency": "EUR", "availability": "OutOfStock",
  "url": "https://shop.example.com/p/shoe?variant=41"},
 {"@type": "Offer", "sku": "S-42", "price": "95", "priceCurrency": "EUR", "availability": "InStock",
  "url": "https://shop.example.com/p/shoe?variant=42"},
 {"@type": "Offer", "sku": "S-43", "price": "99", "priceCurrency": "EUR", "availability": "InStock",
  "url": "https://shop.example.com/p/shoe?variant=43"}]}</script></head></html>"""


@pytest.mark.parametrize(
    ("url", "price", "sku", "stock"),
    [
        ("https://shop.example.com/p/shoe", "95.00", "S-42", "InStock"),  # the first to buy
        ("https://shop.example.com/p/shoe?variant=43", "99.00", "S-43", "InStock"),
        ("https://shop.example.com/p/shoe?variant=41", "90.00", "S-41", "OutOfStock"),
    ],
)
def test_the_offer_shown_is_the_variant_in_the_url_else_the_first_to_buy(
    url: str, price: str, sku: str, stock: str
) -> None:
    result = product(page(VARIANTS, url))
    assert result is not None
    assert (result["price"], result["sku"], result["availability"]) == (price, sku, stock)


def test_the_sale_price_is_taken_not_the_crossed_out_one() -> None:
    html = """<html lang="en-GB"><body><div class="product"><h1>Tea</h1>
    <p class="price"><del><span class="amount">&pound;14.50</span></del>
    <ins><span class="amount">&pound;11.60</span></ins></p>
    <button class="single_add_to_cart_button">Add to basket</button></div></body></html>"""
    result = product(page(html, "https://tea.example.co.uk/p/darjeeling"))
    assert result is not None
    assert (result["name"], result["price"], result["currency"], result["availability"]) == (
        "Tea",
        "11.60",
        "GBP",
        "InStock",
    )


def test_markup_names_come_from_the_product_not_a_breadcrumb_or_the_logo() -> None:
    html = """<html><head><meta property="og:title" content="Blue Kettle"></head><body>
    <header><h1 class="logo">Kettle World</h1></header>
    <ol itemscope itemtype="https://schema.org/BreadcrumbList"><li itemprop="itemListElement"
      itemscope itemtype="https://schema.org/ListItem"><span itemprop="name">Home</span></li></ol>
    <div class="product"><span class="price">$45.00</span><button>Add to cart</button></div>
    </body></html>"""
    result = product(page(html))
    assert result is not None and result["name"] == "Blue Kettle" and result["price"] == "45.00"


def test_a_price_without_a_price_class_is_found_next_to_the_buy_button() -> None:
    html = """<html><body><h1>Cinema Display</h1><div class="col">
    <ul><li><span style="text-decoration: line-through;">$122.00</span></li>
    <li><h2>$110.00</h2></li><li>Ex Tax: $90.00</li></ul>
    <div id="product"><button id="button-cart">Add to Cart</button></div></div></body></html>"""
    result = product(page(html))
    assert result is not None and (result["price"], result["currency"]) == ("110.00", "USD")


def test_the_shops_name_is_not_part_of_the_products() -> None:
    html = """<html><head><meta property="og:site_name" content="Hollow Oak Pottery">
    <script type="application/ld+json">{"@type": "Product", "name": "Mug - Hollow Oak Pottery",
    "offers": {"price": 28, "priceCurrency": "GBP"}}</script></head></html>"""
    result = product(page(html))
    assert result is not None and result["name"] == "Mug"
    html = html.replace("Mug - Hollow Oak Pottery", "Mug - Large")
    result = product(page(html))
    assert result is not None and result["name"] == "Mug - Large"


def test_a_disabled_buy_button_means_out_of_stock() -> None:
    html = """<html><body><h1>Record</h1><span class="product-price">$32.00</span>
    <button class="add-to-cart" disabled>Add to cart</button></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "OutOfStock"


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><h1>About us</h1><p>We have sold tents since 1990.</p></body></html>",
        """<html><body>"""
        + "".join(
            f'<div class="card"><h3>Item {i}</h3><span class="price">${i}9.00</span>'
            '<button class="add-to-cart">Add to cart</button></div>'
            for i in range(1, 7)
        )
        + "</body></html>",
        """<html><head><script type="application/ld+json">{"@type": "Review", "itemReviewed":
        {"@type": "Product", "name": "Tent", "offers": {"price": "1"}}}</script></head></html>""",
        """<html><head><script type="application/ld+json">[{"@type":"Product","name":"A","offers":{"price":"1"}},
        {"@type":"Product","name":"B","offers":{"price":"2"}}]</script></head></html>""",
        # a shop's listing: priced cards without buttons, and the button that opens the
        # cart's drawer on every page of the shop
        """<html><body>"""
        + "".join(
            f'<div class="card"><a href="/products/{i}/">Item {i}</a>'
            f'<p class="text-danger">Rp. {i}.000</p></div>'
            for i in range(5, 9)
        )
        + """<button class="btn_cart btn btn-primary" type="button" data-bs-toggle="offcanvas"
        data-bs-target="#offcanvasCart" aria-controls="offcanvasCart">
        <i class="fas fa-shopping-cart"></i></button></body></html>""",
    ],
    ids=["about-page", "listing", "review", "two-products", "listing-cart-drawer"],
)
def test_pages_that_are_no_product_page(html: str) -> None:
    assert product(page(html)) is None


def test_the_carts_drawer_button_does_not_hide_the_products_own() -> None:
    html = """<html lang="id"><body><div itemscope itemtype="http://schema.org/Product">
    <div itemprop="name">Sacha the Deer</div><div class="item_price">Rp. 5.000</div>
    <a id="item_add" class="btn btn-primary item_add" href="javascript:;">Add to Cart</a></div>
    <button class="btn_cart btn" data-bs-toggle="offcanvas" aria-controls="offcanvasCart">
    <i class="fas fa-shopping-cart"></i></button></body></html>"""
    result = product(page(html))
    assert result is not None
    assert (result["price"], result["currency"], result["availability"]) == (
        "5000.00",
        "IDR",
        "InStock",
    )


def test_a_buy_button_that_opens_the_carts_dialog_is_still_a_buy_button() -> None:
    # Shopify's Dawn: the product's own submit button opens the cart's dialog once it has
    # added, and says so (aria-haspopup); its label is in a language the buy words lack
    html = """<html lang="id"><body><main><h1 class="product__title">Ullgenser</h1>
    <div class="price"><span class="price-item price-item--regular">Rp 499.000</span></div>
    <product-form class="product-form"><form action="/cart/add" method="post">
    <input type="hidden" name="id" value="4381"><div class="product-form__buttons">
    <button id="ProductSubmitButton-main" type="submit" name="add" aria-haspopup="dialog"
    class="product-form__submit button button--full-width button--primary">
    <span>Tambahkan ke keranjang</span></button></div></form></product-form></main></body></html>"""
    result = product(page(html))
    assert result is not None
    assert (result["price"], result["currency"]) == ("499000.00", "IDR")


def test_structured_data_passed_in_is_used() -> None:
    structured = {
        "json-ld": [],
        "microdata": [
            {"@type": "Product", "@context": "http://schema.org", "name": "Anvil",
             "offers": {"@type": "Offer", "price": "9.99", "priceCurrency": "EUR"}}
        ],
        "rdfa": [],
        "opengraph": [],
    }  # fmt: skip
    result = product(page("<html><body><h1>Other</h1></body></html>"), structured)
    assert result is not None and (result["name"], result["price"], result["currency"]) == (
        "Anvil",
        "9.99",
        "EUR",
    )


def test_without_the_mining_extra_one_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from webrobot.optional import MissingExtra

    monkeypatch.setitem(sys.modules, "extruct", None)
    with pytest.raises(MissingExtra, match=r"webrobot\[mining\]"):
        product(page("<html><body><h1>Tent</h1></body></html>"))


# --- properties -----------------------------------------------------------------------------

amounts = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999.99"), places=2)


def _grouped(amount: Decimal, thousands: str, decimal: str) -> str:
    whole, cents = f"{amount:.2f}".split(".")
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return thousands.join(groups) + decimal + cents


@FAST
@given(amounts, st.sampled_from(["{} €", "${}", "R$ {}", "£{}", "{} zł", "CHF {}", "{} kr", "EUR {}"]),
       st.sampled_from([(",", "."), (".", ","), (" ", ","), ("\u00a0", ",")]))  # fmt: skip
def test_price_text_round_trips(amount: Decimal, form: str, marks: tuple[str, str]) -> None:
    thousands, decimal = marks
    if form.startswith(("$", "£")):
        thousands, decimal = ",", "."
    text = form.format(_grouped(amount, thousands, decimal))
    assert price_amount(text) == f"{amount:.2f}"


@FAST
@given(amounts)
def test_structured_prices_round_trip(amount: Decimal) -> None:
    assert price_amount(f"{amount:.2f}") == f"{amount:.2f}"
    assert price_amount(float(f"{amount:.2f}")) == f"{amount:.2f}"


@FAST
@given(st.text(max_size=400))
def test_any_page_gives_a_product_or_none(text: str) -> None:
    for html in (
        text,
        f"<html><body><h1>{text}</h1><span class='price'>{text}</span><button>Add to cart</button></body></html>",
    ):
        result = product(page(html, tree=False))
        assert result is None or list(result) == list(PRODUCT_KEYS)


@FAST
@given(st.text(max_size=300))
def test_any_jsonld_product_gives_a_product_or_none(text: str) -> None:
    html = f'<html><head><script type="application/ld+json">{{"@type": "Product", "name": "x", "offers": {text}}}</script></head></html>'
    result = product(page(html))
    assert result is None or list(result) == list(PRODUCT_KEYS)


@FAST
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["@type", "name", "offers", "price", "priceCurrency", "availability", "brand", "sku",
         "hasVariant", "@id", "@graph", "priceSpecification", "lowPrice", "gtin13"]), inner, max_size=5),
    max_leaves=25))  # fmt: skip
def test_any_structured_shape_gives_a_product_or_none(value: object) -> None:
    structured = {"json-ld": [{"@type": "Product", "offers": value}, value], "microdata": [value],
                  "rdfa": [value], "opengraph": [value]}  # fmt: skip
    result = product(page("<html><body></body></html>"), structured)  # type: ignore[arg-type]
    assert result is None or list(result) == list(PRODUCT_KEYS)


def test_a_stock_line_in_the_buy_box_says_the_availability() -> None:
    html = """<html><head><script type="application/ld+json">{"@type": "Product",
    "name": "Memory kit 32GB", "offers": {"price": "89.99", "priceCurrency": "USD"}}</script>
    </head><body><h1>Memory kit 32GB</h1>
    <div class="product-buy-box"><div class="flags"><span>Out of stock</span></div>
    <div class="product-price">$89.99</div></div></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "OutOfStock"


@pytest.mark.parametrize(
    "shows",
    [
        '<span class="warning productNotAvailable">Produkt nicht verfügbar</span>',
        '<button class="btn" disabled><span>Unavailable</span></button>',
    ],
    ids=["stock-message", "disabled-button"],
)
def test_a_page_that_says_unavailable_overrules_structured_in_stock(shows: str) -> None:
    html = f"""<html><head><script type="application/ld+json">{{"@type": "Product",
    "name": "Coffee 250 g", "offers": {{"price": "4.99", "priceCurrency": "EUR",
    "availability": "https://schema.org/InStock"}}}}</script></head>
    <body><h1>Coffee 250 g</h1><div class="price">4,99 €</div>{shows}</body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "OutOfStock"
    # A buy button to press keeps the structured answer (the words are a variant's).
    pressable = html.replace("</body>", '<button class="add-to-cart">Add to cart</button></body>')
    result = product(page(pressable))
    assert result is not None and result["availability"] == "InStock"


def test_a_buy_button_waiting_for_a_size_is_no_sign_of_out_of_stock() -> None:
    html = """<html><head><meta property="og:type" content="product"></head><body>
    <h1>Wallet</h1><span itemprop="price" content="76.00">$76</span>
    <span itemprop="availability" content="http://schema.org/InStock"></span>
    <form><select name="size"><option>S</option></select>
    <button class="add-to-cart" disabled>Add to cart</button></form>
    <div class="pdp__outOfStock-container"></div></body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "InStock"


def test_an_unavailable_product_without_a_price_is_a_product_page() -> None:
    html = """<html><body><h1>Wireless headphones E19</h1>
    <div id="buybox"><span class="primary-availability-message">Currently unavailable.</span>
    </div><table><tr><th>ASIN</th><td>B0D1PC8551</td></tr></table>
    <div class="sponsored"><a href="/dp/B0OTHER"><span class="a-price">
    <span class="a-offscreen">$21.86</span></span></a></div></body></html>"""
    result = product(page(html))
    assert result is not None
    assert result["availability"] == "OutOfStock"
    assert result["price"] is None  # the sponsored product's price is not this one's


def test_an_unavailable_product_keeps_the_price_shown_beside_its_heading() -> None:
    html = """<html><body><div class="product outofstock"><div class="summary">
    <h1 class="product_title">Plato decorativo</h1>
    <p class="price"><span class="amount">45,00&nbsp;&euro;</span></p>
    <p class="stock out-of-stock">Sin existencias</p></div></div>
    <div class="related"><span class="price">12,00&nbsp;&euro;</span></div></body></html>"""
    result = product(page(html))
    assert result is not None
    assert (result["price"], result["availability"]) == ("45.00", "OutOfStock")


def test_a_variant_in_stock_in_the_buy_form_overrules_a_stale_backorder() -> None:
    variations = (
        '[{"attributes": {"attribute_pa_size": "40"}, "is_in_stock": true,'
        ' "backorders_allowed": false},'
        ' {"attributes": {"attribute_pa_size": "41"}, "is_in_stock": false,'
        ' "backorders_allowed": false}]'
    ).replace('"', "&quot;")
    html = f"""<html><head><script type="application/ld+json">{{"@type": "Product",
    "name": "Sandal", "offers": {{"price": "99.90", "priceCurrency": "EUR",
    "availability": "https://schema.org/BackOrder"}}}}</script></head><body><h1>Sandal</h1>
    <form class="variations_form cart" data-product_variations="{variations}">
    <select name="attribute_pa_size"><option>40</option><option>41</option></select>
    <button type="submit" class="single_add_to_cart_button">Add to cart</button></form>
    </body></html>"""
    result = product(page(html))
    assert result is not None and result["availability"] == "InStock"
    # Every variant on backorder: the structured answer stands.
    backorder = html.replace("true", "false").replace(
        "&quot;backorders_allowed&quot;: false", "&quot;backorders_allowed&quot;: true"
    )
    result = product(page(backorder))
    assert result is not None and result["availability_detail"] == "BackOrder"
    assert result["availability"] == "InStock"
