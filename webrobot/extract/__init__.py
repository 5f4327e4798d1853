"""Web mining: what a page says, beyond that it was fetched.

Pure extractors, each a function of a :class:`~webrobot.extract.page.SourcePage`
(the crawl's own parse of the page, so nothing is parsed twice) to plain,
JSON-ready values: the main text, metadata, structured data, product fields,
per-site fields, documents and images. The Scrapy glue decides when each runs
(``WEBROBOT_EXTRACT``) and where its result goes in the item.
"""
