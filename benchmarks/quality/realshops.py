"""``python -m benchmarks.quality.realshops``: the main text of real shop pages, scored
against what a person reads as each page's main text.

The pages are real product pages of many shops, platforms and languages, taken from
the *tuned* halves of the product evaluations (never their unseen halves, and none of
the unseen-site main-text sets' own pages): the development half of the public product
benchmark (``product-dev``, :mod:`benchmarks.quality.productdev`, read in place from
``$WEBROBOT_BENCHDATA``) and the pages of :mod:`benchmarks.quality.productwide` from
other public repositories' saved pages (read in place from their git snapshots). Each
page was read by a person, and the lines below written down before any extractor ran
on it:

- ``must``: lines of the page's main text: the product's name, sentences of its
  description, feature bullets, rows of its specification;
- ``must_not``: lines no reader counts as the product's text: navigation, recommended
  or "customers also bought" products, review forms and widgets, cookie and consent
  banners, newsletter and loyalty pleas, shipping banners, size guides, footers.

Scoring is trafilatura's own evaluation's (and ``unseen``'s for its passage sets): a
line is found when it stands in the text (spaces made one, case folded); lines found
and missed are pooled over the pages into precision (found ``must`` over found lines of
both kinds), recall (found ``must`` over all ``must``) and F1. webrobot's main text
(:func:`webrobot.extract.maintext.main_text` on the crawl's tree, parse included) and
trafilatura's default reading run on the same bytes in one run, with their CPU per
page (process time). ``--wrong`` lists each extractor's misses page by page.

These pages are development data: read them to find what goes wrong, and judge a
change on the unseen-site sets (``python -m benchmarks.quality.unseen``) too.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table

EXTRACTORS = ("webrobot", "trafilatura")
SOURCES = ("product-dev", "productwide")


@dataclass(frozen=True)
class ShopPage:
    #: ``product-dev`` (``key`` is the start of its page key) or ``productwide`` (its key).
    source: str
    key: str
    must: tuple[str, ...]
    must_not: tuple[str, ...]


@dataclass(frozen=True)
class Loaded:
    page: ShopPage
    shop: str
    url: str
    html: str


PAGES: tuple[ShopPage, ...] = (
    ShopPage(
        "productwide",
        "traf-ebrosia",
        must=(
            "Beringer Zinfandel Rose Stone Cellars lieblich / süß 2015",
            "Die Beringer Vinery gehört zu den traditionsreichen alten Häusern",
            "Der Stone Cellars Zinfandel Rosé von Beringer ist ein perfekt ausbalancierter Sommerwein",
            "Im Glas erscheint der Zinfandel Rosé in einem zart glänzenden Rosa",
            "Der Stone Cellars Zinfandel Rosé von Beringer ist ein sehr vielseitiger Speisebegleiter",
            "Schlumberger GmbH & Co. KG, Postfach 11 20",
            "Dekantieren nicht notwendig",
            "Schraubverschluss",
        ),
        must_not=(
            "Julius Hafner Eiswein Cabernet-Merlot-Zweigelt",
            "Bottega Crema di Limoncino",
            "Jetzt 10 € Gutschein sichern",
            "Bewertungen werden nach Überprüfung freigeschaltet",
            "Sommelier Qualität - 16 Jahre Erfahrung",
            "Liebliche und süße Weine",
            "Alle Preise inkl. gesetzl. Mehrwertsteuer",
        ),
    ),
    ShopPage(
        "productwide",
        "traf-toralin",
        must=(
            "XADO Schmierfett Reparierend, Verschleiß 50%, 125 ml",
            "Dieses Fett wirkt wieder herstellend bei Bauteilen",
            "Verschleiß wird schnell kompensiert",
            "Gleicht Kratzer und kleine Risse aus",
            "Das alte Fett entfernen.",
            "Gebrauchstemperaturbereich: -40 ... +120 °C",
            "Verdicker/Basisöl: Li-Seifen/Mineralöl",
        ),
        must_not=(
            "Anticarbon - Kolbenring-Reiniger",
            "XADO Kühlflüssigkeit G11 Grün",
            "Sie könnten auch an folgenden Artikeln interessiert sein",
            "Sie haben keine Artikel im Warenkorb",
            "Mehrwertsteuerfrei einkaufen",
            "© 2016 TORALIN",
            "Kundenmeinung abschicken",
        ),
    ),
    ShopPage(
        "productwide",
        "traf-happycof",
        must=(
            "Happy Coffee SIDAMO Bio Bohnen",
            "Rote Beeren, Zitrusnoten, süßlich, kräftig-würzig",
            "Handgepflückt, gewaschen, sonnengetrocknet",
            "Diese Bohnen sind zu 100% aus sortenreine Single Origin Arabica Bohnen",
            "Alle Kaffees von Happy Coffee sind bio-zertifiziert",
            "Dieser Kaffee wird wöchentlich frisch in einer Familienrösterei",
        ),
        must_not=(
            "Ihr Warenkorb ist leer",
            "Mehr als 450 aktive Nutzer jeden Monat",
            "Sponsoring & Kooperationen",
            "Der Geschmack war kaum von Tchibo zu unterscheiden",
            "3€ Versand nach Deutschland",
        ),
    ),
    ShopPage(
        "productwide",
        "traf-uniqz",
        must=(
            "Katzendecke, zweilagig mit Namen und Main Coon",
            "Hochwertige Hunde- oder Katzendecke in besonders kuscheliger",
            "Durch die beiden Lagen sieht man die Rückseite der Stickerei nicht",
            "Falls nicht anders vereinbart, wird die Stickerei unten rechts",
            "Material: 100 % Polyester",
        ),
        must_not=(
            "Sie suchen ein nicht alltägliches Geschenk?",
            "Geschenkidee zur Goldhochzeit oder Silberhochzeit",
            "Diese Website benutzt Cookies",
            "Hundedecken und -halstücher, Katzendecken",
            "Es grüßt Sie herzlichst aus Köln",
        ),
    ),
    ShopPage(
        "productwide",
        "traf-zooroya",
        must=(
            "Trixie Natura Kleintierstall mit Freilaufgehege",
            "Kaninchenstall mit integriertem Freigehege im Unterbau",
            "Der Kaninchenstall mit Freigehege sorgt durch die eingebaute Rampe",
            "aus lasiertem Kiefernholz",
            "stabiles Metallgitter, pulverbeschichtet",
            "Holzrückwand im Freilaufgehege schützt vor Wind",
            "Maße (Breite × Länge × Höhe): 104 × 52 × 97 cm",
            "Echtholz, Metall",
        ),
        must_not=(
            "Jetzt registrieren und 5% Rabatt für Neukunden sichern",
            "Bei uns gibt es regelmäßig tolle Angebote",
            "Die Funktionalität dieses Widgets hängt von der Einbindung",
            "Hunde-Trockenfutter",
            "Kundenhotline",
        ),
    ),
    ShopPage(
        "productwide",
        "msh-costco",
        must=(
            "AFA Stainless 33-inch Sink and Semi Pro Faucet Combo",
            "33” x 22” Handmade Single Bowl T304 Stainless Steel Sink",
            "Cast 304 Stainless Steel Semi-pro Faucet with Magnetic Docking",
            "T-304 Stainless Steel Roller Mat with Rubber Edging",
            "Bottom Grid Included",
            "18 Gauge",
            "46 lb.",
        ),
        must_not=(
            "Sign up for great offers from Costco.com",
            "Costco.com products can be returned to any of our more than 700",
            "Free technical support exclusive to Costco members",
            "Get Help Or Contact Us",
            "Show Warehouses with:",
        ),
    ),
    ShopPage(
        "product-dev",
        "08b51541ad",
        must=(
            "Luminarc Набор стаканов Octime 330 мл 6 шт H9811",
            "Набор стаканов ОКТАЙМ — практичное решение для любителей стандартных форм",
            "Стаканы изготовлены из прозрачного стекла с текстурированной поверхностью",
            "Количество в наборе",
            "Страна производства",
        ),
        must_not=(
            "Yandex uses essential, analytical, marketing and other cookies",
            "Бокалы для глинтвейна до 10 тысяч рублей",
            "Заказывайте в новом приложении Маркета",
            "Luminarc Набор стаканов Octime 300 мл 6 шт H9810",
            "Партнёрская программа",
        ),
    ),
    ShopPage(
        "product-dev",
        "09b6ff551a",
        must=(
            "招牌肉乾自由選(任選10包)",
            "嚴選台灣在地豬後腿肉部位攪打製作",
            "商品產地：台灣",
            "儲存條件：常溫儲存",
            "保存期限：三個月",
            "食用方式：單條真空封膜開封後即可食用",
        ),
        must_not=(
            "超好吃卡拉脆蝦(原味)",
            "總統級牛排21oz》買一送一",
            "網路ATM繳款快顯封鎖解除",
            "版權所有© 2012 愛上新鮮",
            "您好！歡迎來到i3Fresh愛上新鮮",
        ),
    ),
    ShopPage(
        "product-dev",
        "0bf9a33384",
        must=(
            "Consola Retro Tipo Joypad Sobremesa Ultra",
            "Llévate hoy nuestro mejor producto y disfruta de las ventajas",
            "Comodidad garantizada",
            "Características Generales",
            "Sin Género",
            "Desktops",
        ),
        must_not=(
            "Torre SPEC-Omega RGB Corsair Blanco",
            "Productos basados en lo que viste",
            "Si no estás conforme con el producto no te preocupes",
            "Entérate de lo último de Paris.cl",
            "Oled, Qled y NanoCell",
            "Trabaja con Nosotros",
        ),
    ),
    ShopPage(
        "product-dev",
        "8cb33a3e85",
        must=(
            "Cama Eloísa Single 1.5 Plazas + Set 2 Cajones",
            "Clasificación Intermedia",
            "1 año sobre el resto de los componentes del mix",
            "Base Normal",
            "Madera",
        ),
        must_not=(
            "Para cambios y devoluciones, debes presentar tu producto con la boleta",
            "Productos basados en lo que viste",
            "Entérate de lo último de Paris.cl",
            "Los productos Marketplace no se pueden pagar con Gift Card Cencosud",
            "Trabaja con Nosotros",
        ),
    ),
    ShopPage(
        "product-dev",
        "16606e09f7",
        must=(
            "Código do Trabalho - Anotado",
            "A 13ª edição do Código do Trabalho Anotada, mantendo o modelo seguido",
            "ISBN: 9789724084985",
            "Número de páginas: 1204",
            "Edição: 13ª Edição",
        ),
        must_not=(
            "Estudos do Instituto de Direito do Trabalho - Volume VIII",
            "Do Abuso de Direito",
            "O nosso site utiliza cookies para melhorar a sua experiência",
            "ENVIOS GRÁTIS - Para compras de 20/11 a 16/12",
            "Livros Relacionados",
        ),
    ),
    ShopPage(
        "product-dev",
        "1a9172cfee",
        must=(
            "Tommy Jeans OFLEKI",
            "A marca Hilfiger Denim propõe-nos uma t-shirt de manga curta de look clássico",
            "Algodão : 100%",
        ),
        must_not=(
            "Medida à volta do peito : mede-se horizontalmente",
            "Os tamanhos de vestuário vendidos na Spartoo.pt",
            "Não perca! Para completar o seu look",
            "Look completo = 91,96 €",
            "Receba 50 pontos de fidelidade ao dar a sua opinião",
        ),
    ),
    ShopPage(
        "product-dev",
        "21e72a8e6d",
        must=(
            "Halloween Zombie Scars Tattoos Fake Blood Scab Scar Wound Costume Make-Up Kit UK",
            "Item specifics",
            "Fake Wounds",
            "New with tags",
        ),
        must_not=(
            'By clicking on an item or other link on the website or "Accept"',
            "Earn up to 5x points when you use your eBay Mastercard",
            "Halloween Zombie Costume Masks & Eye Masks",
            "This is a private listing and your identity will not be disclosed",
            "Copyright © 1995-2020 eBay Inc.",
            "Get the item you ordered or get your money back",
        ),
    ),
    ShopPage(
        "product-dev",
        "2342b61d68",
        must=(
            "Fernbedienung TV",
            "Fernbedienung neuwertig ,noch nie benutzt in Originalverpackung",
            "A-6805 Feldkirch",
            "privates Angebot",
        ),
        must_not=(
            "Verkaufe Fernseher 32 zoll inkl. Netzkabel",
            "Ähnliche Kleinanzeigen zu TV, Projektoren",
            "We and our partners process your personal data",
            "Mit dem Senden der Nachricht erklärst Du Dich",
            "Vorarlberg Kleinanzeigen kostenlos in der Second Hand Fundgrube",
            "Samsung Smart TV 55 Zoll",
        ),
    ),
    ShopPage(
        "product-dev",
        "453f5cc079",
        must=(
            'APPLE iMac Pro 27" 5K Retina Intel Xeon W/32GB DDR4/1TB Fusion/Vega 56 8GB/OS X (MQ2Y2SL/A)',
            "Apple iMac Pro je počítač s ohromujúcou silou pre profesionálnych užívateľov",
            "Typ pamäte: DDR4 ECC",
            "Rozlíšenie displeja: 5120 x 2880 (5K)",
            "Space Grey Magic Mouse 2",
            "Hmotnosť [kg]: 9,7",
        ),
        must_not=(
            "Táto stránka používa na poskytovanie služieb súbory cookies",
            "APPLE Adaptér z Thunderbolt do Gigabit Ethernet MD463",
            "Zašlite nám cenu konkurencie aj s odkazom",
            "Zadajte e-mailovú adresu pre obnovenie hesla",
            "Cookie Consent plugin for the EU cookie law",
        ),
    ),
    ShopPage(
        "product-dev",
        "bc5a68d0c2",
        must=(
            "ANPIX Redukcia z NGFF M2 (key M) na PCI-E 4x",
            "Táto redukcia umožňuje vytvoriť ďalší konektor PCI-E 4x",
            "1x slot PCI-Express x4 rev. 2.0",
            "Nevyžaduje inštaláciu žiadneho ovládača",
            "napajecí kábel s konektormi MOLEX a FLOPPY",
        ),
        must_not=(
            "Táto stránka používa na poskytovanie služieb súbory cookies",
            "Zašlite nám cenu konkurencie aj s odkazom",
            "Zadajte e-mailovú adresu pre obnovenie hesla",
        ),
    ),
    ShopPage(
        "product-dev",
        "52ea2c6607",
        must=(
            "FLAT OVER-THE-KNEE BOOTS WITH TRACK SOLES",
            "Black flat over-the-knee boots. Elastic upper. Chunky track sole.",
            "AIRFIT®. Flexible technical latex foam insole",
            "Heel height of 4.5 cm.",
        ),
        must_not=(
            "I have read and understand the Privacy and Cookies Policy",
            "YOU WILL RECEIVE AN E-MAIL TO CONFIRM YOUR SUBSCRIPTION",
            "We’ll let you know when it’s in stock",
            "“Check in-store availability” option is temporarily unavailable",
        ),
    ),
    ShopPage(
        "product-dev",
        "5c1ec210b0",
        must=(
            "LONG STRAPPY DRESS",
            "V-neck dress with thin straps. Featuring a gathered detail on the chest",
        ),
        must_not=(
            "YOU WILL RECEIVE AN E-MAIL TO CONFIRM YOUR SUBSCRIPTION",
            "“Check in-store availability” option is temporarily unavailable",
            "Gift Card Conditions",
            "I accept the privacy statement",
        ),
    ),
    ShopPage(
        "product-dev",
        "b331d47650",
        must=(
            "ZIPPED THROUGH CARDIGAN",
            "Knitted zip cardigan - A wear-anywhere piece no guy should be without",
            "50% Viscose, 27% Nylon, 23% Polyester",
            "Machine wash at 30°C",
            "Article Number: 12185160",
        ),
        must_not=(
            "FISHERMAN ZIP CARDIGAN",
            "TEXTURED KNITTED PULLOVER",
            "Enjoy free delivery with orders over €60",
            "Shop worry-free with our 100 day online returns policy",
            "Join our customer club for exclusive offers",
            "Next Day Delivery - Order Before 17:00",
        ),
    ),
    ShopPage(
        "product-dev",
        "be99f19753",
        must=(
            "Sealy Soybean Nature Couture Crib Mattress",
            "The Sealy Soybean Nature Couture crib mattress combines the firmness and simplicity",
            "This entire mattress is GREENGUARD Gold certified for indoor air quality",
            "Proudly made in the USA with imported parts.",
            "Product Weight: 10 lbs.",
        ),
        must_not=(
            "Shopper Services - 1-800-284-8155",
            "Don't miss any of our great values!",
            "By using this Site you agree to our Terms and Conditions",
            "Tab to the end of the page to access this notification",
            "Apply for a Boscov's Credit Card",
        ),
    ),
    ShopPage(
        "product-dev",
        "d8830de9c4",
        must=(
            "Lemon/Cheese/Garlic/Ginger Handheld Stainless Steel Cheese Slicer",
            "Great for zesting citrus, grating hard cheese, and ginger",
            "1 pc Lemon Zester & 1 pc Cheese Grater",
            "Stainless steel and TPR Handle",
            "Mutifuction Cutting Slicer and Lemon zester",
            "Hand wash and Dishwasher",
        ),
        must_not=(
            "Champagne Ice Bucket, White Wine Bottles Cooler Wine Chiller",
            "FDA Medical Silicone Soft Organic Flexible Reusable Menstrual Cup",
            "Based on the privacy policy, some of the data is sensitive",
            "Note: Please be cautious and check with your supplier if this product is for virus",
            "Trade Assuranceprotects your Alibaba.com orders",
        ),
    ),
    ShopPage(
        "product-dev",
        "91f0a111a0",
        must=(
            "The One Device: The Secret History of the iPhone",
            "The secret history of the invention that changed everything",
            "Odds are that as you read this, an iPhone is within reach.",
            "ISBN: 9780552173742",
            "Editora: Corgi Books",
        ),
        must_not=(
            "Os Mitos que Comemos",
            "Como Não Morrer",
            "Top Vendas da categoria",
            "O nosso site utiliza cookies para melhorar a sua experiência",
            "Criar uma conta oferece muitas vantagens",
            "Salvo indicação em contrário, as promoções apresentadas são válidas",
        ),
    ),
)

_SPACE = re.compile(r"\s+")


def norm(text: str) -> str:
    """``text`` NFC, its spaces made one, case folded: how lines are matched."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip().casefold()


