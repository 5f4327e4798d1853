"""Only for Scrapyd eggs: ``scrapyd-deploy`` runs ``python setup.py bdist_egg``.

Everything (metadata, dependencies, package data, the ``scrapy`` entry point
Scrapyd reads) is declared in ``pyproject.toml``; build wheels and sdists with
``python -m build``.
"""

from setuptools import setup

setup(zip_safe=True)
