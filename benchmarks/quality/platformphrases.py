"""``python -m benchmarks.quality.platformphrases``: the stock lines and buy buttons shop
platforms print, in every language their translation files have, read by the product
readers.

Shops print the stock lines and buy buttons of their platform's translation: Shopify's
Dawn theme (``locales/<lang>.json``), Magento's language packs (``<lang>.csv``),
Shopware's language pack (``storefront.<lang>.json``), Sylius (its UI bundle's
``messages.<lang>.yml``), Spree and Solidus (``config/locales/<lang>.yml``). Each file is
read in place from a git snapshot under ``--repos`` (else ``$WEBROBOT_EVAL_REPOS``, else
``/work/.mirror``) as ``<owner>+<name>/repo``, at its newest commit, never copied; a
platform whose snapshot is not there is left out of the count.

Each phrase has the meaning its key gives it: in stock, low stock, out of stock (sold
out, unavailable, no longer available) or a buy button. A placeholder for a quantity is
given 3 (``Only 3 left``), one for a delivery time ``1-3``. A stock phrase is read as
meant when :func:`webrobot.extract.product.stock.stock_line` gives an availability of
the same kind (``SoldOut``, ``Discontinued`` and ``OutOfStock`` are one kind: cannot be
had; ``LimitedAvailability`` is low stock), misread when it gives another kind (in stock
for a low stock included), unread when it gives none; a buy button is read when
:data:`webrobot.extract.product.markup.BUY_LABEL` finds its words (in composed letters, as
the buy buttons are read). These are coverage
figures on the words the rules were written from, not a score on pages: a platform's
phrase that says nothing of stock in a language (a general "cannot be used") is left
unread on purpose and counts as unread here.

    python -m benchmarks.quality.platformphrases
    python -m benchmarks.quality.platformphrases --languages ko,vi,th --show unread
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table

REPOS_ENV = "WEBROBOT_EVAL_REPOS"
#: The kinds of meaning a phrase has, as its key says.
IN, LOW, OUT, BUY = "in stock", "low stock", "out of stock", "buy"
_KIND = {
    "InStock": IN,
    "LimitedAvailability": LOW,
    "OutOfStock": OUT,
    "SoldOut": OUT,
    "Discontinued": OUT,
}


@dataclass(frozen=True)
class Phrase:
    platform: str
    language: str
    key: str
    text: str
    meaning: str


def default_repos() -> Path:
    env = os.environ.get(REPOS_ENV)
    return Path(env) if env else Path("/work/.mirror")


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", f"--git-dir={repo}", *args], capture_output=True, text=True, check=False
    )
    return done.stdout if done.returncode == 0 else ""


def _files(repo: Path, pattern: str) -> Iterator[tuple[str, str]]:
    """(language, path) of the files whose path matches ``pattern`` (its group ``lang``)."""
    for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        found = re.fullmatch(pattern, path)
        if found:
            yield found.group("lang").replace("_", "-").split("-")[0].lower(), path


def _get(tree: Any, dotted: str) -> str | None:
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return None
        tree = tree[part]
    return tree if isinstance(tree, str) and tree.strip() else None


def _fill(text: str) -> str:
    """A placeholder for a quantity as 3, one for a delivery time as ``1-3``."""
    text = re.sub(r"\{\{\s*quantity\s*\}\}|%(?:1|inStock%|quantity%|restockTime%)", "3", text)
    text = re.sub(r"%name%|\{\{\s*\w+\s*\}\}|%\{\w+\}", "1-3", text)
    return re.sub(r"<[^>]+>", "", text).strip()


def _keyed(
    platform: str, repo: Path, pattern: str, load: Callable[[str], Any], keys: dict[str, str]
) -> Iterator[Phrase]:
    for language, path in _files(repo, pattern):
        try:
            tree = load(_git(repo, "show", f"HEAD:{path}"))
        except (ValueError, TypeError):
            continue
        if isinstance(tree, dict) and len(tree) == 1:
            root = next(iter(tree))
            if str(root).replace("_", "-").split("-")[0].lower() == language:
                tree = tree[root]  # a YAML file's language root (``ko: spree: ...``)
        for key, meaning in keys.items():
            text = _get(tree, key)
            if text:
                yield Phrase(platform, language, key, _fill(text), meaning)


def _yaml(text: str) -> Any:
    import yaml  # type: ignore[import-untyped]  # the dev dependencies have it

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(str(error)) from error


_DAWN_KEYS = {
    "products.product.inventory_in_stock": IN,
    "products.product.inventory_in_stock_show_count": IN,
    "products.product.inventory_low_stock": LOW,
    "products.product.inventory_low_stock_show_count": LOW,
    "products.product.inventory_out_of_stock": OUT,
    "products.product.sold_out": OUT,
    "products.product.unavailable": OUT,
    "products.product.add_to_cart": BUY,
}
_SHOPWARE_KEYS = {
    "general.deliveryInStock": IN,
    "detail.deliveryTimeAvailable": IN,
    "general.deliveryNotAvailable": OUT,
    "detail.soldOut": OUT,
    "detail.unavailable": OUT,
    "detail.addProduct": BUY,
}
_SYLIUS_KEYS = {
    "sylius.ui.add_to_cart": BUY,
    "sylius.ui.out_of_stock": OUT,
    "sylius.ui.unavailable": OUT,
}
_SPREE_KEYS = {
    "spree.add_to_cart": BUY,
    "spree.in_stock": IN,
    "spree.out_of_stock": OUT,
    "spree.not_available": OUT,
}
_MAGENTO_SOURCES = {
    "In stock": IN,
    "In Stock": IN,
    "Out of stock": OUT,
    "Only %1 left": LOW,
    "Add to Cart": BUY,
}


def _magento(repos: Path) -> Iterator[Phrase]:
    for folder in sorted(repos.glob("magento-l10n+language-*")):
        repo = folder / "repo"
        for language, path in _files(repo, r"(?P<lang>[a-z]{2}_[A-Z]{2})\.csv"):
            seen: set[str] = set()
            for row in csv.reader(io.StringIO(_git(repo, "show", f"HEAD:{path}"))):
                if len(row) >= 2 and row[0] in _MAGENTO_SOURCES and row[1].strip():
                    if row[0].lower() in seen:
                        continue
                    seen.add(row[0].lower())
                    yield Phrase(
                        "Magento", language, row[0], _fill(row[1]), _MAGENTO_SOURCES[row[0]]
                    )


def phrases(repos: Path) -> list[Phrase]:
    """Every platform's stock and buy phrases found under ``repos``."""
    found: list[Phrase] = []
    sources: list[tuple[str, str, str, Callable[[str], Any], dict[str, str]]] = [
        ("Shopify Dawn", "Shopify+dawn", r"locales/(?P<lang>[a-zA-Z-]+?)(?:\.default)?\.json", json.loads, _DAWN_KEYS),
        ("Shopware", "shopware+SwagLanguagePack", r"src/Resources/snippet/storefront/storefront\.(?P<lang>[a-zA-Z-]+)\.json", json.loads, _SHOPWARE_KEYS),
        ("Sylius", "Sylius+Sylius", r"src/Sylius/Bundle/UiBundle/Resources/translations/messages\.(?P<lang>[a-zA-Z_]+)\.yml", _yaml, _SYLIUS_KEYS),
        ("Spree", "spree-contrib+spree_i18n", r"config/locales/(?P<lang>[a-zA-Z-]+)\.yml", _yaml, _SPREE_KEYS),
        ("Solidus", "solidusio+solidus_i18n", r"config/locales/(?P<lang>[a-zA-Z-]+)\.yml", _yaml, _SPREE_KEYS),
    ]  # fmt: skip
    for platform, folder, pattern, load, keys in sources:
        repo = repos / folder / "repo"
        if repo.is_dir():
            found.extend(_keyed(platform, repo, pattern, load, keys))
    found.extend(_magento(repos))
    return found


