"""Deprecated: moved to :mod:`webrobot.seen.pipelines`; removed in webrobot 0.3.0."""

from webrobot.deprecated import alias

alias(__name__)
