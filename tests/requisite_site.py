"""A small site whose pages need requisites, and a second server standing for a
CDN (its robots.txt forbids /private/): stylesheets with ``url()`` fonts and
images and an ``@import``, ``srcset`` images, lazy images, an iframe on the site
and one on the CDN, a script. Used by the replay tests and the benchmark."""

from __future__ import annotations

from dataclasses import dataclass

from webrobot.demo.server import Reply, SiteServer

# 1x1 PNG and a tiny GIF: real images, so the browser decodes them.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2a8d3"
    "a20000000049454e44ae426082"
)
GIF = bytes.fromhex(
    "47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b"
)
FONT = b"wOF2" + b"\x00" * 60  # enough for a request; the browser may reject it as a font


@dataclass
class RequisiteSite:
    site: SiteServer
    cdn: SiteServer
    pages: list[str]
    #: the requisite robots.txt forbids (on the CDN)
    forbidden: str


def page(title: str, body: str, head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}</head>"
        f"<body>{body}</body></html>"
    )


def build(site: SiteServer, cdn: SiteServer, pages: int = 3) -> RequisiteSite:
    c = cdn.origin
    cdn.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    cdn.add("/lib/lib.js", Reply(200, b"window.libLoaded = true;\n",
                                 {"Content-Type": "application/javascript"}))  # fmt: skip
    cdn.add("/fonts/cdn.woff2", Reply(200, FONT, {"Content-Type": "font/woff2"}))
    cdn.add("/img/photo-1x.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    cdn.add("/img/photo-2x.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    cdn.add("/private/pixel.gif", Reply(200, GIF, {"Content-Type": "image/gif"}))
    cdn.add("/widget/widget.css", Reply(200, b".w{color:#333}", {"Content-Type": "text/css"}))
    cdn.add("/widget/w.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    cdn.html("/widget/embed.html", page(
        "Widget", '<div class="w">widget</div>',
        head='<link rel="stylesheet" href="widget.css"><style>.w{background:url(w.png)}</style>',
    ))  # fmt: skip

    site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
    site.add("/static/site.css", Reply(200, (
        '@import "base.css";\n'
        f'@font-face {{ font-family: "Cdn"; src: url("{c}/fonts/cdn.woff2") format("woff2"); }}\n'
        '@font-face { font-family: "Own"; src: url(fonts/own.woff2) format("woff2"); }\n'
        'body { font-family: "Own", "Cdn", sans-serif; background: url(img/bg.png); }\n'
        'h1 { font-family: "Cdn"; }\n'
    ).encode(), {"Content-Type": "text/css; charset=utf-8"}))  # fmt: skip
    site.add("/static/base.css", Reply(200, b"p { background-image: url('img/tile.gif'); }",
                                       {"Content-Type": "text/css"}))  # fmt: skip
    site.add("/static/fonts/own.woff2", Reply(200, FONT, {"Content-Type": "font/woff2"}))
    site.add("/static/img/bg.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    site.add("/static/img/tile.gif", Reply(200, GIF, {"Content-Type": "image/gif"}))
    site.add("/static/app.js", Reply(200, b"document.documentElement.dataset.app = '1';\n",
                                     {"Content-Type": "application/javascript"}))  # fmt: skip
    site.add("/static/logo.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    site.add("/static/lazy.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    site.add("/static/hero.png", Reply(200, PNG, {"Content-Type": "image/png"}))
    site.add("/favicon.ico", Reply(200, PNG, {"Content-Type": "image/png"}))
    site.html("/frame.html", page(
        "Frame", '<p>framed</p><img src="/static/logo.png" alt="">',
        head='<link rel="stylesheet" href="/static/site.css">',
    ))  # fmt: skip

    urls = [f"/page{i}.html" for i in range(pages)]
    nav = "".join(f'<a href="{u}">{u}</a> ' for u in ["/", *urls])
    head = (
        '<link rel="stylesheet" href="/static/site.css">'
        '<link rel="icon" href="/favicon.ico">'
        f'<script src="{c}/lib/lib.js"></script><script src="/static/app.js"></script>'
    )
    body = (
        "<h1>{title}</h1><p>{title} text</p>" + nav +
        '<img src="/static/logo.png" alt="logo">'
        f'<img src="{c}/img/photo-1x.png" srcset="{c}/img/photo-1x.png 1x, {c}/img/photo-2x.png 2x" alt="">'
        '<img class="lazy" data-src="/static/lazy.png" src="/static/logo.png" alt="">'
        '<div style="background-image: url(/static/hero.png); width: 10px; height: 10px"></div>'
        f'<img src="{c}/private/pixel.gif" alt="">'
        '<iframe src="/frame.html" width="50" height="50"></iframe>'
        f'<iframe src="{c}/widget/embed.html" width="50" height="50"></iframe>'
    )  # fmt: skip
    site.html("/", page("Home", body.format(title="Home"), head))
    for i, url in enumerate(urls):
        site.html(url, page(f"Page {i}", body.format(title=f"Page {i}"), head))
    return RequisiteSite(site, cdn, ["/", *urls, "/frame.html"], c + "/private/pixel.gif")
