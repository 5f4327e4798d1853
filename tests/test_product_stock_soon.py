"""Stock lines that say a product is gone for now and will be back ("Bald wieder an
Lager", "Bientôt disponible", "Back soon"): not to be had now, so out of stock, though
they hold the words that alone say in stock; Portugal's and Catalonia's stock words; the
Japanese and Chinese lines of low and no stock; and the loose buy words a shop's header
cart link also says, which alone make no product page."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.stock import stock_line


def read(html: str, url: str) -> dict[str, object] | None:
    root = Selector(text=html, type="html").root
    return product(SourcePage(url=url, html=html, root=root), None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Back soon: out of stock now (schema.org's BackOrder is an order taken now).
        ("Bald wieder an Lager", "OutOfStock"),
        ("Bald wieder verfügbar", "OutOfStock"),
        ("Demnächst wieder lieferbar", "OutOfStock"),
        ("Wieder verfügbar ab 12.03.", "OutOfStock"),
        ("Back soon", "OutOfStock"),
        ("Back in stock soon", "OutOfStock"),
        ("Available soon", "OutOfStock"),
        ("Bientôt disponible", "OutOfStock"),
        ("Bientôt de retour en stock", "OutOfStock"),
        ("Disponible prochainement", "OutOfStock"),
        ("Próximamente disponible", "OutOfStock"),
        ("Presto di nuovo disponibile", "OutOfStock"),
        ("Disponível em breve", "OutOfStock"),
        ("Binnenkort weer op voorraad", "OutOfStock"),
        # Portugal and Catalonia.
        ("Fora de stock", "OutOfStock"),
        ("Fora d'estoc", "OutOfStock"),
        ("Sense estoc", "OutOfStock"),
        ("Exhaurit", "OutOfStock"),
        ("Esgotat", "SoldOut"),
        ("En estoc", "InStock"),
        # Japanese and Chinese.
        ("库存不足", "LimitedAvailability"),
        ("库存紧张", "LimitedAvailability"),
        ("在庫切れ間近", "LimitedAvailability"),
        ("在庫わずか", "LimitedAvailability"),
        ("残りわずか", "LimitedAvailability"),
        ("在庫がありません", "OutOfStock"),
        ("入荷待ち", "OutOfStock"),
        ("补货中", "OutOfStock"),
        ("お取り寄せ", "BackOrder"),
    ],
)
def test_the_stock_line_is_read(text: str, expected: str) -> None:
    assert stock_line(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Auf Lager", "InStock"),
        ("Wieder verfügbar!", "InStock"),  # available again, now
        ("Sofort verfügbar", "InStock"),
        ("Disponible", "InStock"),
        ("Em stock", "InStock"),
        ("Sem stock", "OutOfStock"),
        ("缺货", "OutOfStock"),
        ("在庫切れ", "OutOfStock"),
        ("庫存不足", "LimitedAvailability"),
        ("Email me when back in stock", None),  # a promise to tell, said of any size
        ("Benachrichtigen, wenn wieder verfügbar", None),
        ("到货通知", None),
        ("Coming soon", None),  # a new colour, a film: no stock line
        ("Em breve", None),
        ("Pronto para envio", None),
    ],
)
def test_the_lines_read_as_before(text: str, expected: str | None) -> None:
    assert stock_line(text) == expected


def test_a_back_soon_line_is_out_of_stock_on_the_page() -> None:
    html = """<html lang="de"><head><title>Tischlampe Nova</title></head><body>
    <h1>Tischlampe Nova</h1><div class="price">49,95 €</div>
    <p class="stock-info">Bald wieder an Lager</p>
    <button type="submit" class="add-to-cart">In den Warenkorb</button></body></html>"""
    found = read(html, "https://www.lampen.de/p/nova")
    assert found is not None
    assert (found["price"], found["availability"]) == ("49.95", "OutOfStock")


def test_a_low_stock_line_in_simplified_chinese_is_a_limited_stock() -> None:
    html = """<html lang="zh-CN"><head><title>台灯 Nova</title></head><body>
    <h1>台灯 Nova</h1><div class="price">¥ 299.00</div>
    <p class="stock-status">库存不足</p>
    <button type="submit">加入购物车</button></body></html>"""
    found = read(html, "https://www.example.cn/p/nova")
    assert found is not None
    assert (found["availability"], found["availability_detail"]) == (
        "InStock",
        "LimitedAvailability",
    )


@pytest.mark.parametrize(
    ("language", "link"),
    [
        ("es", "Ir a la cesta"),
        ("it", "Prodotti nel carrello: 0"),
        ("pt", "Itens no carrinho"),
        ("de", "Zum Warenkorb"),
        ("ca", "Anar a la cistella"),
    ],
)
def test_a_header_cart_link_and_a_price_make_no_product_page(language: str, link: str) -> None:
    html = f"""<html lang="{language}"><head><title>Los precios suben</title></head><body>
    <header><nav><a href="/">Inicio</a>
    <a href="/cart" class="header-cart">{link} <span class="price">0,00 €</span></a></nav></header>
    <h1>Los precios suben</h1>
    <p>El kilo de tomates cuesta ahora 3,49 € en los mercados, un 20% más que el año pasado.</p>
    </body></html>"""
    assert read(html, "https://news.example.es/2024/05/precios") is None


def test_a_catalan_buy_button_makes_a_product_page() -> None:
    html = """<html lang="ca"><head><title>Làmpada Nova</title></head><body>
    <h1>Làmpada Nova</h1><div class="price">24,90 €</div>
    <p class="stock-status">Esgotat</p>
    <button type="submit" disabled>Afegeix a la cistella</button></body></html>"""
    found = read(html, "https://www.botiga.cat/p/nova")
    assert found is not None
    assert (found["price"], found["availability"], found["availability_detail"]) == (
        "24.90",
        "OutOfStock",
        "SoldOut",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A count of none is out of stock in any language, whatever the words around it.
        ("0 in stock", "OutOfStock"),
        ("In stock: 0", "OutOfStock"),
        ("Only 0 left", "OutOfStock"),
        ("Nur noch 0 Stück", "OutOfStock"),
        ("Disponible: 0 unidades", "OutOfStock"),
        ("재고 0개", "OutOfStock"),
        ("Còn 0 hàng", "OutOfStock"),
        ("Laos: 0 tk", "OutOfStock"),
        # A count of some, a range, a price or a delivery time of none is no count of none.
        ("10 in stock", "InStock"),
        ("Only 3 left", "LimitedAvailability"),
        ("In stock, ready in 0-2 days", "InStock"),
        ("€0.00 In stock", "InStock"),
        ("In stock, ships in 0 days", "InStock"),
    ],
)
def test_a_count_of_none_is_out_of_stock(text: str, expected: str) -> None:
    assert stock_line(text) == expected


def test_a_stock_line_of_none_on_a_page_makes_it_out_of_stock() -> None:
    html = """<html lang="en"><head><title>Desk Lamp</title></head><body>
    <h1>Desk Lamp</h1><div class="price">$24.90</div>
    <p class="stock-status">0 in stock</p>
    <button type="submit">Add to cart</button></body></html>"""
    found = read(html, "https://shop.example.com/p/lamp")
    assert found is not None
    assert found["availability"] == "OutOfStock"