def counts(page: ShopPage, text: str) -> tuple[list[str], list[str]]:
    """The ``must`` lines missing from ``text`` and the ``must_not`` lines in it."""
    found = norm(text)
    missed = [line for line in page.must if norm(line) not in found]
    kept = [line for line in page.must_not if norm(line) in found]
    return missed, kept


def pooled(pages: list[ShopPage], texts: list[str]) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``texts`` on ``pages``, their lines pooled."""
    tp = fp = fn = 0
    for page, text in zip(pages, texts, strict=True):
        missed, kept = counts(page, text)
        tp += len(page.must) - len(missed)
        fn += len(missed)
        fp += len(kept)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def load(pages: tuple[ShopPage, ...] = PAGES) -> list[Loaded]:
    """The pages whose data is on this machine, each checked to be in its evaluation's
    tuned half; :class:`FileNotFoundError` when none is."""
    from benchmarks.quality import productdev, productwide

    out: list[Loaded] = []
    wanted = {p.source for p in pages}
    dev = []
    if "product-dev" in wanted:
        try:
            dev = productdev.pages()
        except FileNotFoundError as exc:
            print(f"left out: {exc}", file=sys.stderr)
    wide = []
    if "productwide" in wanted:
        try:
            wide = [w.page for w in productwide.pages()]
        except FileNotFoundError as exc:
            print(f"left out: {exc}", file=sys.stderr)
    for page in pages:
        found = [d for d in (dev if page.source == "product-dev" else wide)
                 if (d.key.startswith(page.key) if page.source == "product-dev" else d.key == page.key)]  # fmt: skip
        if not found:
            continue
        chosen = found[0]
        if chosen.split != "tuned":
            raise ValueError(f"{page.key}: not in its evaluation's tuned half")
        out.append(Loaded(page, chosen.shop, chosen.case.url, chosen.case.html))
    if not out:
        raise FileNotFoundError("none of the shop pages' data is on this machine")
    return out


def run(
    loaded: list[Loaded], names: tuple[str, ...] = EXTRACTORS
) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Each extractor's text of each page (``""`` for none), and its CPU ms a page
    (:func:`benchmarks.quality.unseen.run`)."""
    from benchmarks.quality import unseen

    return unseen.run(names, loaded)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--extractors", default=",".join(EXTRACTORS))
    parser.add_argument("--wrong", action="store_true", help="list each page's misses")
    args = parser.parse_args(argv)
    names = tuple(n.strip() for n in args.extractors.split(",") if n.strip())
    try:
        loaded = load()
    except FileNotFoundError as exc:
        sys.exit(str(exc))
    texts, cpu = run(loaded, names)
    pages = [item.page for item in loaded]
    shops = len({item.shop for item in loaded})
    print(f"Main text of {len(loaded)} real shop pages of {shops} shops (tuned halves)\n")
    rows = []
    for name in names:
        precision, recall, f1 = pooled(pages, texts[name])
        rows.append([name, f"{precision:.3f}", f"{recall:.3f}", f"{f1:.3f}", f"{cpu[name]:.1f}"])
    print(markdown_table(["extractor", "precision", "recall", "F1", "CPU ms/page"], rows))
    if args.wrong:
        for name in names:
            print(f"\n{name}:")
            for item, text in zip(loaded, texts[name], strict=True):
                missed, kept = counts(item.page, text)
                if missed or kept:
                    print(f"  {item.shop} {item.page.key}: missed {missed} kept {kept}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
