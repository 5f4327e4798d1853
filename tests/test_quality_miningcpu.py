"""The mining CPU benchmark: every part timed, the four run as the middleware runs them."""

from __future__ import annotations

import pytest

pytest.importorskip("trafilatura")
pytest.importorskip("extruct")

from benchmarks.quality import source_page
from benchmarks.quality.miningcpu import COLUMNS, PARTS, measure, run_parts, table

SHOP = (
    '<html lang="en"><head><title>Lamp | Shop</title>'
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",'
    ' "name": "Lamp", "sku": "L-1", "offers": {"@type": "Offer", "price": "24.99",'
    ' "priceCurrency": "EUR"}}</script></head><body><article><h1>Lamp</h1>'
    "<p>A lamp for reading, made of oak and brass, with a linen shade and a long cord.</p>"
    '<meta property="og:type" content="product"></article></body></html>'
)


def test_the_four_parts_read_one_page_through_one_set_of_inputs() -> None:
    out = run_parts(source_page("https://shop.example.com/lamp", SHOP), PARTS)
    assert set(out) == set(PARTS)
    assert not [v for v in out.values() if isinstance(v, Exception)]
    assert out["product"]["price"] == "24.99" and out["product"]["sku"] == "L-1"
    assert out["structured_data"]["json-ld"][0]["name"] == "Lamp"
    # The body's OpenGraph tag is read as RDFa from the head and that tag alone.
    assert any("http://ogp.me/ns#type" in item for item in out["structured_data"]["rdfa"])


def test_every_column_is_measured_and_tabled() -> None:
    cpu = measure([("https://shop.example.com/lamp", SHOP)], repeat=1)
    assert set(cpu) == set(COLUMNS) and all(ms > 0 for ms in cpu.values())
    text = table({"shop (1)": cpu})
    assert "all four" in text and "trafilatura" in text and "x)" in text
