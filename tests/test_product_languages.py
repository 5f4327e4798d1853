"""Product fields in more languages and currencies: the stock lines and buy buttons shop
platforms print in their own translations (Shopify's Dawn theme, Magento's language
packs), and the Swiss apostrophe that groups thousands (``CHF 1’234.50``)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.prices import (
    availability_in_text,
    currency_code,
    parse_price_text,
)
from webrobot.extract.product.stock import stock_line


def read(html: str, url: str) -> dict[str, object] | None:
    root = Selector(text=html, type="html").root
    return product(SourcePage(url=url, html=html, root=root), None)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("CHF 1\u2019234.50", "de-ch", "1234.50"),  # the Unicode locale data's de-CH mark
        ("1\u2019234.50 CHF", "de", "1234.50"),
        ("Fr. 1\u2019299.\u2013", "de-ch", "1299"),
        ("CHF 12\u2019345.\u2014", "it-ch", "12345"),
        ("1\u2019234\u2019567.89 CHF", "fr-ch", "1234567.89"),
        ("CHF 1\u02bc234.50", "de-ch", "1234.50"),  # a modifier letter apostrophe
        ("CHF 1\u2032234.50", "de-ch", "1234.50"),  # a prime
        ("CHF 1'234.50", "de-ch", "1234.50"),  # the ASCII one, as before
    ],
)
def test_a_swiss_apostrophe_groups_thousands(text: str, language: str, expected: str) -> None:
    amount, _ = parse_price_text(text, language=language, tld="ch")
    assert amount == Decimal(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 299,00 zł", "1299.00"),
        ("1\u00a0299\u00a0Kč", "1299"),
        ("1 299:-", "1299"),
        ("1.299,00 kr.", "1299.00"),
        ("₺1.299,99", "1299.99"),
        ("R$ 1.299,90", "1299.90"),
        ("1,280円（税込）", "1280"),
        ("1\u202f234,50\u00a0₽", "1234.50"),
    ],
)
def test_other_marks_are_read_as_before(text: str, expected: str) -> None:
    assert parse_price_text(text)[0] == Decimal(expected)


@pytest.mark.parametrize(
    ("sign", "code"), [("원", "KRW"), ("SFr.", "CHF"), ("sFr", "CHF"), ("₸", "KZT"), ("Kc", "CZK")]
)
def test_more_currency_signs(sign: str, code: str) -> None:
    assert currency_code(sign) == code


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("۱۲۰٬۰۰۰ تومان", "fa", "120000"),  # the Arabic thousands mark, U+066C
        ("١٢٫٥٠ د.إ", "ar", "12.50"),  # the Arabic decimal mark, U+066B
        ("١٬٢٥٠٫٥٠ ر.س", "ar", "1250.50"),
        ("۱۲۰,۰۰۰ تومان", "fa", "120000"),  # a comma, as before
    ],
)
def test_the_arabic_marks_group_and_separate(text: str, language: str, expected: str) -> None:
    assert parse_price_text(text, language=language)[0] == Decimal(expected)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("١٫٥٠٠ د.ك", ""),  # a Kuwaiti dinar has three decimals
        ("1٫500 KWD", ""),
        ("۱٫۵۰۰ ریال", "fa"),
        ("١٫٥٠٠ د.ك", "ar"),
    ],
)
def test_the_arabic_decimal_mark_before_three_digits_stays_a_decimal_mark(
    text: str, language: str
) -> None:
    # U+066B says decimal in every language: made a point, "1.500" read as a thousands
    # group, unless the page declared a language that writes a decimal point.
    assert parse_price_text(text, language=language)[0] == Decimal("1.5")


def test_a_won_price_groups_thousands_with_a_point() -> None:
    # The won has no cents: "29.900원" is twenty-nine thousand nine hundred, though
    # Korean writes a decimal point (the sign was not known, so the point was read as one).
    assert parse_price_text("29.900원", language="ko", tld="kr")[0] == Decimal(29900)


#: Stock lines as the platforms print them (the Dawn theme's ``inventory_*``,
#: ``sold_out`` and ``unavailable`` strings; Magento's "In stock", "Out of stock" and
#: "Only %1 left"), with a quantity where they take one.
PLATFORM_LINES = [
    # Polish
    ("W magazynie", "InStock"),
    ("3 w magazynie", "InStock"),
    ("Zapas wyczerpany", "OutOfStock"),
    ("Niski poziom zapasów: pozostało 3", "LimitedAvailability"),
    ("Tylko 3 pozostał", "LimitedAvailability"),
    # Dutch
    ("Lage voorraad: nog maar 3", "LimitedAvailability"),
    ("Nog 3 beschikbaar", "LimitedAvailability"),
    # Italian
    ("Scorte ridotte: ne restano 3", "LimitedAvailability"),
    ("Solo 3 rimasto/i", "LimitedAvailability"),
    # Portuguese
    ("Em stock", "InStock"),
    ("Estoque baixo: 3 restante(s)", "LimitedAvailability"),
    ("Stock reduzido: 3 restantes", "LimitedAvailability"),
    ("Só resta 3", "LimitedAvailability"),
    # Swedish, Danish, Norwegian, Finnish
    ("Slut i lager", "OutOfStock"),
    ("Inte tillgängliga", "OutOfStock"),
    ("Låg lagernivå: 3 kvar", "LimitedAvailability"),
    ("Endast 3 kvar", "LimitedAvailability"),
    ("Ikke tilgængelig", "OutOfStock"),
    ("Lav lagerbeholdning: 3 tilbage", "LimitedAvailability"),
    ("Utilgjengelig", "OutOfStock"),
    ("Lav lagerbeholdning: 3 igjen", "LimitedAvailability"),
    ("Varastossa", "InStock"),
    ("Loppunut varastosta", "OutOfStock"),
    ("Loppuunmyyty", "SoldOut"),
    ("Varasto vähissä: 3 jäljellä", "LimitedAvailability"),
    # Czech, Slovak
    ("Není k dispozici", "OutOfStock"),
    ("Posledních 3", "LimitedAvailability"),
    ("Skladové zásoby docházejí, zbývající množství: 3", "LimitedAvailability"),
    ("Nedostupné", "OutOfStock"),
    ("Nízky stav zásob: zostáva 3", "LimitedAvailability"),
    # Turkish
    ("Stok düzeyi düşük: 3 adet kaldı", "LimitedAvailability"),
    # Japanese
    ("3個の在庫", "InStock"),
    ("低在庫：残り3個", "LimitedAvailability"),
    ("3のみ残っています", "LimitedAvailability"),
    ("ただいま品切れ中です", "SoldOut"),
    # Chinese
    ("3 件存货", "InStock"),
    ("有庫存", "InStock"),
    ("有 3 件庫存", "InStock"),
    ("低库存：剩余 3", "LimitedAvailability"),
    ("庫存不足：剩餘 3 件", "LimitedAvailability"),
    ("無庫存", "OutOfStock"),
    ("無法供貨", "OutOfStock"),
    # Russian
    ("Недоступно", "OutOfStock"),
    ("Заканчивается. Осталось: 3", "LimitedAvailability"),
    ("Осталось всего 3", "LimitedAvailability"),
    # Romanian, Hungarian, Greek
    ("Nu există în stoc", "OutOfStock"),
    ("Stoc redus: doar 3 articole rămase", "LimitedAvailability"),
    ("Elfogyott", "SoldOut"),
    ("Nincs készleten", "OutOfStock"),
    ("Alacsony készlet: csak 3 van raktáron", "LimitedAvailability"),
    ("Μη διαθέσιμο", "OutOfStock"),
    ("Σε απόθεμα", "InStock"),
]


#: Shopware's storefront lines (its language pack): "not available" written with the
#: negation as a word of its own before the word that alone says available, read before
#: as in stock; its delivery lines; its "no longer available".
SHOPWARE_LINES = [
    ("Esta selección no está disponible", "OutOfStock"),
    ("Cette sélection n'est pas disponible", "OutOfStock"),
    ("Questa selezione non è disponibile", "OutOfStock"),
    ("Ten wybór nie jest dostępny", "OutOfStock"),
    ("Esta seleção não está disponível", "OutOfStock"),
    ("Aceste opțiuni nu sunt disponibile în prezent.", "OutOfStock"),
    ("Det här valet är inte tillgängligt", "OutOfStock"),
    ("Disse indstillinger er i øjeblikket ikke tilgængelige.", "OutOfStock"),
    ("Niedostępne", "OutOfStock"),
    ("Otillgänglig", "OutOfStock"),
    ("Выбранные параметры недоступны.", "OutOfStock"),
    ("Ya no está disponible", "Discontinued"),
    ("Le produit n'est plus disponible.", "Discontinued"),
    ("Non più disponibile", "Discontinued"),
    ("Produkt nie jest już dostępny.", "Discontinued"),
    ("O produto não está mais disponível.", "Discontinued"),
    ("Já não está disponível", "Discontinued"),
    ("Het product is niet meer leverbaar.", "Discontinued"),
    ("Niet langer beschikbaar", "Discontinued"),
    ("Produkten är inte längre tillgänglig.", "Discontinued"),
    ("Ikke længere tilgængelig", "Discontinued"),
    ("Продукт больше не доступен.", "Discontinued"),
    ("Ürün artık mevcut değil.", "Discontinued"),
    ("Produsul nu mai este disponibil.", "Discontinued"),
    ("Δεν είναι πλέον διαθέσιμο", "Discontinued"),
    # Sylius' "Out of stock" and "Unavailable" ("Ej tillgänglig" was read as in stock).
    ("Ej tillgänglig", "OutOfStock"),
    ("Geen voorraad", "OutOfStock"),
    ("Onbeschikbaar", "OutOfStock"),
    ("Нет на складе", "OutOfStock"),
    ("Недоступен", "OutOfStock"),
    # Spree's and Solidus' ("没有库存", no stock, must not be read as "有库存").
    ("没有库存", "OutOfStock"),
    ("Fuera de stock", "OutOfStock"),
    ("Fuera de Inventario", "OutOfStock"),
    ("Ei saatavilla", "OutOfStock"),
    ("Nu mai este pe stoc", "OutOfStock"),
    ("Не доступен", "OutOfStock"),
    ("An Lager", "InStock"),
    # PrestaShop's, as its themes translate it ("Last items in stock").
    ("Last items in stock", "LimitedAvailability"),
    ("Derniers articles en stock", "LimitedAvailability"),
    ("Últimos artigos em stock", "LimitedAvailability"),
    ("Ostatnie sztuki w magazynie", "LimitedAvailability"),
    ("Poslední kus skladem", "LimitedAvailability"),
    ("Sista produkten i lager", "LimitedAvailability"),
    ("Ultimi articoli in magazzino", "LimitedAvailability"),
    ("Laatste items in voorraad", "LimitedAvailability"),
    ("Последние товары на складе", "LimitedAvailability"),
    ("In magazzino", "InStock"),
    ("Tillfälligt slut", "OutOfStock"),
    ("Beschikbaar, levertijd: 2-3 werkdagen", "InStock"),
    ("Tillgängligt, leveranstid: 2-3 dagar", "InStock"),
    ("K dispozici, dodací lhůta: 2-3 dny", "InStock"),
]


@pytest.mark.parametrize(("text", "expected"), SHOPWARE_LINES)
def test_shopware_lines(text: str, expected: str) -> None:
    assert availability_in_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Natychmiast gotowe do wysyłki, dostawa ok. 1–3 dni robocze", "InStock"),
        ("Verzendklaar, verwachte levertijd: 1-3 werkdagen", "InStock"),
        ("Klar för leverans, leveranstid ca 1-3 arbetsdagar", "InStock"),
        ("Gönderilmeye hazır, tahmini teslimat süresi: 1-3 iş günü", "InStock"),
        ("Okamžitě připraveno k odeslání, dodací lhůta asi 1–3 pracovní dny", "InStock"),
        ("Gratis verzending", None),
    ],
)
def test_a_delivery_time_can_be_ordered(text: str, expected: str | None) -> None:
    assert stock_line(text) == expected


@pytest.mark.parametrize(("text", "expected"), PLATFORM_LINES)
def test_the_platforms_stock_lines(text: str, expected: str) -> None:
    assert availability_in_text(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Do końca promocji pozostało 3 dni",
        "Осталось 3 дня",
        "セール終了まで残り3日",
        "活动剩余3天",
        "Nog maar 3 dagen",
        "Ne restano 3 giorni",
        "3 dias restantes",
        "Акция заканчивается завтра",
        "Gratis verzending",
        # the lowest price of the last 30 days, as EU shops must print it
        "Nejnižší cena za posledních 30 dní",
        "Do konca akcie zostáva 5 dní",
    ],
)
def test_a_time_left_is_no_stock_line(text: str) -> None:
    assert availability_in_text(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Romanian written without its diacritics, as many shops do
        ("Nu este in stoc", "OutOfStock"),
        ("Nu mai este in stoc", "OutOfStock"),
        ("In stoc", "InStock"),
        ("Nicht an Lager", "OutOfStock"),
        ("Nicht mehr an Lager", "OutOfStock"),
        ("An Lager", "InStock"),
        ("Nie ma w magazynie", "OutOfStock"),
        ("Non presente in magazzino", "OutOfStock"),
        ("Não disponível", "OutOfStock"),
        ("Δεν υπάρχει σε απόθεμα", "OutOfStock"),
        ("Ya no disponible", "Discontinued"),
    ],
)
def test_a_negation_before_a_platform_stock_word(text: str, expected: str) -> None:
    assert availability_in_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I lager", "InStock"),
        ("În stoc", "InStock"),
        ("Není skladem", "OutOfStock"),
        ("Skladem", "InStock"),
    ],
)
def test_the_words_read_before_still_read(text: str, expected: str | None) -> None:
    assert availability_in_text(text) == expected


def test_a_swiss_price_on_a_page() -> None:
    html = """<html lang="de-CH"><head><title>Kaffeemaschine Barista 3</title></head><body>
    <h1>Kaffeemaschine Barista 3</h1><div class="product-price"><span class="price">
    CHF 1\u2019234.50</span></div><p class="availability">An Lager</p>
    <button class="add-to-cart">In den Warenkorb</button></body></html>"""
    found = read(html, "https://www.laden.ch/p/barista-3")
    assert found is not None
    assert (found["price"], found["currency"]) == ("1234.50", "CHF")


def test_a_dutch_buy_button_and_low_stock_line() -> None:
    html = """<html lang="nl"><head><title>Tafellamp Nova</title></head><body>
    <h1>Tafellamp Nova</h1><div class="price">€ 49,95</div>
    <p class="stock">Lage voorraad: nog maar 2</p>
    <button type="submit">Aan winkelwagen toevoegen</button></body></html>"""
    found = read(html, "https://www.lampen.nl/p/nova")
    assert found is not None
    assert (found["price"], found["availability"], found["availability_detail"]) == (
        "49.95",
        "InStock",
        "LimitedAvailability",
    )


def test_a_swedish_out_of_stock_line_is_not_read_as_in_stock() -> None:
    html = """<html lang="sv"><head><title>Bordslampa Nova</title></head><body>
    <h1>Bordslampa Nova</h1><div class="price">1 299 kr</div>
    <p class="stock-status">Slut i lager</p>
    <button type="submit" disabled>Lägg till i kundvagn</button></body></html>"""
    found = read(html, "https://www.lampor.se/p/nova")
    assert found is not None
    assert (found["price"], found["currency"], found["availability"]) == (
        "1299.00",
        "SEK",
        "OutOfStock",
    )


@pytest.mark.parametrize(
    "label",
    [
        "Aan winkelwagen toevoegen",
        "Læg i indkøbskurv",
        "Lägg till i kundvagn",
        "添加到购物车",
        "Hozzáadás a kosárhoz",
        "Add to shopping cart",
        "Do nákupního košíku",
        "Tilføj til indkøbskurv",
        "Nel carrello",
        "No carrinho de compras",
        "Alışveriş sepetine ekle",
        "放进购物车",
        "加到購物車",
        "Lisää koriin",
        "У кошик",
    ],
)
def test_the_platforms_buy_buttons_make_a_product_page(label: str) -> None:
    html = f"""<html><head><title>Nova</title></head><body><h1>Nova</h1>
    <div class="price">€ 49,95</div><button type="submit">{label}</button></body></html>"""
    found = read(html, "https://shop.example.com/p/nova")
    assert found is not None
    assert (found["price"], found["availability"]) == ("49.95", "InStock")
