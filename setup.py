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
    },
    include_package_data=True,
    zip_safe=True,
    # Rendering pages built by JavaScript (WEBROBOT_RENDER): scrapy-playwright, driving the
    # system's Chromium; imported only when rendering is switched on.
    extras_require={"browser": ["scrapy-playwright==0.0.48", "playwright==1.65.2"]},
    entry_points={"scrapy": ["settings = webrobot.settings"]},
)
