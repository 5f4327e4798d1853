"""Image matching: pHash distances measured on structured pictures made here.

The pictures are natural-looking: 1/f ("pink") noise in three colour channels, the
spectrum of photographs, with shapes drawn over it, and views of the Mandelbrot set.
A copy (JPEG quality 50, halved, 5 % trimmed from the edges, grey, all at once) must
stay within :data:`~webrobot.monitor.images.MAX_DISTANCE`; every other picture beyond it.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from webrobot.monitor.images import MAX_DISTANCE, parse_hash, similarity
from webrobot.monitor.rules import load_rules
from webrobot.monitor.watch import page_matches
from webrobot.text import hamming as distance

imagehash = pytest.importorskip("imagehash")
np = pytest.importorskip("numpy")
Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")
ImageOps = pytest.importorskip("PIL.ImageOps")


def natural(seed: int, size: tuple[int, int] = (480, 360)) -> Any:
    rng = np.random.default_rng(seed)
    w, h = size
    fy, fx = np.fft.fftfreq(h)[:, None], np.fft.fftfreq(w)[None, :]
    f = np.sqrt(fx**2 + fy**2)
    f[0, 0] = 1
    channels = []
    for _ in range(3):
        spectrum = (rng.normal(size=(h, w)) + 1j * rng.normal(size=(h, w))) / f**1.8
        plane = np.real(np.fft.ifft2(spectrum))
        channels.append((plane - plane.min()) / (plane.max() - plane.min()))
    picture = Image.fromarray((np.stack(channels, -1) * 255).astype("uint8"), "RGB")
    draw = ImageDraw.Draw(picture)
    for _ in range(6):
        x, y, r = int(rng.integers(0, w)), int(rng.integers(0, h)), int(rng.integers(15, 90))
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        if rng.random() < 0.5:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
        else:
            draw.rectangle([x - r, y - r // 2, x + r, y + r // 2], fill=colour)
    return picture


def mandelbrot(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    cx, cy, s = -0.75 + rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.3, 1.5)
    return Image.effect_mandelbrot(
        (480, 360), (cx - s, cy - s * 0.75, cx + s, cy + s * 0.75), 100
    ).convert("RGB")


def jpeg(picture: Any, quality: int = 50) -> Any:
    buffer = io.BytesIO()
    picture.convert("RGB").save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue()))


def trimmed(picture: Any, share: float = 0.05) -> Any:
    w, h = picture.size
    dx, dy = int(w * share / 2), int(h * share / 2)
    return picture.crop((dx, dy, w - dx, h - dy))


COPIES = {
    "JPEG quality 50": jpeg,
    "halved": lambda p: p.resize((p.width // 2, p.height // 2), Image.LANCZOS),
    "5 % trimmed": trimmed,
    "grey": ImageOps.grayscale,
    "all at once": lambda p: ImageOps.grayscale(
        jpeg(trimmed(p.resize((p.width // 2, p.height // 2))))
    ),
}


def phash(picture: Any) -> int:
    return int(str(imagehash.phash(picture)), 16)


@pytest.fixture(scope="module")
def pictures() -> list[Any]:
    return [natural(seed) for seed in range(16)] + [mandelbrot(seed) for seed in (0, 2, 4, 5)]


def test_copies_are_near_and_other_pictures_far(pictures: list[Any]) -> None:
    hashes = [phash(p) for p in pictures]
    copies = {name: max(distance(h, phash(make(p))) for p, h in zip(pictures, hashes, strict=True))
              for name, make in COPIES.items()}  # fmt: skip
    others = min(distance(a, b) for i, a in enumerate(hashes) for b in hashes[i + 1 :])
    # Measured: copies at most 10 bits apart, other pictures at least 18.
    assert max(copies.values()) <= MAX_DISTANCE < others, (copies, others)
    assert max(copies.values()) <= 10 and others >= 18, (copies, others)


def test_hash_parsing_and_scores() -> None:
    assert parse_hash("FFFF0000ffff0000") == 0xFFFF0000FFFF0000
    assert parse_hash("xyz") is None and parse_hash(12) is None and parse_hash("1" * 17) is None
    assert distance(0b1011, 0b0001) == 2
    assert similarity(0) == 1.0 and similarity(32) == 0.0 and similarity(64) == 0.0


def test_an_image_rule_matches_a_copy_on_a_page(tmp_path: Path, pictures: list[Any]) -> None:
    pictures[0].save(tmp_path / "ours.png")
    (tmp_path / "watch.toml").write_text(
        '[[rule]]\nname = "photos"\nimages = ["ours.png"]\n', "utf-8"
    )
    rules = load_rules(tmp_path / "watch.toml")
    copy = str(imagehash.phash(COPIES["all at once"](pictures[0])))
    other = str(imagehash.phash(pictures[1]))
    item = {
        "images": [
            {"url": "http://s/other.jpg", "phash": other},
            {"url": "http://s/copy.jpg", "phash": copy},
        ]
    }
    found = page_matches(rules, "http://s/", "t", item)
    assert [(m["kind"], m["evidence"]["src"]) for m in found] == [("image", "http://s/copy.jpg")]
    assert page_matches(rules, "http://s/", "t", {"images": [{"phash": other}]}) == []


@pytest.mark.parametrize("kind", ["JPEG", "PNG"])
def test_a_rules_picture_and_a_pages_image_get_the_same_hash(tmp_path: Path, kind: str) -> None:
    from webrobot.extract.imagehashing import describe_image
    from webrobot.monitor.rules import image_hash

    buffer = io.BytesIO()
    natural(7, (1600, 1200)).save(buffer, kind)
    data = buffer.getvalue()
    on_a_page = int(describe_image(data, 0)["phash"], 16)
    in_a_rule = image_hash(data, "rules.toml", "rule.images", tmp_path / "p")
    assert on_a_page == in_a_rule
