"""The item of a mining crawl: :class:`MinedPageItem`, a
:class:`~webrobot.items.PageItem` with one field per mining part's item key, made
from the table of parts (:data:`webrobot.extract.parts.PARTS`), so that a new part
gives the item its field.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from dataclasses import fields, make_dataclass
from typing import Any

from webrobot.extract.parts import item_keys
from webrobot.items import PageItem

#: Item key of each part of ``WEBROBOT_EXTRACT`` (documents fill main_text and metadata).
MINED_FIELDS = item_keys()


def _of(cls: type[PageItem], item: PageItem) -> PageItem:
    """``item`` as a mined item (its own fields copied, none mined yet)."""
    return cls(**{f.name: getattr(item, f.name) for f in fields(PageItem)})


#: A :class:`~webrobot.items.PageItem` with what the page says, a field per part's
#: item key; ``None``: not asked, or nothing found.
MinedPageItem: Any = make_dataclass(
    "MinedPageItem",
    [(key, Any, None) for key in MINED_FIELDS],
    bases=(PageItem,),
    namespace={"of": classmethod(_of), "__module__": __name__},
)
