"""Count the certificate problems of each https origin (:mod:`webrobot.urls.tlsproblems`).

The first https response of each origin has its certificate checked (Scrapy
keeps the server's certificate on ``response.certificate``): each problem is
counted once per origin (``webrobot/tls/<kind>``), logged once, and kept for
the report's hosts table. The page itself is crawled as any other. Failed
handshakes and connections reset during one are network errors, as any other:
retried, and they slow the site down (the politeness backoff).
"""

from __future__ import annotations

import ipaddress
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from webrobot.urls.hostnotes import HostNotes
from webrobot.urls.sitekey import request_host, site_key
from webrobot.urls.tlsproblems import certificate_problems
from webrobot.urls.upgrademiddleware import host_notes

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)
STATS_PREFIX = "webrobot/tls/"
#: Origins whose certificate was checked (then the set starts again).
ORIGINS_REMEMBERED = 100_000


def _name_matches(certificate: Any, host: str) -> bool:
    from service_identity import VerificationError
    from service_identity.cryptography import (
        verify_certificate_hostname,
        verify_certificate_ip_address,
    )

    try:
        try:
            address = ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            verify_certificate_hostname(certificate, host)
        else:
            verify_certificate_ip_address(certificate, str(address))
    except (VerificationError, ValueError):
        return False
    except Exception:  # noqa: BLE001 - a certificate with no names at all, for one
        return False
    return True


def problems_of(certificate: Any, host: str, now: datetime) -> tuple[str, ...]:
    """The problems of a ``cryptography`` certificate served for ``host``."""
    return certificate_problems(
        not_before=certificate.not_valid_before_utc,
        not_after=certificate.not_valid_after_utc,
        self_signed=certificate.issuer == certificate.subject,
        name_matches=_name_matches(certificate, host),
        now=now,
    )


class TlsProblemsMiddleware:
    """Counts the certificate problems of each https origin."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.notes: HostNotes = host_notes(crawler)
        self._checked: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        wrapped = getattr(response, "certificate", None)
        if wrapped is None or not response.url.startswith("https:"):
            return response
        origin = site_key(response.url)
        if origin in self._checked:
            return response
        if len(self._checked) >= ORIGINS_REMEMBERED:
            self._checked.clear()
        self._checked.add(origin)
        try:
            certificate = wrapped.original.to_cryptography()
        except Exception:  # noqa: BLE001 - not a certificate we can read: nothing to judge
            return response
        name = urlsplit(response.url).hostname or ""
        problems = problems_of(certificate, name, datetime.now(UTC))
        if problems:
            assert self.crawler.stats is not None
            for kind in problems:
                self.crawler.stats.inc_value(STATS_PREFIX + kind)
            self.notes.tls_problems(request_host(response), problems)
            logger.warning(
                "The TLS certificate of %s has problems: %s (crawled anyway; "
                "DOWNLOAD_VERIFY_CERTIFICATES = True refuses such sites)",
                origin, ", ".join(problems),
            )  # fmt: skip
        return response
