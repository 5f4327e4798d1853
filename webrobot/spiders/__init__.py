"""webrobot's spiders: the generic ``webrobot`` spider; per-site spiders are made
from the TOML files in ``webrobot/sites`` by :mod:`webrobot.spiders.loader`."""
