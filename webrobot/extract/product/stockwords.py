"""Stock lines, buy buttons and delivery lines in Korean, Vietnamese, Thai, Indonesian,
Arabic, Persian, Bulgarian, Croatian, Slovenian, Lithuanian, Latvian and Estonian, as the
shop platforms print them in their own translation files: Shopify's Dawn theme
(``inventory_*``, ``sold_out``, ``add_to_cart``), Shopware's language pack, Sylius, Spree
and Solidus ("In stock", "Out of stock", "Add to cart").

:mod:`~webrobot.extract.product.prices` adds :data:`STOCK_WORDS` to its availability
patterns (tried in its order: sold out, out of stock, discontinued, pre-order, back
order, low stock, in stock), :mod:`~webrobot.extract.product.markup` adds
:data:`BUY_WORDS` to its buy button labels and :mod:`~webrobot.extract.product.stock`
adds :data:`DELIVERY_WORDS` to the delivery lines that, with a number, mean the product
can be ordered. They are tried on stock lines, buy box lines and button labels only.

The care taken:

* a negation written as a word of its own, or joined to the word, before the word that
  alone says in stock is out of stock (Vietnamese "Không còn hàng", Indonesian "Tidak
  tersedia", Arabic "غير متوفر", Persian "ناموجود" and "موجود نیست" with the negation
  after, Bulgarian "Не е в наличност", Croatian "Nema na stanju" and "Nije na stanju",
  Slovenian "Ni na zalogi", Latvian "Nav pieejams");
  "almost out" is low stock, not out ("Sắp hết hàng", "품절 임박", "hampir habis");
  "soon" with the words that alone say in stock is out of stock, to be had only later
  ("Segera tersedia", "Uskoro dostupno", "Kmalu na voljo", "Скоро в наличност",
  "Drīzumā pieejams", "Varsti saadaval", "متوفر قريباً", "به زودی موجود");
* a count of days or hours left is no low stock ("3일 남음", "Còn 3 ngày", "เหลือ 3 วัน",
  "Sisa 3 hari", "Остават 3 дни", "Liko 3 dienos"): each count takes a counter word
  or a time word may not follow it;
* the platforms' words for an unavailable variant that say no more than "cannot be
  used" or "there is none" are left out: Korean "사용할 수 없음" and "사용 불가",
  Vietnamese "Không còn khả dụng" and "Không có", Thai "ไม่พร้อมใช้งาน" and "ไม่มี",
  Lithuanian "Nėra" and "Nepasiekiamas", and "N/A", "غ/م";
* Thai is written without spaces between words, so its words are matched without the
  word boundaries (``\\b``) that fail there, and so are the Korean, Arabic and Persian
  ones, whose words take particles and prefixes joined to them;
* Estonian "Laos" (in stock) is also a country's name: it is read only as a line of its
  own or with a count ("Laos: 3 tk").

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import unicodedata

#: No time word after a count ("3 dni", "3 ngày", "3 วัน"): a time left is no low stock.
_NOT_TIME = (
    r"(?!\s*(?:dan|dni|dien|hari|jam|ngày|giờ|วัน|ชั่วโมง|일|시간|أيام|يوم|ساع|روز|ساعت"
    r"|дни|ден|час|päev|tund|min))"
)

# fmt: off
STOCK_WORDS: dict[str, str] = {
    "SoldOut": (
        r"품절(?!\s*임박)|\bđã\s+bán\s+hết\b|ขายหมดแล้ว|ขายหมด|(?<!hampir\s)\bhabis\b|\bterjual\s+habis\b"
        r"|\bизчерпан[оаи]?\b|\brasprodan[oa]?\b|\brazprodan[oa]?\b|\bišparduot[aos]\b|\bizpārdot[sa]\b"
        r"|\bvälja\s+müüdud\b"
    ),
    "OutOfStock": (
        # Korean, Vietnamese, Thai, Indonesian
        r"재고\s*(?:없음|없습니다|가\s*없)|(?<!sắp\s)\bhết\s+hàng\b|\bkhông\s+còn\s+hàng\b|\bkhông\s+có\s+s[ẵẳ]n\b"
        r"|หมดสต[็๊]อก|สินค้าหมด(?!อายุ)|ไม่มีสินค้า|ไม่มี(?:สินค้า)?ในสต[็๊]อก"
        r"|(?<!lagi\s)\btidak\s+tersedia\b|\bbelum\s+tersedia\b|\bstok\s+habis\b|\bkehabisan\s+(?:stok|persediaan)\b"
        r"|\bsegera\s+tersedia\b|\bstok\s+kosong\b"
        # Arabic, Persian
        r"|غير\s+(?:متوا?فر|متاح|موجود)|نف[دذ]ت?\s+(?:الكمية|الكميه|من\s+المخزون)|(?:المخزون|الكمية)\s+نف[دذ]"
        r"|نا\u200c?موجود|موجود\s+نیست|موجودی\s+ندار|اتمام\s+موجودی|عدم\s+موجودی"
        # Bulgarian, Croatian, Slovenian ("Вече не е налично" is discontinued)
        r"|\b(?:не\s+е|няма)\s+(?:в\s+наличност|на\s+склад\b)|\bненаличн\w*|(?<!вече\s)\bне\s+(?:е|са)\s+налич\w*|\bне\s+се\s+предлага"
        r"|\b(?:nema|nije)\s+na\s+(?:zalihama|zalihi|skladištu|skladistu|stanju)\b|\bnedostupn[oaie]\b|\bnema\s+dostupn"
        r"|\bnisu\s+dostupn|(?<!više\s)\bnije\s+dostupn|\bnen[íi]\s+dostupn|\bnie\s+je\s+dostupn"
        r"|\bni\s+na\s+zalogi\b|\bni\s+na\s+voljo\b|\bniso\s+na\s+voljo\b"
        # Lithuanian, Latvian, Estonian
        r"|\bnėra\s+sandėlyje\b|\bneturime\b|(?<!vairs\s)(?<!vairāk\s)\bnav\s+(?:pieejam\w*|noliktavā)|\bnepieejam\w*"
        r"|\blaost\s+(?:otsas|lõppenud|läbi)\b|\b(?:pole|ei\s+ole)\s+laos\b|\b(?:pole|ei\s+ole)\s+saadaval\b"
        # Soon: not to be had now, only later ("Uskoro dostupno", "Kmalu na voljo"); read
        # before the words that alone say in stock, as the western languages' are.
        r"|\buskoro\s+(?:ponovno\s+|ponovo\s+|opet\s+)?(?:dostupn\w*|na\s+(?:stanju|zalihi|skladištu))"
        r"|\b(?:dostupn\w*|na\s+stanju)\s+uskoro\b"
        r"|\bkmalu\s+(?:spet\s+|ponovno\s+|znova\s+)?(?:na\s+(?:voljo|zalogi)|dostopn\w*)|\bna\s+(?:voljo|zalogi)\s+kmalu\b"
        r"|\bскоро\s+(?:отново\s+)?(?:в\s+наличност|на\s+склад|налич\w*)|\b(?:в\s+наличност|на\s+склад|налич\w*)\s+скоро\b"
        r"|\b(?:netrukus|greitai)\s+(?:vėl\s+)?(?:sandėlyje|prekyboje)\b"
        r"|\bdrīzumā\s+(?:atkal\s+)?(?:pieejam\w*|noliktavā)|\bpieejam\w*\s+drīzumā\b"
        r"|\b(?:varsti|peagi|peatselt)\s+(?:jälle\s+|taas\s+|uuesti\s+)?(?:saadaval|laos)\b|\bsaadaval\s+(?:varsti|peagi)\b"
        r"|(?:متوا?فر|متاح)\S*\s+قريب|قريب\S*\s+(?:متوا?فر|متاح)|ب(?:ه\s*\u200c?)?زودی\s+(?:\S+\s+)?موجود"
    ),
    "Discontinued": (
        r"\btidak\s+lagi\s+tersedia\b|\bвече\s+не\s+е\s+налич|\bnije\s+više\s+dostupn|\bviše\s+nije\s+dostupn"
        r"|\bni\s+več\s+na\s+voljo\b|\b(?:vairs|vairāk)\s+nav\s+pieejam"
    ),
    "LimitedAvailability": (
        r"재고\s*부족|품절\s*임박|\d+\s*개\s*남(?:음|았)"
        r"|\bsắp\s+hết\s+hàng\b|\bchỉ\s+còn\s+(?:lại\s+)?\d+(?!\d)" + _NOT_TIME
        + r"|(?:متوا?فر|متبقي|بقي|تبقى)\s+\d+\s+فقط|\bhanya\s+tersisa\s+\d+(?!\d)" + _NOT_TIME
        + r"|เหลือน้อย|เหลือ(?:เพียง|แค่|อีก)?\s*\d+\s*(?:ชิ้น|รายการ|อัน|ตัว|ชุด)"
        r"|\bstok\s+(?:sedikit|terbatas|menipis)\b|\bhampir\s+habis\b|\b\d+\s+tersisa\b|\bsisa\s+\d+(?!\d)" + _NOT_TIME
        + r"|كمية\s+محدودة|موجودی\s+محدود|\d+\s*عدد\s+(?:در\s+انبار\s+)?باقی"
        r"|\bниски\s+наличности\b|\bостанал[иа]\s+(?:са\s+)?(?:само\s+)?\d+(?!\d)" + _NOT_TIME + r"|\bостава(?:т)?\s+(?:само\s+)?\d+(?!\d)" + _NOT_TIME + r"|\bпоследни\s+бройки\b"
        r"|\bpreostal[oa]\s+malo\b|\bpreostal[oa]\s+(?:je\s+)?(?:samo\s+|še\s*:?\s*)?\d+(?!\d)" + _NOT_TIME
        + r"|\bmajhna\s+zaloga\b|\bsamo\s+še\s+\d+(?!\d)" + _NOT_TIME
        + r"|\batsargos\s+senka\b|\bliko\s+(?:tik\s+)?\d+(?!\d)" + _NOT_TIME
        + r"|\btikai\s+\d+\s+palikuš\w*|\bainult\s+\d+\s+(?:tk\.?\s+)?(?:järgi|järel|alles|laos)\b"
    ),
    "InStock": (
        r"재고\s*있(?:음|습니다)|재고\s*\d+\s*개"
        r"|\bcòn\s+(?:\d+\s+)?hàng\b|\bcòn\s+trong\s+kho\b|(?<!không\s)\bcó\s+s[ẵẳ]n\b"
        r"|มี(?:สินค้า)?\s*(?:\d+\s*รายการ\s*)?ในสต[็๊]อก|มีสินค้า(?!หมด)"
        r"|\btersedia\b|\bada\s+stok\b"
        r"|(?<!غير\s)متوا?فر|(?<!غير\s)متاح|في\s+المخزون|(?<!نا)موجود"
        r"|\bв\s+наличност\b|\bна\s+склад\b|\bналичн[оа]\b|\bналичен\b"
        r"|\bna\s+(?:zalihi|skladištu|skladistu|stanju)\b|\bdostupn[oa]\b|\bdostupnih\s+komada\b"
        r"|\bna\s+zalogi\b|\bna\s+voljo\b"
        r"|\bsandėlyje\b|\bpieejam[si]\b|\bir\s+noliktavā\b|\bnoliktavā\b"
        r"|^\s*laos\s*(?:[:.!]|$)|\blaos\s*:?\s*\d+\s*tk\b|\d+\s*tk\.?\s+laos\b|\bon\s+laos\b|\bsaadaval\b"
    ),
}
# fmt: on

#: Buy buttons ("Add to cart", "Buy now"). A header's link to the cart ("Eiti į
#: krepšelį", go to the cart) is no buy button.
BUY_WORDS = (
    r"카트에\s*(?:추가|담기)|바로\s*구매|"
    r"(?:thêm|cho)\s+vào\s+(?:giỏ(?:\s+hàng)?|sọt)|mua\s+ngay|"
    r"เพิ่ม(?:ลง)?(?:ใน)?ตะกร้า|หยิบใส่(?:รถเข็น|ตะกร้า)|ใส่ตะกร้า|ซื้อ(?:เลย|ทันที)|"
    r"(?:tambahkan|tambah|masukkan)\s+ke\s+keranjang|beli\s+sekarang|"
    r"(?:[أاإ]ضف|[إا]ضافة)\s+(?:[إا]لى\s+ال|لل|ل)سل\u0651?ة|اشتر\S?\s+الآن|"
    r"(?:افزودن|اضافه(?:\s+کردن)?)\s+به\s+سبد|"
    r"добав(?:и|яне)\s+(?:в|към)\s+(?:количка(?:та)?|кошница(?:та)?)|купи\s+сега|"
    r"(?:dodaj|stavi)\s+u\s+ko[šs]aricu|kupi\s+(?:odmah|sada)|dodaj(?:te)?\s+v\s+ko[šs]arico|kupi\s+zdaj|"
    r"įdėti\s+į\s+krepšelį|(?<!eiti\s)\bį\s+krepšelį|pirkti\s+dabar|"
    r"pievienot\s+grozam|ielikt\s+grozā|pirkt\s+tagad|"
    r"lisa\s+(?:ostu)?korvi|osta\s+kohe"
)

#: Promises to tell the shopper when it is back ("Beritahu saya bila produk ini
#: tersedia", "Уведомявай ме, когато този продукт е в наличност"), the platforms' and
#: the other common words of them ("tell me", "let me know": "แจ้งฉันเมื่อ", "أخبرني",
#: "Известете ме", "Javite mi", "Anna mulle teada"): said of what is gone, so their word
#: for in stock is not read.
NOTIFY_WORDS = (
    r"알려\s*(?:주세요|드립니다|드려요|받기)|재?입고\s*알림"
    r"|(?:thông\s+báo|báo\s+cho\s+tôi)\s+(?:cho\s+tôi\s+)?khi|nhắc\s+tôi\s+khi"
    r"|แจ้ง(?:ฉัน|เตือน(?:ฉัน)?|ให้(?:ฉัน)?ทราบ)?\s*เมื่อ|beri\s*tahu\s+(?:saya|aku)|kabari\s+saya|ingatkan\s+saya"
    r"|[أا]علمني|[أا]بلغني|[أا]خبرني|نبهني|به\s+من\s+اطلاع|خبرم\s+کن"
    r"|(?:уведом(?:явай|и|ете)|извест(?:и|ете))\s+ме"
    r"|obav(?:ij)?esti(?:te)?\s+me|javi(?:te)?\s+mi|obvesti(?:te)?\s+me|sporoči(?:te)?\s+mi"
    r"|pranešk(?:ite)?\s+man|pranešti(?:\s+man)?,?\s+kai|paziņo(?:t|jiet)?(?:\s+man)?,?\s+kad"
    r"|teavita(?:ge)?\s+mind|anna(?:ge)?\s+(?:mulle\s+)?teada"
)

#: Delivery times ("waktu pengiriman: 1-3 hari", "dobavni rok: 1-3").
DELIVERY_WORDS = (
    r"배송\s*(?:시간|기간|예정)|thời\s+gian\s+giao\s+hàng|waktu\s+pengiriman|vrijeme\s+isporuke"
    r"|čas\s+dobave|dobavni\s+rok|piegāde|piegādes\s+laiks|tarneaeg"
)


def nfc(text: str) -> str:
    """``text`` with its letters composed (NFC): Vietnamese is often written with its tone
    marks as characters of their own ("Thêm vào giỏ hàng" as ``a`` and a combining grave),
    which the words above, written composed, would not match."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)
