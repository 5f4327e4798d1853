"""Product fields of a shop's product page (name, price, currency, availability, sku,
gtin, mpn, brand): :func:`product` (:mod:`.extractor`) puts them together, from the
structured product node (:mod:`.nodes`, :mod:`.offers`), OpenGraph's tags and the markup a
shopper sees (:mod:`.markup`, with :mod:`.shownprices`, :mod:`.stock`, :mod:`.codes`,
:mod:`.details`, :mod:`.elements`, gathered by one walk of the tree in :mod:`.walk`);
:mod:`.context` is what they share and :mod:`.prices` reads prices,
currencies and availability as shops write them.

Pure: no Scrapy, no I/O.
"""

from webrobot.extract.product.context import PRODUCT_KEYS
from webrobot.extract.product.extractor import FIELDS, product

__all__ = ["FIELDS", "PRODUCT_KEYS", "product"]
