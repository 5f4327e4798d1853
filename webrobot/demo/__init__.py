"""The bundled demo web: local sites on loopback that show every behaviour
webrobot exists for. ``python -m webrobot.demo serve`` runs it on its own;
``python -m webrobot.demo crawl`` runs it, crawls it and prints a summary."""
