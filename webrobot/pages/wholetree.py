"""The whole tree of a page whose markup ends the document before its body.

Some blog themes' head templates close the document before the body
(``</head></html><body>...``, Hexo's "yilia" for one). Browsers read on after a stray
``</html>`` and show the body; libxml2's HTML parser (2.14 and later) stops there, and
the tree is the head alone: no text, no links. :func:`whole_root` parses such a page
again without the early end tags. A tree that has a ``<body>`` (every ordinary page) is
returned as it is, after one look at the root's children: no second parse.

Both the crawl (its links, :mod:`webrobot.pages.wholepage`) and the mining
(:mod:`webrobot.extract.htmltree`) read pages through it.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree
import lxml.html

#: An end tag of the document or the body (before the page's last ``<body>``).
_END_TAG = re.compile(r"</(?:html|body)\s*>", re.IGNORECASE)


def lacks_body(root: Any) -> bool:
    """Whether ``root`` (an lxml HTML tree) has no ``<body>`` child: the cheap check
    made before anything else (it looks at the root's children only)."""
    return root is not None and root.find("body") is None


def whole_root(root: Any, html: str, url: str = "") -> Any:
    """``root`` (an lxml tree of ``html``), or, when it has no ``<body>`` and ``html``
    holds one after an end tag of the document (``</html>``, ``</body>``), ``html``
    parsed again without the end tags before its last ``<body>``: the page a browser
    shows. ``root`` itself when that parse fails."""
    if not lacks_body(root) or not isinstance(html, str):
        return root
    lowered = html.lower()
    body = lowered.rfind("<body")
    if body < 0 or not _END_TAG.search(lowered, 0, body):
        return root
    mended = _END_TAG.sub("", html[:body]) + html[body:]
    try:
        whole = lxml.html.document_fromstring(mended.replace("\x00", ""), base_url=url or None)
    except (lxml.etree.ParserError, ValueError):
        return root
    return whole if whole.find("body") is not None else root
