"""Deprecated: moved to :mod:`webrobot.robots.parsers`; removed in webrobot 0.3.0."""

from webrobot.deprecated import alias

alias(__name__)
