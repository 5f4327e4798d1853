"""The registered domain of a host name, from the Public Suffix List.

``www.shop.example.co.uk`` -> ``example.co.uk``: the name one registrant owns,
everything under it theirs. The scope option ``domain`` and the politeness unit
``domain`` use it.

The list comes from `tldextract <https://github.com/john-kurkowski/tldextract>`_
(a Scrapy dependency, maintained, shipping a snapshot of the list): it is read
from that snapshot and never fetched at run time (``suffix_list_urls=()``, no
cache directory), so a crawl's scope does not change with the network or the
day. Private suffixes count (``github.io``, ``blogspot.com``: each name under
them belongs to someone else). A name whose last label is not a known suffix
(``shop.test``, an intranet's ``.lan``) follows the list's default rule ``*``:
the last two labels. IP addresses and single labels are their own domain.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from webrobot.urls.netpolicy import as_address

_extract: Any = None


def _extractor() -> Any:
    global _extract
    if _extract is None:
        import tldextract

        _extract = tldextract.TLDExtract(
            suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True
        )
    return _extract


@lru_cache(maxsize=65_536)
def registered_domain(host: str) -> str:
    """The registered domain of ``host`` (a lower-case name, punycode, no port)."""
    host = host.strip("[]").rstrip(".")
    if not host or as_address(host) is not None or "." not in host:
        return host
    result = _extractor().extract_str(host)
    if result.suffix:
        return str(result.top_domain_under_public_suffix) or host
    return ".".join(host.split(".")[-2:])
