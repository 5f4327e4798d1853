"""page_images reads the images a page shows from the crawl's own tree;
describe_image tells what an image really is and refuses bombs by their header."""

from __future__ import annotations

import time

import lxml.html
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.imagefiles import huge_png_header, picture
from webrobot.extract.images import best_candidate, page_images, srcset_candidates
from webrobot.extract.page import SourcePage

URL = "https://example.test/dir/page.html"


def images(html: str, url: str = URL) -> list[dict[str, object]]:
    return page_images(SourcePage(url=url, html=html, root=lxml.html.fromstring(html)))


def test_img_src_absolute_with_markup_fields() -> None:
    found = images('<p><img src="a.png" alt="A cat" width="300" height="200px"></p>')
    assert found == [
        {"url": "https://example.test/dir/a.png", "alt": "A cat", "width": 300, "height": 200}
    ]


def test_srcset_best_candidate_wins_over_src() -> None:
    html = '<img src="s.jpg" srcset="s.jpg 320w, l.jpg 1280w, m.jpg 640w" alt="">'
    assert images(html)[0]["url"] == "https://example.test/dir/l.jpg"
    assert best_candidate("a.png 1x, b.png 2x") == "b.png"
    assert best_candidate("a.png, b.png 1.5x") == "b.png"
    assert srcset_candidates("x,y.png 2x, z.png") == [("x,y.png", "2x"), ("z.png", "")]


def test_picture_is_one_image_its_img_or_first_source() -> None:
    html = (
        "<picture><source srcset='wide.webp 2x' type='image/webp'>"
        "<img src='fallback.jpg' srcset='big.jpg 2x' alt='P' width='10' height='20'></picture>"
        "<picture><source srcset='only.avif 1x, only2.avif 2x'></picture>"
    )
    assert images(html) == [
        {"url": "https://example.test/dir/big.jpg", "alt": "P", "width": 10, "height": 20},
        {"url": "https://example.test/dir/only2.avif", "alt": None, "width": None, "height": None},
    ]


def test_og_image_lazy_base_dedup_and_what_is_left_out() -> None:
    html = (
        "<html><head><base href='https://cdn.test/static/'>"
        "<meta property='og:image' content='/og.jpg'><meta property='og:image:width' content='1200'>"
        "<meta property='og:image:alt' content='Cover'></head><body>"
        "<img data-src='lazy.png'>"
        "<img src='data:image/png;base64,AAAA'>"
        "<img src='javascript:void(0)'>"
        "<img src='/og.jpg#frag'>"
        "<img src='pixel.gif' width='1' height='1'>"
        "<img>"
        "</body></html>"
    )
    assert images(html) == [
        {"url": "https://cdn.test/og.jpg", "alt": "Cover", "width": 1200, "height": None},
        {"url": "https://cdn.test/static/lazy.png", "alt": None, "width": None, "height": None},
    ]


def test_no_tree_no_images() -> None:
    assert page_images(SourcePage(url=URL, html="", root=None)) == []


@given(st.text(max_size=200))
def test_any_srcset_parses(value: str) -> None:
    for url, _ in srcset_candidates(value):
        assert url
    best = best_candidate(value)
    assert best is None or best in {u for u, _ in srcset_candidates(value)}


@given(st.text(max_size=300))
def test_any_attribute_values_never_raise(value: str) -> None:
    html = "<img>"
    root = lxml.html.fromstring(html)
    for name in ("src", "srcset", "width", "height", "alt"):
        try:
            root.set(name, value)
        except ValueError:  # lxml refuses control characters in attributes
            return
    found = page_images(SourcePage(url=URL, html=html, root=root))
    assert all(image["url"].startswith(("http://", "https://")) for image in found)


# -- describe_image ----------------------------------------------------------

imagehashing = pytest.importorskip("webrobot.extract.imagehashing")
pytest.importorskip("imagehash")


def test_describe_png_and_jpeg() -> None:
    png = imagehashing.describe_image(picture(64, 48), 1_000_000)
    assert png["format"] == "png"
    assert (png["width"], png["height"]) == (64, 48)
    assert len(png["phash"]) == 16
    jpeg = imagehashing.describe_image(picture(64, 48, "JPEG"), 1_000_000)
    assert jpeg["format"] == "jpeg"
    # the same picture recompressed: a near-identical hash (a few bits of 64)
    distance = (int(png["phash"], 16) ^ int(jpeg["phash"], 16)).bit_count()
    assert distance <= 6
    other = imagehashing.describe_image(picture(64, 48, seed=9), 1_000_000)
    assert other["phash"] != png["phash"]


def test_huge_header_refused_without_decoding() -> None:
    started = time.monotonic()
    with pytest.raises(imagehashing.ImageRefused) as caught:
        imagehashing.describe_image(huge_png_header(), 50_000_000)
    assert caught.value.reason == "too_many_pixels"
    assert time.monotonic() - started < 2
    with pytest.raises(imagehashing.ImageRefused) as caught:  # our own limit, below Pillow's
        imagehashing.describe_image(huge_png_header(5000, 5000), 1_000_000)
    assert caught.value.reason == "too_many_pixels"
    assert "5000x5000" in str(caught.value)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"<html>not an image</html>", "not_an_image"),
        (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', "vector_image"),
        (b"", "not_an_image"),
        (picture(32, 32)[:60], "damaged"),
    ],
)
def test_broken_images(body: bytes, reason: str) -> None:
    with pytest.raises(imagehashing.ImageRefused) as caught:
        imagehashing.describe_image(body, 1_000_000)
    assert caught.value.reason == reason


@given(st.binary(max_size=500))
def test_any_bytes_described_or_refused(body: bytes) -> None:
    try:
        imagehashing.describe_image(b"\x89PNG\r\n\x1a\n" + body, 1_000_000)
    except imagehashing.ImageRefused as exc:
        assert exc.reason in ("not_an_image", "vector_image", "damaged", "too_many_pixels")
