"""A spider loader that makes one spider per site config file.

Besides the spiders in ``SPIDER_MODULES``, every ``*.toml`` in the package's
``webrobot/sites`` folder (read through ``importlib.resources``, so it works
from a Scrapyd egg) and in each folder of ``WEBROBOT_SITES_DIRS`` becomes a
subclass of :class:`~webrobot.spiders.webrobot.WebrobotSpider` named after the
file. A broken file is reported on stderr and left out; the others still load.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.spiderloader import SpiderLoader

from webrobot.settingsmodel.parse import read
from webrobot.sites.config import (
    ConfigError,
    SiteConfig,
    check_setting_types,
    load_site_config,
    parse_site_config,
)
from webrobot.spiders.webrobot import WebrobotSpider

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.settings import BaseSettings

SITES_PACKAGE = "webrobot.sites"


def bundled_site_configs() -> list[SiteConfig | ConfigError]:
    out: list[SiteConfig | ConfigError] = []
    folder = resources.files(SITES_PACKAGE)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        source = f"{SITES_PACKAGE.replace('.', '/')}/{entry.name}"
        try:
            text = entry.read_bytes().decode("utf-8")
            out.append(parse_site_config(text, source, entry.name[: -len(".toml")]))
        except UnicodeDecodeError as exc:
            out.append(ConfigError(source, None, f"expected UTF-8 text: {exc}"))
        except ConfigError as exc:
            out.append(exc)
    return out


def directory_site_configs(folder: str) -> list[SiteConfig | ConfigError]:
    path = Path(folder)
    if not path.is_dir():
        return [ConfigError(folder, None, "WEBROBOT_SITES_DIRS names a folder that does not exist")]
    out: list[SiteConfig | ConfigError] = []
    for file in sorted(path.glob("*.toml")):
        try:
            out.append(load_site_config(file))
        except ConfigError as exc:
            out.append(exc)
    return out


class SiteSpiderLoader(SpiderLoader):
    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        self.broken: dict[str, ConfigError] = {}
        found = bundled_site_configs()
        for folder in read(settings, "WEBROBOT_SITES_DIRS"):
            found.extend(directory_site_configs(folder))
        for entry in found:
            if not isinstance(entry, ConfigError):
                try:
                    check_setting_types(entry, settings.get)
                except ConfigError as exc:
                    entry = exc
            if isinstance(entry, ConfigError):
                self._report(entry)
            elif entry.name in self._spiders:
                self._report(
                    ConfigError(entry.source, None, f"spider name {entry.name!r} is already taken")
                )
            else:
                self._spiders[entry.name] = self.spider_for(entry)

    @staticmethod
    def spider_for(config: SiteConfig) -> type[Spider]:
        return type(
            f"{config.name}_spider",
            (WebrobotSpider,),
            {"name": config.name, "site_config": config, "__module__": __name__},
        )

    def _report(self, error: ConfigError) -> None:
        name = Path(error.source).stem
        self.broken[name] = error
        print(f"webrobot: skipping site config: {error}", file=sys.stderr)

    def load(self, spider_name: str) -> type[Spider]:
        if spider_name in self.broken and spider_name not in self._spiders:
            raise KeyError(
                f"Spider {spider_name!r} has a broken config: {self.broken[spider_name]}"
            )
        return super().load(spider_name)
