"""Packaging for pip and for Scrapyd eggs (``scrapyd-deploy`` runs ``setup.py bdist_egg``)."""

from setuptools import find_packages, setup

from webrobot import __version__

setup(
    name="webrobot",
    version=__version__,
    description="A polite, trap-proof web robot built on Scrapy",
    python_requires=">=3.11",
    packages=find_packages(include=["webrobot", "webrobot.*"]),
    package_data={
        "webrobot.sites": ["*.toml"],
        "webrobot.demo": ["pages/*/*.html", "pages/*/*/*.html"],
        "webrobot": ["templates/*.html"],
    },
    include_package_data=True,
    zip_safe=True,
    # Rendering pages built by JavaScript (WEBROBOT_RENDER): scrapy-playwright, driving the
    # system's Chromium; imported only when rendering is switched on.
    # WARC archives (WEBROBOT_WARC_DIR) and the full-text index with `scrapy search`
    # (docs/archive.md, docs/search.md); each is switched off with one log line without them.
    extras_require={
        "browser": ["scrapy-playwright==0.0.48", "playwright==1.65.2"],
        "warc": ["warcio==1.8.1"],
        "search": ["trafilatura==2.3.1", "jinja2==3.1.6"],
    },
    entry_points={"scrapy": ["settings = webrobot.settings"]},
)
