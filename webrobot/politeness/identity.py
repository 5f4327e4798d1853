"""Who the robot says it is. Pure logic: no Scrapy, no I/O.

A site owner who sees the robot in their logs should be able to find out what
it is and who runs it, and reach that person: the HTTP specification's
``From`` header carries the operator's e-mail address, and the convention of
well-behaved robots is a ``+URL`` in the ``User-Agent`` pointing at a page
about the crawl. Both are set in one place: ``WEBROBOT_FROM`` and
``WEBROBOT_CONTACT_URL`` (the ``User-Agent`` is built from the latter unless
``USER_AGENT`` is set explicitly).
"""

from __future__ import annotations

import re

_URL = re.compile(r"https?://[^\s;()]+", re.IGNORECASE)
_EMAIL = re.compile(r"[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+")


def user_agent(product: str, version: str, contact_url: str) -> str:
    """``product/version (+contact_url)``."""
    return f"{product}/{version} (+{contact_url})"


def contacts_in(user_agent_value: str) -> list[str]:
    """The URLs and e-mail addresses a User-Agent string carries."""
    return _URL.findall(user_agent_value) + _EMAIL.findall(user_agent_value)


def missing_contact(user_agent_value: str, from_value: str, project_url: str) -> str | None:
    """Why a site owner could not reach this robot's operator, or ``None`` when
    they could: a ``From`` address, or a URL in the User-Agent other than the
    software's own project page (which says what the robot is, not who runs it)."""
    if from_value.strip():
        return None
    own = [c for c in contacts_in(user_agent_value) if c.rstrip("/") != project_url.rstrip("/")]
    if own:
        return None
    if contacts_in(user_agent_value):
        return "the User-Agent names only the webrobot project page and WEBROBOT_FROM is empty"
    return "the User-Agent has no contact URL and WEBROBOT_FROM is empty"
