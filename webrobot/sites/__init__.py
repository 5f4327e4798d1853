"""Per-site configs: one ``<spider name>.toml`` each (package data)."""
