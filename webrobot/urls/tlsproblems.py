"""What is wrong with a site's TLS certificate, as a browser would judge it.

The robot fetches pages whatever their certificate, as Scrapy does by default
(``DOWNLOAD_VERIFY_CERTIFICATES = False``): the real web has self-signed,
expired and wrong-name certificates, and the page is the same page. Each
problem is counted per host and shown in the report; set
``DOWNLOAD_VERIFY_CERTIFICATES = True`` to refuse such sites instead (their
downloads then fail as network errors).

Kinds: ``self_signed`` (issued by itself), ``expired``, ``not_yet_valid``,
``wrong_name`` (the host name is not among its names). Whether the issuer is a
trusted authority is not judged: the server's chain is not available here.

Pure logic: no Scrapy, no I/O (the certificate's facts and the time are passed in).
"""

from __future__ import annotations

from datetime import datetime

SELF_SIGNED, EXPIRED, NOT_YET_VALID, WRONG_NAME = (
    "self_signed",
    "expired",
    "not_yet_valid",
    "wrong_name",
)
KINDS = (SELF_SIGNED, EXPIRED, NOT_YET_VALID, WRONG_NAME)


def certificate_problems(
    *,
    not_before: datetime,
    not_after: datetime,
    self_signed: bool,
    name_matches: bool,
    now: datetime,
) -> tuple[str, ...]:
    problems = []
    if self_signed:
        problems.append(SELF_SIGNED)
    if now > not_after:
        problems.append(EXPIRED)
    elif now < not_before:
        problems.append(NOT_YET_VALID)
    if not name_matches:
        problems.append(WRONG_NAME)
    return tuple(problems)
