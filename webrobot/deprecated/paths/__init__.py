"""The old paths of the classes a settings file names, one file each, found through
``webrobot.__path__`` (see :mod:`webrobot.deprecated`); removed in webrobot 0.3.0."""
