"""webrobot's version, in a module of its own so that pure modules can name it."""

__version__ = "0.1.0"
