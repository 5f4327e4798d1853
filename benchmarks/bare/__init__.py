"""The baseline: a bare Scrapy project, as ``scrapy startproject`` users write it.

One ``CrawlSpider`` with a ``LinkExtractor`` rule that follows every link,
robots.txt obeyed, one small item per page. Run with
``SCRAPY_SETTINGS_MODULE=benchmarks.bare.settings scrapy crawl bare -a start_urls=...``.
"""
