"""The images a page shows, read from its markup. Pure: no Scrapy, no I/O.

:func:`page_images` reads the crawl's own parse of the page
(:class:`~webrobot.extract.page.SourcePage`): each ``<img>`` (its ``srcset``'s
best candidate, else ``src``, else the lazy-loading ``data-src``), each
``<picture>`` as one image (its ``<img>``, else its first ``<source>``), and
the page's ``og:image``. URLs are absolute (against ``<base href>``), without
fragment, ``http(s)`` only, each once in document order. ``width`` and
``height`` are what the markup says (``None`` when it says nothing usable);
an image the markup sizes at 1x1 or less (a tracking pixel) is not shown, so
not listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from webrobot.pages.srcset import srcset_candidates

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

_WS = " \t\n\r\f"


def _tag(element: Any) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def _descriptor_size(descriptor: str) -> tuple[int, float]:
    """Sort key of a candidate: widths (``800w``) rank above densities (``2x``)."""
    for word in descriptor.split():
        try:
            if word.endswith("w"):
                return (1, float(word[:-1]))
            if word.endswith("x"):
                return (0, float(word[:-1]))
        except ValueError:
            continue
    return (0, 1.0)


def best_candidate(srcset: str) -> str | None:
    """The largest candidate of a ``srcset`` (the first of equals)."""
    candidates = srcset_candidates(srcset)
    if not candidates:
        return None
    best = candidates[0]
    for candidate in candidates[1:]:
        if _descriptor_size(candidate[1]) > _descriptor_size(best[1]):
            best = candidate
    return best[0]


def _dimension(value: str | None) -> int | None:
    """HTML's rules for a non-negative integer: leading digits (``"300px"`` is 300)."""
    if not value:
        return None
    text = value.strip(_WS)
    digits = ""
    for char in text:
        if not char.isdigit() or not char.isascii():
            break
        digits += char
    return int(digits) if digits and len(digits) < 9 else None


def _absolute(base: str, value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip(_WS)
    if not value or value.lower().startswith(("data:", "javascript:", "blob:", "about:", "#")):
        return None
    try:
        url = urljoin(base, value)
    except ValueError:
        return None
    url = url.split("#", 1)[0]
    return url if url.lower().startswith(("http://", "https://")) else None


def _img_url(element: Any, base: str) -> str | None:
    get = element.get
    for raw in (best_candidate(get("srcset") or ""), get("src"), get("data-src"),
                best_candidate(get("data-srcset") or "")):  # fmt: skip
        url = _absolute(base, raw)
        if url is not None:
            return url
    return None


def _base(root: Any, page_url: str) -> str:
    for element in root.iter("base"):
        href = (element.get("href") or "").strip(_WS)
        if href:
            try:
                return urljoin(page_url, href)
            except ValueError:
                return page_url
    return page_url


def _entry(url: str, alt: str | None, width: Any, height: Any) -> dict[str, Any]:
    return {"url": url, "alt": alt, "width": _dimension(width), "height": _dimension(height)}


def _pixel(image: dict[str, Any]) -> bool:
    width, height = image["width"], image["height"]
    return width is not None and height is not None and width <= 1 and height <= 1


def page_images(page: SourcePage) -> list[dict[str, Any]]:
    """The images ``page`` shows: dicts of ``url``, ``alt``, ``width``, ``height``."""
    root = page.root
    if root is None:
        return []
    base = _base(root, page.url)
    found: list[dict[str, Any]] = []
    for element in root.iter("img", "picture", "meta"):
        tag = _tag(element)
        if tag == "img":
            parent = element.getparent()
            if parent is not None and _tag(parent) == "picture":
                continue  # listed with its picture
            url = _img_url(element, base)
            if url is not None:
                found.append(
                    _entry(url, element.get("alt"), element.get("width"), element.get("height"))
                )
        elif tag == "picture":
            image = _picture(element, base)
            if image is not None:
                found.append(image)
        elif (element.get("property") or element.get("name") or "").strip().lower() in (
            "og:image", "og:image:url", "og:image:secure_url"
        ):  # fmt: skip
            url = _absolute(base, element.get("content"))
            if url is not None:
                found.append(_og_image(root, url))
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for image in found:
        if image["url"] in seen or _pixel(image):
            continue
        seen.add(image["url"])
        out.append(image)
    return out


def _picture(element: Any, base: str) -> dict[str, Any] | None:
    img = None
    first_source = None
    for child in element.iter("img", "source"):
        tag = _tag(child)
        if tag == "img" and img is None:
            img = child
        elif tag == "source" and first_source is None:
            first_source = child
    url = _img_url(img, base) if img is not None else None
    if url is None and first_source is not None:
        url = _absolute(
            base, best_candidate(first_source.get("srcset") or "") or first_source.get("src")
        )
    if url is None:
        return None
    if img is None:
        return _entry(url, None, None, None)
    return _entry(url, img.get("alt"), img.get("width"), img.get("height"))


def _og_image(root: Any, url: str) -> dict[str, Any]:
    props: dict[str, str] = {}
    for meta in root.iter("meta"):
        name = (meta.get("property") or meta.get("name") or "").strip().lower()
        if name in ("og:image:alt", "og:image:width", "og:image:height") and name not in props:
            props[name] = meta.get("content") or ""
    return _entry(
        url, props.get("og:image:alt"), props.get("og:image:width"), props.get("og:image:height")
    )
