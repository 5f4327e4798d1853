"""The settings model: every setting and component declared once (:mod:`.model`), values
read as components use them (:mod:`.parse`), every value and name checked (:mod:`.checks`),
and a setting that cannot be used stopping the crawl with one clear line (:mod:`.startup`).

``webrobot.settings`` stays the project's Scrapy settings module.
"""
