"""Certificates for the demo web's https sites, made when the demo starts.

The demo's https site needs a certificate for its names; `trustme
<https://github.com/python-trio/trustme>`_ (made for exactly this: a throwaway
certificate authority and leaf certificates for tests and demos, maintained by
the python-trio project) issues one in memory, so nothing is written to disk
and no ``openssl`` command is needed. The crawler is not told about this
authority: like a crawl of the real web meeting a certificate it cannot verify,
it fetches the pages (Scrapy does not verify certificates unless
``DOWNLOAD_VERIFY_CERTIFICATES`` is on) and counts the problem.
"""

from __future__ import annotations

import ssl
from datetime import datetime
from typing import Any

from webrobot.optional import require


def server_context(
    *names: str, not_before: datetime | None = None, not_after: datetime | None = None
) -> ssl.SSLContext:
    """An https server context with a fresh certificate for ``names`` (issued by a fresh
    authority that no client trusts)."""
    trustme: Any = require("trustme", "demo", "The demo web's https site")
    authority = trustme.CA()
    certificate = authority.issue_cert(*names, not_before=not_before, not_after=not_after)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    certificate.configure_cert(context)
    return context
