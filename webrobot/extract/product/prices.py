"""Prices, currencies and availability as shops write them, made canonical.

* :func:`price_amount`: a price value as a decimal string with at least two
  decimals (``"1299.00"``); a structured value (schema.org says ``.`` is the
  decimal mark) is read literally, price text (``1.299,00 €``, ``$1,299``,
  ``R$ 1.299,00``) by price-parser (the ``mining`` extra).
* :func:`currency_code`: a currency code or symbol as ISO 4217, with the
  page's country (top-level domain) and language settling ``$``, ``¥`` and
  ``kr``.
* :func:`availability`: a schema.org ``ItemAvailability`` name from its URL in
  any form (``http://schema.org/InStock``, ``instock``, ``in_stock``) or from
  the words shops print (English, German, French, Spanish, Portuguese, Catalan, Italian,
  Dutch, the Nordic languages, Polish, Czech, Slovak, Romanian, Hungarian, Greek,
  Turkish, Russian, Japanese and Chinese; the platforms' own stock lines among them, and
  theirs in Korean, Vietnamese, Thai, Indonesian, Arabic, Persian, Bulgarian, Croatian,
  Slovenian, Lithuanian, Latvian and Estonian: :mod:`~webrobot.extract.product.stockwords`).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from webrobot.extract.product.stockwords import STOCK_WORDS, nfc
from webrobot.optional import require

FEATURE = "Product fields (WEBROBOT_EXTRACT product)"
#: schema.org's ItemAvailability names (the ones shops use).
AVAILABILITY = (
    "InStock",
    "OutOfStock",
    "PreOrder",
    "BackOrder",
    "LimitedAvailability",
    "Discontinued",
    "SoldOut",
    "OnlineOnly",
    "InStoreOnly",
    "PreSale",
    "Reserved",
    "MadeToOrder",
)
_BY_KEY = {re.sub(r"[^a-z]", "", name.lower()): name for name in AVAILABILITY}
#: Printed words -> availability, most specific first (``not in stock`` before ``in stock``).
_AVAILABILITY_WORDS: tuple[tuple[str, str], ...] = (
    (r"\bsold[\s-]*out\b|\bvypredan[éáy]\b|\bvyprodáno\b|\bwyprzedan[ey]\b|\bstoc\s+epuizat\b|\bепуизат\b|\bраспродан|\btükendi\b|售完|售罄了|\bausverkauft\b|\bépuisé\b|\bepuise\b|\besgotad[oa]\b|\bagotad[oa]\b|\besaurit[oa]\b|\buitverkocht\b|\besgotat\b|\butsåld\b|\budsolgt\b|\butsolgt\b|売り切れ|完売|售罄|已售完", "SoldOut"),
    ((r"\bout[\s-]*of[\s-]*stock\b|\bnot\s+(?:currently\s+)?(?:in\s+stock|available)\b|\bunavailable\b|\bcurrently\s+unavailable\b"
     r"|\bnicht\s+(?:auf\s+lager|verfügbar|lieferbar)\b|\bderzeit\s+nicht\b|\bnicht\s+vorrätig\b"
     r"|\ben\s+rupture\b|\brupture\s+de\s+stock\b|\bindisponible\b|\bnon\s+disponible\b"
     r"|\bsin\s+(?:stock|existencias)\b|\bagotado\b|(?<!ya\s)\bno\s+disponible\b|\bfora\s+de\s+estoque\b|\bsem\s+estoque\b|\bindisponível\b"
     r"|\bnon\s+disponibile\b|\bniet\s+(?:op\s+voorraad|leverbaar|beschikbaar)\b|\bslutsåld\b|\bej\s+i\s+lager\b|\bikke\s+på\s+lager\b|\bnie\s+dostępny\b|\bbrak\s+w\s+magazynie\b"
     r"|\bnie\s+je\s+(?:skladom|na\s+sklade)\b|\bnen[íi]\s+skladem\b|\bniedostępny\b|\bnu\s+este\s+în\s+stoc\b|\bindisponibil\b|\bnincs\s+raktáron\b|\bstokta\s+yok\b"
     r"|нет\s+в\s+наличии|отсутствует|немає\s+в\s+наявності|\bεξαντλήθηκε\b|אזל\s+מהמלאי|לא\s+במלאי"
     r"|在庫切れ(?!間近)|在庫なし|缺货|缺貨|无货|無貨|暂时缺货"), "OutOfStock"),
    (r"\bdiscontinued\b|\bno\s+longer\s+available\b|\bausgelaufen\b|\bnicht\s+mehr\s+(?:verfügbar|lieferbar)\b|\bplus\s+fabriqué\b|\bdescatalogado\b|\bfuori\s+produzione\b", "Discontinued"),
    (r"\bpre[\s-]?order\b|\bvorbestell|\bvorbestellung\b|\bprécommande\b|\bprecommande\b|\bpre[\s-]?venta\b|\breserva\b|\bpré[\s-]?venda\b|\bpreordina\b|予約|预售|预订", "PreOrder"),
    (r"\bback[\s-]?order|\bon\s+backorder\b|\bnachbestellt\b|\ben\s+réapprovisionnement\b|\bbajo\s+pedido\b|\bsob\s+encomenda\b|お取り寄せ", "BackOrder"),
    (r"\bonly\s+\d+\s+(?:left|in\s+stock)\b|\blow\s+stock\b|\blimited\s+(?:stock|availability)\b|\bfew\s+left\b|\bnur\s+noch\s+\d+\b|\bplus\s+que\s+\d+\b|\bquedan\s+\d+\b|\búltimas\s+unidades\b|\bapenas\s+\d+\b|\bsolo\s+\d+\s+disponibil", "LimitedAvailability"),
    ((r"\bin[\s-]*stock\b|\bavailable\b|\bauf\s+lager\b|\bsofort\s+lieferbar\b|\blieferbar\b|\bverfügbar\b|\bvorrätig\b|\ben\s+stock\b|\bdisponible\b|\ben\s+existencia\b|\bem\s+estoque\b|\bdisponível\b|\bdisponibile\b|\bop\s+voorraad\b|\bleverbaar\b|\bi\s+lager\b|\bpå\s+lager\b|\bdostępny\b|\bna\s+stanie\b|\bskladom\b|\bna\s+sklade\b|\bskladem\b|\bîn\s+stoc\b|\bdisponibil\b|\braktáron\b|\bstokta\b"
     r"|в\s+наличии|є\s+в\s+наявності|\bδιαθέσιμο\b|במלאי|在庫あり|有货|有貨|现货|現貨"), "InStock"),
)  # fmt: skip
#: More of the words shop platforms print, by availability: the stock lines of Shopify's
#: Dawn theme (its 30 locales) and of Magento's language packs, in Polish, Dutch,
#: Italian, Portuguese, Swedish, Danish, Norwegian, Finnish, Czech, Slovak, Turkish,
#: Japanese, Chinese, Russian, Romanian, Hungarian and Greek ("Slut i lager" is out of
#: stock, not "i lager"; "Lage voorraad: nog maar 3" is a low stock).
_NOT_TIME = r"(?!\s*(?:dag|dni|dn[íyůu]|dzie|dia|dí|giorn|jour|tag|day|hour|godz|hod|min|час|дн|д[ея]н|日|天))"
# fmt: off
_PLATFORM_WORDS: dict[str, str] = {
    "SoldOut": r"\bloppuunmyyty\b|\belfogyott\b|品切れ",
    "OutOfStock": (
        r"\bzapas\s+wyczerpany\b|\bbrak\s+towaru\b|\bsem\s+stock\b|\bslut\s+i\s+lager\b"
        r"|\binte\s+(?:i\s+lager|tillgängliga?)\b|\bikke\s+(?:tilgængelig|tilgjengelig)\b|\butilgjengelig\b"
        r"|\bnen[íi]\s+k\s+dispozici\b|\bnedostupn[éáýy]\b|\bloppunut\s+varastosta\b|\bei\s+varastossa\b"
        r"|\bstokta\s+bulunmuyor\b|\bstok\s+yok\b|\bnu\s+exist[ăa]\s+[îi]n\s+stoc\b|\bnincs\s+készleten\b"
        r"|μη\s+διαθέσιμο|χωρίς\s+απόθεμα|недоступн[оаы]|закончил(?:ся|ась|ось|ись)|無庫存|无库存|無法供貨|无法供货"
        # "not available" where the negation is a word of its own before the word that
        # alone says available ("no está disponible", "n'est pas disponible").
        r"|(?<!ya\s)\bno\s+(?:está|estará)\s+disponible|\bn['’]est\s+pas\s+disponible|\bpas\s+disponible\b"
        r"|\bnon\s+è\s+disponibile|\bnie\s+jest\s+dostępn|\bniedostępn\w*|(?<!já\s)\bnão\s+está\s+disponível"
        r"|\binte\s+tillgängligt?\b|\botillgänglig|\bikke\s+tilgængelige?\b|(?<!artık\s)\bmevcut\s+değil\b"
        r"|\bnu\s+(?:este|sunt)\s+disponibil|δεν\s+είναι\s+διαθέσιμ"
        # Sylius' words ("Ej tillgänglig" was read as in stock).
        r"|\bej\s+tillgänglig|\bgeen\s+voorraad\b|\bonbeschikbaar\b|нет\s+на\s+складе|недоступен"
        r"|\bnu\s+este\s+pe\s+stoc\b|\bnem\s+elérhető\b|εξαντλημένο"
        # Spree's and Solidus' ("没有库存", no stock, was read as in stock by "有库存").
        r"|\btillfälligt\s+slut\b|\bfuera\s+de\s+(?:stock|inventario)\b|\bei\s+saatavilla\b|\bnu\s+mai\s+este\s+pe\s+stoc\b"
        r"|(?<!больше\s)\bне\s+доступ(?:ен|н[оаы])|[没沒無无]有(?:库存|庫存|货|貨)"
        # A negation before the words above that alone say in stock ("Nicht an Lager",
        # "Nu este in stoc" as Romanian is written without its diacritics).
        r"|\bnicht\s+(?:mehr\s+)?an\s+lager\b|\bnu\s+(?:mai\s+)?(?:este|e)\s+[îi]n\s+stoc\b"
        r"|\bnie\s+ma\s+(?:go\s+)?w\s+magazynie\b|\bnon\s+(?:è\s+|presente\s+)?in\s+magazzino\b"
        r"|\bnão\s+disponível|δεν\s+υπάρχει\s+σε\s+απόθεμα"
        # Portugal's and Catalonia's words ("Fora de stock", "Fora d'estoc", "Sense estoc").
        r"|\bfora\s+de\s+stock\b|\bfora\s+d['’]estoc\b|\bsense\s+estoc\b|\bexhaurit\b"
        # Back soon: not to be had now, only later ("Bald wieder an Lager", "Bientôt
        # disponible", "Back soon"); read before the words that alone say in stock.
        r"|\bback\s+(?:in\s+stock\s+)?soon\b|\bavailable\s+soon\b|\bexpected\s+back\b"
        r"|\b(?:bald|demnächst|in\s+kürze)\s+(?:wieder\s+)?(?:an\s+lager|auf\s+lager|verfügbar|lieferbar|erhältlich|vorrätig)\b"
        r"|\bwieder\s+(?:verfügbar|lieferbar|an\s+lager|auf\s+lager)\s+ab\b"
        r"|\bbient[ôo]t\s+(?:de\s+retour|disponible|en\s+stock)|\b(?:disponible|de\s+retour)\s+bient[ôo]t\b"
        r"|\bprochainement\s+disponible|\bdisponible\s+prochainement\b"
        r"|\b(?:próximamente|pronto)\s+(?:disponible|en\s+stock)\b|\bdisponible\s+(?:próximamente|pronto)\b"
        r"|\bpresto\s+(?:di\s+nuovo\s+)?disponibile|\bdisponibile\s+a\s+breve\b"
        r"|\bdisponível\s+em\s+breve|\b(?:em\s+breve|brevemente)\s+disponível"
        r"|\bbinnenkort\s+(?:weer\s+)?(?:beschikbaar|leverbaar|op\s+voorraad)\b"
        # Japanese and Chinese lines of no stock and of stock on its way back.
        r"|在庫が(?:ありません|ございません)|入荷待ち|补货中|補貨中"
    ),
    "Discontinued": (
        r"\bya\s+no\s+(?:está\s+)?disponible|\bn['’]est\s+plus\s+disponible|\bplus\s+disponible\b"
        r"|\bnon\s+(?:è\s+)?più\s+disponibile|\bnie\s+jest\s+już\s+dostępn|\bjá\s+não\s+está\s+disponível"
        r"|\bnão\s+está\s+mais\s+disponível|\bniet\s+(?:meer|langer)\s+(?:beschikbaar|leverbaar|op\s+voorraad)"
        r"|\binte\s+längre\s+tillgänglig|\bikke\s+(?:længere|lenger)\s+(?:tilgængelig|tilgjengelig)"
        r"|больше\s+не\s+доступ|\bartık\s+mevcut\s+değil|\bnu\s+mai\s+este\s+disponibil"
        r"|δεν\s+είναι\s+πλέον\s+διαθέσιμ"
    ),
    "LimitedAvailability": (
        r"\bnog\s+maar\s+\d+(?!\d)" + _NOT_TIME + r"|\bnog\s+\d+\s+(?:beschikbaar|op\s+voorraad|over)\b"
        r"|\blage\s+voorraad\b|\bne\s+restano\s+\d+(?!\d)" + _NOT_TIME + r"|\bsolo\s+\d+\s+rimast"
        r"|\bscorte\s+ridotte\b|\bpozostał[oay]?\s*:?\s*\d+(?!\d)" + _NOT_TIME
        + r"|\btylko\s+\d+\s+(?:szt\.?\s+)?pozostał|\bniski\s+poziom\s+zapasów\b"
        r"|\b\d+\s+restantes?\b|\bsó\s+resta[m]?\s+\d+|\bestoque\s+baixo\b|\bstock\s+reduzido\b"
        r"|\b\d+\s+kvar\b|\blåg\s+lagernivå\b|\b\d+\s+(?:tilbage|igjen)\b|\blav\s+lagerbeholdning\b"
        r"|\bposledn[íi]ch\s+\d+(?!\d)" + _NOT_TIME + r"|\bzb[ýy]vaj[íi]c[íi]\s+mno[žz]stv[íi]\s*:?\s*\d+"
        r"|\bzost[áa]va\s+\d+(?!\d)" + _NOT_TIME
        + r"|\b\d+\s+jäljellä\b|\bvarasto\s+vähissä\b|\b\d+\s+(?:adet|ürün)\s+kaldı\b|\bstok\s+düzeyi\s+düşük\b"
        r"|\bdoar\s+\d+\s+(?:\w+\s+)?rămase?\b|\bcsak\s+\d+\s+(?:db\s+)?van\s+raktáron\b|απομένουν\s+\d+"
        r"|残り\s*\d+\s*(?:個|点|つ|枚|本|台|着)|\d+\s*(?:個|点)?のみ残|低在庫"
        r"|[仅僅]?剩[余餘]?\s*\d+\s*(?:件|个|個|台|份)|低库存|[库庫]存不足|[库庫]存紧张|庫存緊張"
        r"|在庫切れ間近|在庫わずか|残りわずか|在庫僅少"
        r"|осталось(?:\s+(?:всего|только))?\s*:?\s*\d+\s*(?:шт|$|[.!,;)])"
        # PrestaShop's "Last items in stock", as its themes translate it.
        r"|\blast\s+items?\s+in\s+stock\b|\bderniers\s+articles\b|\búltimos\s+artigos\b"
        r"|\bostatnie\s+sztuki\b|\bposledn[íi]\s+kus|\bsidste\s+(?:elementer|varer)\b"
        r"|\bsista\s+produkten\b|\bultimi\s+(?:articoli|pezzi)\b|\blaatste\s+(?:items|artikelen|stuks)\b"
        r"|\bultimele\s+produse\b|последние\s+товары|\bnur\s+noch\s+wenige\b"
    ),
    "InStock": (
        r"\bw\s+magazynie\b|\bem\s+stock\b|\ben\s+estoc\b|\bvarastossa\b|\bkészleten\b|σε\s+απόθεμα"
        r"|\bbeschikbaar\b|\btillgängligt?\b|\btilgængelig\b|\btilgjengelig\b|\bk\s+dispozici\b|\ban\s+lager\b|\bin\s+magazzino\b|\bin\s+stoc\b"
        r"|\d+\s*個の在庫|在庫有り|(?<![没沒無无])有\s*(?:\d+\s*件\s*)?(?:库存|庫存)|\d+\s*件\s*(?:存货|存貨|库存|庫存)"
    ),
}
# fmt: on
_AVAILABILITY_PATTERNS = [
    (
        re.compile(
            "|".join(
                [p, *(words[name] for words in (_PLATFORM_WORDS, STOCK_WORDS) if name in words)]
            ),
            re.IGNORECASE,
        ),
        name,
    )
    for p, name in _AVAILABILITY_WORDS
]

#: Currency signs and words -> ISO 4217, where the sign means one currency.
_SIGNS = {
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP",
    "us$": "USD", "usd": "USD", "u$s": "USD", "c$": "CAD", "ca$": "CAD", "cad": "CAD",
    "a$": "AUD", "au$": "AUD", "aud": "AUD", "nz$": "NZD", "nzd": "NZD", "hk$": "HKD",
    "hkd": "HKD", "nt$": "TWD", "twd": "TWD", "s$": "SGD", "sgd": "SGD", "r$": "BRL", "brl": "BRL", "mx$": "MXN",
    "mxn": "MXN", "cn¥": "CNY", "rmb": "CNY", "元": "CNY", "cny": "CNY", "円": "JPY",
    "jp¥": "JPY", "jpy": "JPY", "₹": "INR", "rs": "INR", "rs.": "INR", "inr": "INR",
    "₽": "RUB", "руб": "RUB", "руб.": "RUB", "р.": "RUB", "rub": "RUB", "zł": "PLN",
    "zl": "PLN", "pln": "PLN", "kč": "CZK", "kc": "CZK", "czk": "CZK", "ft": "HUF", "huf": "HUF",
    "chf": "CHF", "fr.": "CHF", "sfr.": "CHF", "sfr": "CHF", "₩": "KRW", "원": "KRW", "krw": "KRW", "₺": "TRY", "tl": "TRY",
    "try": "TRY", "₪": "ILS", "ils": "ILS", "฿": "THB", "thb": "THB", "₫": "VND",
    "đ": "VND", "vnd": "VND", "₱": "PHP", "php": "PHP", "lei": "RON", "ron": "RON",
    "sek": "SEK", "nok": "NOK", "dkk": "DKK", "zar": "ZAR", "aed": "AED", "sar": "SAR",
    "₴": "UAH", "грн": "UAH", "uah": "UAH", "₦": "NGN", "ngn": "NGN", "kn": "HRK",
    "rp": "IDR", "idr": "IDR", "rm": "MYR", "myr": "MYR", "bgn": "BGN", "лв": "BGN",
    "clp": "CLP", "cop": "COP", "ars": "ARS", "pen": "PEN", "s/": "PEN", "s/.": "PEN",
    "₸": "KZT", "kzt": "KZT",
}  # fmt: skip
_DOLLAR_BY_TLD = {
    "ca": "CAD", "au": "AUD", "nz": "NZD", "hk": "HKD", "sg": "SGD", "mx": "MXN",
    "ar": "ARS", "cl": "CLP", "co": "COP", "tw": "TWD",
}  # fmt: skip
_KRONA_BY_TLD = {"se": "SEK", "no": "NOK", "dk": "DKK", "is": "ISK"}
_KRONA_BY_LANG = {"sv": "SEK", "nb": "NOK", "nn": "NOK", "no": "NOK", "da": "DKK", "is": "ISK"}
_ISO_CODE = re.compile(r"^[A-Z]{3}$")
#: ISO 4217 codes a page may name (the active ones shops use; anything else is no code).
ISO_4217 = frozenset(
    [
        "AED",
        "ARS",
        "AUD",
        "BDT",
        "BGN",
        "BHD",
        "BRL",
        "CAD",
        "CHF",
        "CLP",
        "CNY",
        "COP",
        "CZK",
        "DKK",
        "EGP",
        "EUR",
        "GBP",
        "HKD",
        "HRK",
        "HUF",
        "IDR",
        "ILS",
        "INR",
        "ISK",
        "JOD",
        "JPY",
        "KES",
        "KRW",
        "KWD",
        "KZT",
        "LKR",
        "MAD",
        "MXN",
        "MYR",
        "NGN",
        "NOK",
        "NZD",
        "OMR",
        "PEN",
        "PHP",
        "PKR",
        "PLN",
        "QAR",
        "RON",
        "RSD",
        "RUB",
        "SAR",
        "SEK",
        "SGD",
        "THB",
        "TND",
        "TRY",
        "TWD",
        "UAH",
        "USD",
        "UYU",
        "VND",
        "ZAR",
    ]
)
_PLAIN_NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*$")


def price_amount(value: Any, *, text: bool | None = None) -> str | None:
    """A price as a decimal string (``"1299.00"``), or ``None``.

    Numbers and plain ``1299.5`` strings are read literally (structured data);
    anything else as price text (``1.299,00 €``). ``text=True`` reads even a plain
    string as price text, where a shop may mean ``1.299`` as one thousand two
    hundred and ninety-nine.
    """
    if isinstance(value, bool) or value is None:
        return None
    amount: Decimal | None
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, int | float):
        amount = _decimal(repr(value) if isinstance(value, float) else str(value))
    elif isinstance(value, str):
        if not text and _PLAIN_NUMBER.match(value):
            amount = _decimal(value.strip())
        else:
            amount = parse_price_text(value)[0]
    else:
        return None
    return format_amount(amount)


def format_amount(amount: Decimal | None) -> str | None:
    """``amount`` with at least two decimals; ``None`` for a negative, infinite or absurd one."""
    if amount is None or not amount.is_finite() or amount < 0 or amount >= Decimal("1e12"):
        return None
    if amount.as_tuple().exponent > -2:  # type: ignore[operator]
        amount = amount.quantize(Decimal("0.01"))
    return f"{amount:f}"


def parse_price_text(
    text: str, *, language: str = "", tld: str = ""
) -> tuple[Decimal | None, str | None]:
    """The amount and the currency sign or code of price text, by price-parser.

    One mark followed by three digits (``24.990``, ``1,234``) is a thousands mark or a
    decimal mark depending on who writes it: given the page's ``language`` (and ``tld``
    for its currency sign), it is the decimal mark where that language writes decimals
    so (``24.990`` on an English page is 24.99) and its currency has cents, a thousands
    mark otherwise (``$24.990`` in Chilean pesos, ``1.234`` on a German page).
    """
    if not isinstance(text, str) or not text.strip():
        return None, None
    price_parser = require("price_parser", "mining", FEATURE)
    text = _APOSTROPHE_GROUPS.sub("'", text[:200])
    arabic_decimal = "\u066b" in text  # a decimal mark in every language
    text = text.translate(_ARABIC_MARKS)
    try:
        price = price_parser.Price.fromstring(text)
    except (ValueError, ArithmeticError):
        return None, None
    amount = price.amount
    if amount is not None and not isinstance(amount, Decimal):
        amount = _decimal(str(amount))
    raw = (price.amount_text or "").strip()
    if amount is not None and arabic_decimal and _ONE_MARK_THREE_DIGITS.match(raw):
        if raw[-4] == ".":  # the Arabic decimal mark, made a point above
            amount = _decimal(raw)
    elif amount is not None and (language or tld) and _ONE_MARK_THREE_DIGITS.match(raw):
        mark = raw[-4]
        code = currency_code(price.currency or "", tld=tld, language=language)
        if decimal_mark(language, code) == mark:
            amount = _decimal(raw.replace(mark, "."))
    return amount, price.currency


_ONE_MARK_THREE_DIGITS = re.compile(r"^\d{1,3}[.,]\d{3}$")
#: A thousands mark written as a typographic apostrophe (``CHF 1’234.50``: the grouping
#: mark of Swiss German and Swiss Italian in the Unicode locale data), a modifier letter
#: or a prime, made the ASCII one price-parser reads as a thousands mark.
_APOSTROPHE_GROUPS = re.compile(r"(?<=\d)[\u2019\u02bc\u2032](?=\d{3}(?!\d))")
#: The Arabic thousands and decimal marks (``۱۲۰٬۰۰۰ تومان``, ``١٢٫٥٠``), which
#: price-parser does not know, as the ASCII ones it reads; the decimal mark stays one
#: before three digits (``١٫٥٠٠ د.ك``, a dinar and a half), where a point alone would
#: be read as a thousands mark.
_ARABIC_MARKS = str.maketrans({"\u066c": ",", "\u066b": "."})
#: Languages (and regions) that write a decimal point; the others write a decimal comma.
_POINT_LANGUAGES = frozenset({
    "en", "zh", "ja", "ko", "he", "th", "ms", "hi", "ga", "mt", "cy", "fil", "tl", "ur",
    "bn", "ta", "te", "ar", "es-mx", "es-us", "es-pr", "es-do", "es-gt", "es-hn", "es-ni",
    "es-pa", "es-sv", "de-ch", "fr-ch", "it-ch", "de-li", "en-za",
})  # fmt: skip
_COMMA_LANGUAGES = frozenset({
    "de", "fr", "es", "it", "pt", "nl", "pl", "cs", "sk", "ru", "uk", "ro", "hu", "tr", "sv",
    "da", "nb", "nn", "no", "fi", "el", "bg", "hr", "sl", "sr", "lt", "lv", "et", "id", "vi",
    "ca", "eu", "gl", "is", "be", "kk", "az", "ka", "sq", "mk", "bs",
})  # fmt: skip
#: Currencies without cents in practice (a mark before three digits groups thousands).
_NO_CENTS = frozenset({"CLP", "JPY", "KRW", "VND", "ISK", "PYG", "UGX", "XOF", "XAF", "IDR", "COP"})
#: Currencies with three decimals.
_THREE_DECIMALS = frozenset({"KWD", "BHD", "OMR", "JOD", "TND", "IQD", "LYD"})


def decimal_mark(language: str, currency: str | None = None) -> str | None:
    """The decimal mark a page in ``language`` (a BCP 47 tag) writes prices of
    ``currency`` with: ``.``, ``,``, or ``None`` when unknown or when the currency has
    no cents."""
    if currency in _NO_CENTS:
        return None
    tag = language.lower().replace("_", "-")
    if currency in _THREE_DECIMALS:
        return "," if tag.split("-")[0] in _COMMA_LANGUAGES else "."
    region = "-".join(tag.split("-")[:2])
    if region in _POINT_LANGUAGES:
        return "."
    base = tag.split("-")[0]
    if base in _POINT_LANGUAGES:
        return "."
    if base in _COMMA_LANGUAGES:
        return ","
    return None


def currency_code(value: Any, *, tld: str = "", language: str = "") -> str | None:
    """``value`` (a code, a sign, a word) as an ISO 4217 code, or ``None``.

    ``$`` is USD unless the page's domain ends in a dollar country's code
    (``.ca``, ``.au``...); ``¥`` is CNY on a Chinese page (``zh``), JPY elsewhere;
    ``kr`` is SEK, NOK, DKK or ISK by domain or language, else ``None``.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > 20:
        return None
    upper = text.upper()
    if _ISO_CODE.match(upper) and upper in ISO_4217:
        return upper
    key = text.lower().rstrip(":")
    if key in _SIGNS:
        return _SIGNS[key]
    tld = tld.lower().rsplit(".", 1)[-1]
    lang = language.lower().split("-")[0]
    if key == "$":
        return _DOLLAR_BY_TLD.get(tld, "USD")
    if key in ("¥", "￥"):
        return "CNY" if lang == "zh" or tld == "cn" else "JPY"
    if key in ("kr", "kr.", ":-"):
        return _KRONA_BY_TLD.get(tld) or _KRONA_BY_LANG.get(lang)
    if key == "r" and tld == "za":
        return "ZAR"
    return None


