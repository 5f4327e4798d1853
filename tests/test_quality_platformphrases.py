"""The count of the shop platforms' stock and buy phrases the product readers read as
meant (``benchmarks/quality/platformphrases.py``), on translation files made here in git
snapshots laid out as the mirror lays them out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from benchmarks.quality import platformphrases as pp


def _snapshot(root: Path, folder: str, files: dict[str, str]) -> None:
    work = root / "work" / folder
    for path, text in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text, encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", str(work)], check=True)
    subprocess.run([*git, "-C", str(work), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-q", "-m", "files"], check=True)
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(work), str(root / folder / "repo")], check=True
    )


def _dawn(product: dict[str, str]) -> str:
    return json.dumps({"products": {"product": product}}, ensure_ascii=False)


def test_the_phrases_are_counted_by_their_meaning(tmp_path: Path) -> None:
    _snapshot(
        tmp_path,
        "Shopify+dawn",
        {
            "locales/sv.json": _dawn(
                {
                    "inventory_in_stock": "I lager",
                    "inventory_low_stock_show_count": "Låg lagernivå: {{ quantity }} kvar",
                    "inventory_out_of_stock": "Slut i lager",
                    "unavailable": "Gibberish",
                    "add_to_cart": "Lägg i varukorg",
                }
            ),
            "locales/sv.schema.json": _dawn({"add_to_cart": "not a storefront line"}),
        },
    )
    _snapshot(
        tmp_path,
        "spree-contrib+spree_i18n",
        {
            "config/locales/de.yml": "de:\n  spree:\n    in_stock: Ausverkauft\n    add_to_cart: ''\n"
        },
    )
    found = pp.phrases(tmp_path)
    assert {(p.platform, p.language, p.text, p.meaning) for p in found} == {
        ("Shopify Dawn", "sv", "I lager", pp.IN),
        ("Shopify Dawn", "sv", "Låg lagernivå: 3 kvar", pp.LOW),
        ("Shopify Dawn", "sv", "Slut i lager", pp.OUT),
        ("Shopify Dawn", "sv", "Gibberish", pp.OUT),
        ("Shopify Dawn", "sv", "Lägg i varukorg", pp.BUY),
        # an in-stock key whose translation says sold out: counted as misread
        ("Spree", "de", "Ausverkauft", pp.IN),
    }
    counts = pp.tally(found, lambda p: p.platform)
    assert counts["Shopify Dawn"] == {"meant": 4, "misread": 0, "unread": 1}
    assert counts["Spree"] == {"meant": 0, "misread": 1, "unread": 0}


def test_placeholders_are_filled() -> None:
    assert pp._fill("Only %1 left") == "Only 3 left"
    assert pp._fill("{{ quantity }} in stock") == "3 in stock"
    assert pp._fill("Available, delivery time: %name%") == "Available, delivery time: 1-3"


def test_no_snapshot_is_an_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert pp.main(["--repos", str(tmp_path)]) == 1
    assert "no translation file" in capsys.readouterr().err
