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
    entry_points={"scrapy": ["settings = webrobot.settings"]},
)
