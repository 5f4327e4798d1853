"""The demo web: eight small sites on loopback, one port each.

``shop`` has real pages (package data in ``webrobot/demo/pages/shop``): aliases,
duplicate content, robots meta tags and spider traps. The next five differ in
how their robots.txt answers: 404, 401, 403, 503 then 200, and a redirect.

The last two are a front door as the real web has it: a site reached as
``http://frontdoor.test/`` that lives on ``https://www.frontdoor.test/``. The
``frontdoor`` server (http) answers every request with a 301 to the same URL
over https; the ``www`` server (https, a certificate made at start for
``www.frontdoor.test`` only) sends ``frontdoor.test`` on to
``www.frontdoor.test`` and serves the pages, which still link the old
``http://frontdoor.test/`` form. The names are mapped to the demo's address by
:meth:`DemoWeb.resolve_table` (``WEBROBOT_RESOLVE``): no DNS.
"""

from __future__ import annotations

import pkgutil
import re
from collections.abc import Callable
from typing import Self
from urllib.parse import parse_qsl, urlsplit

from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.demo.tls import server_context

SITE_NAMES = ("shop", "nofile", "members", "staffonly", "flaky", "moved", "frontdoor", "www")
#: The front door's names (``frontdoor`` serves http, ``www`` https).
FRONTDOOR_NAMES = ("frontdoor.test", "www.frontdoor.test")
FRONTDOOR_PAGES = ("about.html", "products.html", "contact.html")
DEFAULT_PORT_BASE = 8701

SHOP_ROBOTS = """\
# The demo shop's robots.txt
User-agent: *
Disallow: /private/

User-agent: webrobot
Disallow: /private/
Disallow: /cgi-bin/
"""

SHOP_FILES = (
    "index.html", "about.html",
    "products/index.html", "products/widget.html", "products/gadget.html",
    "print/widget.html", "mirror/widget.html", "staff/index.html", "traps/index.html",
    "meta/index.html", "meta/noindex.html", "meta/noindex-child.html",
    "meta/nofollow.html", "meta/nofollow-child.html", "meta/none.html", "meta/none-child.html",
    "meta/webrobot-noindex.html", "meta/otherbot.html", "meta/header.html",
    "meta/rel-nofollow.html", "meta/sponsored.html", "meta/plain.html",
    "meta/noarchive.html", "meta/body-meta.html", "meta/body-meta-child.html",
)  # fmt: skip

LONG_PATH = "x" * 2100


def _page(title: str, body: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
        f"<body><h1>{title}</h1>{body}</body></html>"
    )


def shop_file(name: str) -> str:
    data = pkgutil.get_data("webrobot.demo", f"pages/shop/{name}")
    assert data is not None, name
    return data.decode("utf-8")


