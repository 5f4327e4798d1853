"""The old package ``webrobot.middlewares``: only deprecated aliases of moved modules, removed in
webrobot 0.3.0."""
