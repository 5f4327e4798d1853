"""The request for something a page embeds (an image, a stylesheet, a frame...),
as every part of the crawl that fetches embeds makes it: the archive's page
requisites (:mod:`webrobot.archive.requisitemiddleware`) and the images the
mining describes (:mod:`webrobot.extract.imagefetch`).

Such a request carries the page as its ``Referer`` and the marks the filters
read (:data:`~webrobot.signals.REQUISITE_META`, its kind, and
:data:`~webrobot.signals.HOPS_META`): the scope lets it off-site within
``WEBROBOT_REQUISITES_MAX_HOPS`` embeds of an in-scope page, the content-type
gate lets its body through, and the network guard, the blocklist, robots.txt
and the politeness clock apply to it as to every request. One awaited by a
component (``callback=NO_CALLBACK``, downloaded with ``engine.download_async``)
comes back to that component and is not counted against the site's page
budget, like robots.txt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import Request

from webrobot.signals import HOPS_META, REQUISITE_META

if TYPE_CHECKING:
    from collections.abc import Callable


def embed_request(
    url: str,
    kind: str,
    *,
    referer: str | None,
    hops: int = 1,
    priority: int = 0,
    callback: Callable[..., Any] | None = None,
    meta: dict[str, Any] | None = None,
) -> Request:
    """A request for ``url``, embedded (as ``kind``) ``hops`` embeds away from the
    page ``referer`` (``None``: no ``Referer`` header); :class:`ValueError` for a URL Scrapy refuses."""
    return Request(
        url,
        callback=callback,
        priority=priority,
        headers={"Referer": referer} if referer else None,
        meta={
            REQUISITE_META: kind,
            HOPS_META: hops,
            "dont_check_type": True,  # embeds need their bodies
            **(meta or {}),
        },
    )
