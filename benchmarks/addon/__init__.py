"""A plain ``CrawlSpider`` project with webrobot's add-on, as a new user has it.

The spider is bare Scrapy's (``benchmarks/bare/``); the settings add
``ADDONS = {"webrobot.Addon": 0}``. Run with
``SCRAPY_SETTINGS_MODULE=benchmarks.addon.settings scrapy crawl bare -a start_urls=...``.
"""
