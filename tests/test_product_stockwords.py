"""Stock lines, buy buttons and delivery lines in Korean, Vietnamese, Thai, Indonesian,
Arabic, Persian, Bulgarian, Croatian, Slovenian, Lithuanian, Latvian and Estonian, as the
shop platforms print them (Shopify's Dawn, Shopware, Sylius, Spree, Solidus): read as
meant, their negations as out of stock, a time left as no low stock, and the words that
say no more than "cannot be used" left unread."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.prices import availability_in_text
from webrobot.extract.product.stock import stock_line

#: The platforms' lines, with a quantity of 3 where they take one.
PLATFORM_LINES = [
    # Korean
    ("재고 있음", "InStock"),
    ("재고 3개", "InStock"),
    ("재고 부족", "LimitedAvailability"),
    ("재고 부족: 3개 남음", "LimitedAvailability"),
    ("품절", "SoldOut"),
    # Vietnamese
    ("Còn hàng", "InStock"),
    ("Còn 3 hàng lưu kho", "InStock"),
    ("Sắp hết hàng", "LimitedAvailability"),
    ("Sắp hết hàng: Còn 3", "LimitedAvailability"),
    ("Hết hàng", "OutOfStock"),
    ("Đã bán hết", "SoldOut"),
    ("Không có sẵn", "OutOfStock"),
    ("Những tùy chọn hiện tại không có sẳn.", "OutOfStock"),
    # Thai
    ("มีในสต็อก", "InStock"),
    ("มี 3 รายการในสต็อกสินค้า", "InStock"),
    ("มีสินค้าในสต็อก", "InStock"),
    ("สต็อกสินค้าเหลือน้อย", "LimitedAvailability"),
    ("สต็อกสินค้าเหลือน้อย: เหลือ 3 ชิ้น", "LimitedAvailability"),
    ("หมดสต็อก", "OutOfStock"),
    ("สินค้าหมดสต๊อก", "OutOfStock"),
    ("สินค้าหมด", "OutOfStock"),
    ("ขายหมดแล้ว", "SoldOut"),
    # Indonesian
    ("Tersedia", "InStock"),
    ("3 tersedia", "InStock"),
    ("Stok sedikit", "LimitedAvailability"),
    ("Stok sedikit: 3 tersisa", "LimitedAvailability"),
    ("Habis", "SoldOut"),
    ("Tidak Tersedia", "OutOfStock"),
    ("Kehabisan persediaan", "OutOfStock"),
    ("Pilihan saat ini tidak tersedia.", "OutOfStock"),
    ("Tidak lagi tersedia", "Discontinued"),
    # Arabic, Persian
    ("متوفر", "InStock"),
    ("غير متوفر", "OutOfStock"),
    ("موجود در انبار", "InStock"),
    ("موجودی نداریم", "OutOfStock"),
    ("ناموجود", "OutOfStock"),
    # Bulgarian
    ("В наличност", "InStock"),
    ("3 в наличност", "InStock"),
    ("Ниски наличности: остават 3", "LimitedAvailability"),
    ("Изчерпано количество", "SoldOut"),
    ("Неналично", "OutOfStock"),
    ("Не е в наличност", "OutOfStock"),
    ("Няма в наличност", "OutOfStock"),
    ("Не е наличен", "OutOfStock"),
    ("Тези опции в момента не са налични.", "OutOfStock"),
    ("Не се предлага", "OutOfStock"),
    ("Вече не е налично", "Discontinued"),
    # Croatian
    ("Dostupno", "InStock"),
    ("Br. dostupnih komada: 3", "InStock"),
    ("Preostalo malo komada: samo 3", "LimitedAvailability"),
    ("Nema na zalihama", "OutOfStock"),
    ("Nema na skladištu", "OutOfStock"),
    ("Rasprodano", "SoldOut"),
    ("Nedostupno", "OutOfStock"),
    ("Ove opcije trenutno nisu dostupne.", "OutOfStock"),
    ("Nije više dostupno", "Discontinued"),
    # Slovenian
    ("Na zalogi", "InStock"),
    ("Na zalogi: 3", "InStock"),
    ("Majhna zaloga, preostalo še: 3", "LimitedAvailability"),
    ("Ni na zalogi", "OutOfStock"),
    ("Razprodano", "SoldOut"),
    ("Ni na voljo", "OutOfStock"),
    ("Te možnosti trenutno niso na voljo.", "OutOfStock"),
    ("Ni več na voljo", "Discontinued"),
    # Lithuanian
    ("Yra sandėlyje", "InStock"),
    ("3 vnt. sandėlyje", "InStock"),
    ("Atsargos senka: liko 3 vnt.", "LimitedAvailability"),
    ("Neturime", "OutOfStock"),
    ("Atsiprašome, prekės šiuo metu neturime.", "OutOfStock"),
    ("Išparduota", "SoldOut"),
    # Latvian
    ("Pieejams noliktavā", "InStock"),
    ("Izpārdots", "SoldOut"),
    ("Nepieejams", "OutOfStock"),
    ("Šīs iespējas pašlaik nav pieejamas.", "OutOfStock"),
    ("Vairāk nav pieejams", "Discontinued"),
    # Estonian
    ("Laos", "InStock"),
    ("Laos: 3 tk", "InStock"),
    ("Laost lõppenud", "OutOfStock"),
    # Magento's language packs ("In stock", "Out of stock", "Only %1 left")
    ("متوفر 3 فقط", "LimitedAvailability"),
    ("غير متوفر بالمخزن", "OutOfStock"),
    ("در انبار موجود نیست", "OutOfStock"),
    ("فقط 3 عدد باقی مانده است", "LimitedAvailability"),
    ("На склад", "InStock"),
    ("Останали са само 3", "LimitedAvailability"),
    ("Ainult 3 järgi", "LimitedAvailability"),
    ("Laost otsas", "OutOfStock"),
    ("Habis terjual", "SoldOut"),
    ("Hanya tersisa 3", "LimitedAvailability"),
    ("Sandėlyje", "InStock"),
    ("Nėra sandėlyje", "OutOfStock"),
    ("Noliktavā", "InStock"),
    ("Tikai 3 palikuši", "LimitedAvailability"),
    ("มีสินค้า", "InStock"),
    ("Còn trong kho", "InStock"),
    ("Tạm hết hàng", "OutOfStock"),
    ("Chỉ còn 3", "LimitedAvailability"),
    # Vietnamese with its tone marks apart (as Magento's pack writes some of them)
    ("Ta\u0323m hê\u0301t ha\u0300ng", "OutOfStock"),
    ("Co\u0300n ha\u0300ng", "InStock"),
]


@pytest.mark.parametrize(("text", "expected"), PLATFORM_LINES)
def test_the_platforms_stock_lines(text: str, expected: str) -> None:
    assert availability_in_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a negation before the word that alone says in stock
        ("Không còn hàng", "OutOfStock"),
        ("ไม่มีสินค้าในสต็อก", "OutOfStock"),
        ("ไม่มีสินค้า", "OutOfStock"),
        ("재고 없음", "OutOfStock"),
        ("غير متاح", "OutOfStock"),
        ("غير موجود", "OutOfStock"),
        ("موجود نیست", "OutOfStock"),
        ("نا\u200cموجود", "OutOfStock"),  # with the zero-width non-joiner Persian writes
        ("Nema na stanju", "OutOfStock"),
        ("Trenutno nije na stanju", "OutOfStock"),  # "is not", beside "there is none"
        ("Nije na zalihi", "OutOfStock"),
        ("Proizvod nije na skladištu", "OutOfStock"),
        ("Няма на склад", "OutOfStock"),
        ("Нет на складе", "OutOfStock"),  # Russian, beside Bulgarian "На склад"
        ("Nije dostupno", "OutOfStock"),
        ("Nema dostupnih komada", "OutOfStock"),
        ("Není dostupná", "OutOfStock"),  # Czech, beside Croatian "dostupno"
        ("Nėra sandėlyje", "OutOfStock"),
        ("Nav pieejams", "OutOfStock"),
        ("Pole laos", "OutOfStock"),
        ("Ei ole saadaval", "OutOfStock"),
        # almost out is a low stock, not out of stock
        ("품절 임박", "LimitedAvailability"),
        ("Hampir habis", "LimitedAvailability"),
        ("Chỉ còn 2 sản phẩm", "LimitedAvailability"),
        ("Sisa 2", "LimitedAvailability"),
        # available soon is not now
        ("Segera tersedia", "OutOfStock"),
        ("Uskoro dostupno", "OutOfStock"),
        ("Uskoro ponovno na stanju", "OutOfStock"),
        ("Kmalu na voljo", "OutOfStock"),
        ("Kmalu spet na zalogi", "OutOfStock"),
        ("Скоро в наличност", "OutOfStock"),
        ("Очаквайте скоро отново на склад", "OutOfStock"),
        ("Netrukus sandėlyje", "OutOfStock"),
        ("Drīzumā pieejams", "OutOfStock"),
        ("Pieejams drīzumā", "OutOfStock"),
        ("Varsti saadaval", "OutOfStock"),
        ("Peagi taas laos", "OutOfStock"),
        ("متوفر قريباً", "OutOfStock"),
        ("قريباً متوفر", "OutOfStock"),
        ("به زودی موجود می\u200cشود", "OutOfStock"),
    ],
)
def test_a_negation_or_an_almost(text: str, expected: str) -> None:
    assert availability_in_text(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a time left
        "3일 남음",
        "Chỉ còn 3 ngày",
        "Khuyến mãi chỉ còn 5 giờ",
        "เหลือ 3 วัน",
        "Sisa 3 hari lagi",
        "Остават 3 дни",
        "Preostalo 3 dana",
        "Samo še 3 dni",
        "Liko 3 dienos",
        "Останали са 3 дни",
        "Hanya tersisa 3 hari",
        "На складе",  # Russian "in stock" was not read before, nor is it now
        # the words that say no more than "cannot be used", "there is none", "N/A"
        "사용할 수 없음",
        "사용 불가",
        "더 이상 사용할 수 없음",
        "Không còn khả dụng nữa",
        "Không có",
        "ไม่พร้อมใช้งาน",
        "ไม่สามารถใช้ได้",
        "ไม่มี",
        "Nėra",
        "Nepasiekiamas",
        "غ/م",
        # a word inside another ("all products", "expired"), a country's name in a line
        "สินค้าทั้งหมด",
        "Shipping to Laos and Cambodia",
    ],
)
def test_no_stock_line(text: str) -> None:
    assert availability_in_text(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "배송 준비 완료, 예상 배송 시간: 1-3 영업일",
        "Sẵn sàng để gửi hàng, ước tính thời gian giao hàng: 1-3 ngày làm việc",
        "Siap dikirimkan, estimasi waktu pengiriman: 1-3 hari kerja",
        "Spremno za isporuku, predviđeno vrijeme isporuke: 1-3 radna dana",
        "Pripravljen na ladjo, predvideni čas dobave: 1-3 delovnih dni",
        "Gatavs nosūtīšanai, piegāde 1-3 darba dienu laikā",
    ],
)
def test_a_delivery_time_can_be_ordered(text: str) -> None:
    assert stock_line(text) == "InStock"


@pytest.mark.parametrize(
    "text",
    [
        # Magento's "Notify me when this product is in stock", and the like
        "재고가 들어오면 알려주세요.",
        "Thông báo cho tôi khi sản phẩm này có hàng",
        "Beritahu saya bila produk ini tersedia",
        "وقتی که این محصول موجود شد، به من اطلاع بده",
        "Уведомявай ме, когато този продукт е в наличност",
        "Praneškite man, kai ši prekės atsiras sandėlyje",
        "Obavijesti me kada bude dostupno",
        "Obvesti me, ko bo na zalogi",
        "Paziņot, kad būs pieejams",
        "Teavita mind, kui toode on laos",
        "أعلمني عند توفر المنتج",
        "แจ้งเตือนเมื่อมีสินค้า",
        # the same promise in the shops' other common words ("tell me", "let me know")
        "แจ้งฉันเมื่อมีสินค้า",
        "أخبرني عندما يكون متوفرا",
        "Известете ме, когато е в наличност",
        "Pranešti, kai bus sandėlyje",
        "Beritahu aku jika tersedia",
        "Obavesti me kada bude na stanju",
        "Javite mi kada bude dostupno",
        "Sporočite mi, ko bo na zalogi",
        "Anna mulle teada, kui toode on laos",
        "Báo cho tôi khi còn hàng",
    ],
)
def test_a_promise_to_tell_is_no_stock_line(text: str) -> None:
    assert stock_line(text) is None


def read(html: str) -> dict[str, object] | None:
    root = Selector(text=html, type="html").root
    return product(SourcePage(url="https://shop.example.com/p/nova", html=html, root=root), None)


@pytest.mark.parametrize(
    "label",
    [
        "카트에 추가",
        "바로 구매",
        "Thêm vào giỏ hàng",
        "Cho Vào Giỏ Hàng",
        "Mua ngay",
        "เพิ่มลงในตะกร้าสินค้า",
        "เพิ่มลงตะกร้า",
        "หยิบใส่รถเข็น",
        "Tambahkan ke keranjang",
        "Masukkan ke keranjang",
        "Beli sekarang",
        "أضف إلى السلّة",
        "أضف إلى السلة",
        "افزودن به سبد خرید",
        "Добавяне към количката",
        "Добави в кошницата",
        "Dodaj u košaricu",
        "Dodajte v košarico",
        "Įdėti į krepšelį",
        "Į krepšelį",
        "Pievienot grozam",
        "Lisa ostukorvi",
        "أضف لسلة التسوق",
        "اضافه کردن به سبد خرید",
        "Добави в количка",
        "Stavi u košaricu",
        "เพิ่มในตะกร้าสินค้า",
        "The\u0302m va\u0300o gio\u0309 ha\u0300ng",  # the tone marks apart
    ],
)
def test_the_platforms_buy_buttons_make_a_product_page(label: str) -> None:
    html = f"""<html><head><title>Nova</title></head><body><h1>Nova</h1>
    <div class="price">€ 49,95</div><button type="submit">{label}</button></body></html>"""
    found = read(html)
    assert found is not None
    assert (found["price"], found["availability"]) == ("49.95", "InStock")


def test_a_link_to_the_cart_is_no_buy_button() -> None:
    html = """<html><head><title>Nova</title></head><body><h1>Nova</h1>
    <div class="price">€ 49,95</div><a href="/cart">Eiti į krepšelį</a></body></html>"""
    assert read(html) is None


def test_a_thai_out_of_stock_line_on_a_page() -> None:
    html = """<html lang="th"><head><title>โคมไฟ Nova</title></head><body>
    <h1>โคมไฟ Nova</h1><div class="price">฿1,290.00</div>
    <p class="stock-status">สินค้าหมดสต๊อก</p>
    <button type="submit" disabled>เพิ่มลงในตะกร้าสินค้า</button></body></html>"""
    found = read(html)
    assert found is not None
    assert (found["price"], found["currency"], found["availability"]) == (
        "1290.00",
        "THB",
        "OutOfStock",
    )


def test_a_vietnamese_low_stock_line_on_a_page() -> None:
    html = """<html lang="vi"><head><title>Đèn bàn Nova</title></head><body>
    <h1>Đèn bàn Nova</h1><div class="price">490.000₫</div>
    <p class="stock">Sắp hết hàng: Còn 2</p>
    <button type="submit">Thêm vào giỏ hàng</button></body></html>"""
    found = read(html)
    assert found is not None
    assert (found["price"], found["availability"], found["availability_detail"]) == (
        "490000.00",
        "InStock",
        "LimitedAvailability",
    )
