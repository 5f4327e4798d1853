"""The old package ``webrobot.spidermiddlewares``: only deprecated aliases of moved modules, removed in
webrobot 0.3.0."""