def availability(value: Any) -> str | None:
    """A schema.org ItemAvailability name from a URL or name in any form
    (``https://schema.org/InStock``, ``instock``, ``in_stock``, ``In Stock``)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > 200:
        return None
    tail = re.split(r"[/#:]", text.rstrip("/"))[-1]
    key = re.sub(r"[^a-z]", "", tail.lower())
    if key in _BY_KEY:
        return _BY_KEY[key]
    if key in ("available", "instockonline", "yes", "true"):
        return "InStock"
    # ``oos``: OpenGraph's product availability as Facebook defines it (``instock``,
    # ``oos``); ``outstock``: a shortened name some themes write into ``itemprop``.
    if key in ("outofstockonline", "unavailable", "soldout", "no", "false", "oos", "outstock"):
        return "SoldOut" if key == "soldout" else "OutOfStock"
    if key in ("preorderable", "availableforpreorder", "preorders"):
        return "PreOrder"
    if key in ("backorderable", "onbackorder", "backorders"):
        return "BackOrder"
    return availability_in_text(text)


def availability_in_text(text: str) -> str | None:
    """The availability printed in ``text`` (``Only 3 left``, ``Ausverkauft``), or ``None``."""
    if not isinstance(text, str) or not text.strip():
        return None
    sample = " ".join(text.split())[:300]
    sample = nfc(sample)  # Vietnamese written with its tone marks apart
    for pattern, name in _AVAILABILITY_PATTERNS:
        if pattern.search(sample):
            return name
    return None


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except (InvalidOperation, ValueError):
        return None
