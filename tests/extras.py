"""webrobot's extras as pyproject.toml declares them, read when the tests start, and
the modules each one's requirements are imported as: what a plain install lacks."""

from __future__ import annotations

import functools
import importlib.metadata
import re
import tomllib

from tests.crawling import PROJECT_ROOT

PYPROJECT = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text("utf-8"))
#: Extra -> its requirements.
EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def import_name(requirement: str) -> str:
    """The module a requirement is imported as (``scrapy-redis`` -> ``scrapy_redis``;
    its installed files say so when the name does not)."""
    name = canonical(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0])
    guess = name.replace("-", "_")
    owners = sorted(
        module
        for module, dists in _packages_distributions().items()
        if name in {canonical(d) for d in dists} and not module.startswith("_")
    )
    return guess if guess in owners or not owners else owners[0]


@functools.cache
def _packages_distributions() -> dict[str, list[str]]:
    """Top-level module -> the distributions that install it: read once, as reading
    every installed distribution's files takes a fifth of a second."""
    return importlib.metadata.packages_distributions()


#: Extra -> the modules its requirements are imported as.
EXTRA_MODULES = {extra: sorted({import_name(r) for r in reqs}) for extra, reqs in EXTRAS.items()}
#: Every module an extra brings.
OPTIONAL_MODULES = sorted({m for modules in EXTRA_MODULES.values() for m in modules})


def _closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install, their own requirements included
    (as this environment, which holds every extra, has them)."""
    seen: set[str] = set()
    todo = [_dist(r) for r in requirements]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += _requires(name)
    return seen


@functools.cache
def _requires(name: str) -> list[str]:
    """The distributions an installed distribution requires (none when it is missing)."""
    try:
        requires = importlib.metadata.requires(name) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [_dist(r) for r in requires if "extra ==" not in r]


def _dist(requirement: str) -> str:
    return canonical(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0])


#: Optional distribution -> the module it is imported as.
_OPTIONAL_DISTS = {_dist(r): import_name(r) for reqs in EXTRAS.values() for r in reqs}
#: Extra -> the optional modules an install of it has: its own, and those its
#: requirements pull in (wacz requires jinja2, which the search extra also names).
_CLOSURES = {extra: _closure(reqs) for extra, reqs in EXTRAS.items()}
EXTRA_INSTALLS = {
    extra: sorted({m for dist, m in _OPTIONAL_DISTS.items() if dist in _CLOSURES[extra]})
    for extra in EXTRAS
}
