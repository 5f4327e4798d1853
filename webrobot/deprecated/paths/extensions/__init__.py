"""The old package ``webrobot.extensions``: only deprecated aliases of moved modules, removed in
webrobot 0.3.0."""
