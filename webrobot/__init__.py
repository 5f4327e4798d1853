"""webrobot: a polite, trap-proof web robot built on Scrapy."""

__version__ = "0.1.0"
