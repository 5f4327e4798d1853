"""A resolver for crawl tests that answers as the system's would, without DNS.

``TWISTED_DNS_RESOLVER = "tests.fakedns.ScriptedResolver"`` in a test crawl (with
``WEBROBOT_RESOLVE_ONLY = False``, so that names outside ``WEBROBOT_RESOLVE`` are
"looked up"): the crawl's process then answers every look-up of a name from the
script in the environment variable :data:`SCRIPT_ENV` (a JSON object, name ->
``"EAI_NONAME"`` or ``"EAI_AGAIN"``) by raising the ``socket.gaierror`` that
``getaddrinfo`` raises for that answer: ``EAI_NONAME`` is the resolver saying the
name does not exist (NXDOMAIN), ``EAI_AGAIN`` a resolver that could not be
reached. Any other name is answered ``EAI_NONAME``; ``localhost`` and address
literals are answered as usual. No DNS query ever leaves the process: the
system's ``gethostbyname`` and ``getaddrinfo`` are replaced in it, so the real
path (Twisted's threaded resolver, the network guard) turns the errors into
what a download sees.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
from typing import Any

from webrobot.urls.resolver import MappedResolver

SCRIPT_ENV = "WEBROBOT_TEST_DNS"

_ERRORS = {
    "EAI_NONAME": (socket.EAI_NONAME, "Name or service not known"),
    "EAI_AGAIN": (socket.EAI_AGAIN, "Temporary failure in name resolution"),
}


def _answered_as_usual(host: object) -> bool:
    if not isinstance(host, str):
        return True  # None or bytes: not a name look-up of a test's
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _fail(host: str, script: dict[str, str]) -> None:
    code, message = _ERRORS[script.get(host.lower().rstrip("."), "EAI_NONAME")]
    raise socket.gaierror(code, message)


def install(script: dict[str, str]) -> None:
    """Answer this process's look-ups from ``script``."""
    by_name, by_info = socket.gethostbyname, socket.getaddrinfo

    def gethostbyname(host: str) -> str:
        if not _answered_as_usual(host):
            _fail(host, script)
        return by_name(host)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _answered_as_usual(host):
            _fail(host, script)
        return by_info(host, *args, **kwargs)

    socket.gethostbyname = gethostbyname
    socket.getaddrinfo = getaddrinfo


class ScriptedResolver(MappedResolver):
    """webrobot's resolver, in a process whose look-ups :data:`SCRIPT_ENV` answers."""

    def install_on_reactor(self) -> None:
        install(json.loads(os.environ.get(SCRIPT_ENV) or "{}"))
        super().install_on_reactor()