def reading(phrase: Phrase) -> str | None:
    """The kind the readers give ``phrase``: in, low or out of stock, buy, or ``None``."""
    from webrobot.extract.product.markup import BUY_LABEL
    from webrobot.extract.product.stock import stock_line
    from webrobot.extract.product.stockwords import nfc

    if phrase.meaning == BUY:
        return BUY if BUY_LABEL.search(nfc(phrase.text)) else None
    said = stock_line(phrase.text)
    return _KIND.get(said or "", said)


def verdict(phrase: Phrase) -> str:
    """``meant``, ``misread`` or ``unread``."""
    said = reading(phrase)
    if said is None:
        return "unread"
    return "meant" if said == phrase.meaning else "misread"


def tally(found: list[Phrase], by: Callable[[Phrase], str]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for phrase in found:
        row = counts.setdefault(by(phrase), {"meant": 0, "misread": 0, "unread": 0})
        row[verdict(phrase)] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", type=Path, default=default_repos())
    parser.add_argument("--languages", default="", help="comma-separated codes (ko,vi...)")
    parser.add_argument("--show", choices=("unread", "misread", "all"), help="list the phrases")
    args = parser.parse_args(argv)
    found = phrases(args.repos)
    wanted = {code for code in args.languages.split(",") if code}
    if wanted:
        found = [p for p in found if p.language in wanted]
    if not found:
        print(f"no translation file found under {args.repos}", file=sys.stderr)
        return 1
    for title, by in (("platform", lambda p: p.platform), ("language", lambda p: p.language)):
        counts = tally(found, by)
        rows = [
            [name, str(sum(c.values())), str(c["meant"]), str(c["misread"]), str(c["unread"])]
            for name, c in sorted(counts.items())
        ]
        total = {k: sum(c[k] for c in counts.values()) for k in ("meant", "misread", "unread")}
        rows.append(
            ["all", str(len(found)), *(str(total[k]) for k in ("meant", "misread", "unread"))]
        )
        print(markdown_table([title, "phrases", "read as meant", "misread", "unread"], rows))
        print()
    if args.show:
        for phrase in found:
            said = verdict(phrase)
            if args.show == "all" or said == args.show:
                print(
                    f"{said:8} {phrase.platform:13} {phrase.language:3} {phrase.meaning:13} {phrase.text}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