class DemoWeb:
    def __init__(self, host: str = "127.0.0.1", port_base: int = DEFAULT_PORT_BASE) -> None:
        self.host = host
        self.sites: dict[str, SiteServer] = {}
        for index, name in enumerate(SITE_NAMES):
            port = port_base + index if port_base else 0
            tls = server_context(FRONTDOOR_NAMES[1]) if name == "www" else None
            self.sites[name] = SiteServer(name, host, port, tls=tls)
        self._flaky_robots_failures = 2
        self._build()

    # -- life cycle --------------------------------------------------------
    def start(self) -> Self:
        try:
            for site in self.sites.values():
                site.start()
        except OSError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for site in self.sites.values():
            site.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start_urls(self) -> list[str]:
        """Each site's home page; the front door as a person types it (``www`` is reached through it)."""
        urls = [
            site.url("/") for name, site in self.sites.items() if name not in ("frontdoor", "www")
        ]
        return [*urls, self.frontdoor_url("/")]

    def frontdoor_url(self, target: str = "/") -> str:
        return f"http://{FRONTDOOR_NAMES[0]}:{self.sites['frontdoor'].port}{target}"

    def resolve_table(self) -> dict[str, str]:
        """``WEBROBOT_RESOLVE`` for the front door's names."""
        return dict.fromkeys(FRONTDOOR_NAMES, self.host)

    # -- content -----------------------------------------------------------
    def _render(self, text: str) -> str:
        shop = self.sites["shop"]
        text = text.replace("{{port}}", str(shop.port)).replace("{{longpath}}", LONG_PATH)
        return re.sub(r"\{\{site:(\w+)\}\}", lambda m: self.sites[m.group(1)].origin, text)

    def _static(self, name: str, **headers: str) -> Callable[[Hit], Reply]:
        return lambda hit: Reply.html(self._render(shop_file(name))).with_headers(headers)

    def _build(self) -> None:
        self._build_shop()
        self._build_frontdoor()
        for name in ("nofile", "members", "staffonly", "flaky", "moved"):
            site = self.sites[name]
            links = "".join(f'<li><a href="/{p}">{p}</a></li>' for p in ("a.html", "b.html"))
            site.html("/", _page(f"The {name} site", f"<ul>{links}</ul>"))
            site.html("/a.html", _page(f"{name}: page a", '<a href="b.html">b</a>'))
            site.html("/b.html", _page(f"{name}: page b", '<a href="a.html">a</a>'))
        self.sites["members"].add("/robots.txt", Reply.text("Members only", 401))
        self.sites["staffonly"].add("/robots.txt", Reply.text("Forbidden", 403))
        self.sites["flaky"].add("/robots.txt", self._flaky_robots)
        self.sites["flaky"].html("/tmp/scratch.html", _page("Scratch", "robots.txt says no"))
        self.sites["flaky"].html(
            "/",
            _page(
                "The flaky site", '<a href="a.html">a</a> <a href="tmp/scratch.html">scratch</a>'
            ),
        )
        moved = self.sites["moved"]
        moved.add("/robots.txt", Reply(301, b"", {"Location": "/robots/current.txt"}))
        moved.add("/robots/current.txt", Reply.text("User-agent: *\nDisallow: /old/\n"))
        moved.html(
            "/",
            _page(
                "The moved site", '<a href="old/page.html">old</a> <a href="new/page.html">new</a>'
            ),
        )
        moved.html("/old/page.html", _page("Old", "robots.txt says no"))
        moved.html("/new/page.html", _page("New", "allowed"))

    def _build_frontdoor(self) -> None:
        http, www = self.sites["frontdoor"], self.sites["www"]
        apex = FRONTDOOR_NAMES[0]
        # Every http request, robots.txt too: the same URL over https (ports known once started).
        http.add_prefix(
            "/", lambda hit: Reply(301, b"", {"Location": f"https://{apex}:{www.port}{hit.target}"})
        )
        www.add_prefix("/", self._frontdoor_page)

    def _frontdoor_page(self, hit: Hit) -> Reply:
        apex, name = FRONTDOOR_NAMES
        new = f"https://{name}:{self.sites['www'].port}"
        if not hit.headers.get("host", "").startswith(name + ":"):
            return Reply(301, b"", {"Location": new + hit.target})  # the apex moved to www
        if hit.path == "/robots.txt":
            return Reply.text("User-agent: *\nDisallow: /private/\n")
        old = f"http://{apex}:{self.sites['frontdoor'].port}"
        links = (
            f'<li><a href="{old}/{FRONTDOOR_PAGES[0]}">about (an old http link)</a></li>'
            f'<li><a href="/{FRONTDOOR_PAGES[1]}">products</a></li>'
            f'<li><a href="{new}/{FRONTDOOR_PAGES[2]}">contact</a></li>'
        )
        if hit.path == "/":
            body = _page("The front door", f"<ul>{links}</ul>")
        elif hit.path.lstrip("/") in FRONTDOOR_PAGES:
            body = _page(
                f"frontdoor: {hit.path[1:]}",
                f'<a href="{old}/">home (old link)</a><ul>{links}</ul>',
            )
        else:
            return Reply.html(_page("Not found", "Not found"), 404)
        return Reply.html(body).with_headers({"Strict-Transport-Security": "max-age=31536000"})

    def _flaky_robots(self, hit: Hit) -> Reply:
        if self._flaky_robots_failures > 0:
            self._flaky_robots_failures -= 1
            return Reply.text("Busy, come back later", 503).with_headers({"Retry-After": "1"})
        return Reply.text("User-agent: *\nDisallow: /tmp/\n")

    def _build_shop(self) -> None:
        shop = self.sites["shop"]
        shop.add("/robots.txt", Reply.text(SHOP_ROBOTS))
        for name in SHOP_FILES:
            headers = {"X-Robots-Tag": "noindex"} if name == "meta/header.html" else {}
            handler = self._static(name, **headers)
            shop.add("/" + name, handler)
            if name.endswith("index.html"):
                shop.add("/" + name[: -len("index.html")], handler)
        for alias in ("/~staff/", "/%7Estaff/", "/%7estaff/"):
            shop.add(alias, self._static("staff/index.html"))
        shop.html("/private/secret.html", _page("Secret", "robots.txt says no"))
        shop.html("/cgi-bin/stats", _page("Stats", "robots.txt says no to webrobot"))
        shop.add("/search", self._search)
        shop.add_prefix(
            "/loop/",
            lambda hit: Reply.html(
                _page("Loop", f'<p>{hit.path}</p><a href="loop/">deeper</a> <a href="/">home</a>')
            ),
        )
        shop.add("/cal", self._calendar)
        shop.add_prefix(
            "/catalog/",
            lambda hit: Reply.html(
                _page(
                    "Catalogue",
                    '<p>Nothing here yet.</p><a href="more/">more</a> <a href="other/">other</a>',
                )
            ),
        )
        shop.add_prefix("/long/", lambda hit: Reply.html(_page("Long", "a very long URL")))

    @staticmethod
    def _search(hit: Hit) -> Reply:
        params = sorted(parse_qsl(urlsplit(hit.target).query))
        return Reply.html(_page("Search", f"<p>Results for {params}</p>"))

    @staticmethod
    def _calendar(hit: Hit) -> Reply:
        query = dict(parse_qsl(urlsplit(hit.target).query))
        try:
            month = int(query.get("month", "1"))
        except ValueError:
            month = 1
        body = (
            f"<p>Month {month}</p><a href='/cal?month={month - 1}'>previous</a> "
            f"<a href='/cal?month={month + 1}'>next</a>"
        )
        return Reply.html(_page(f"Calendar: month {month}", body))
