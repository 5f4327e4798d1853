"""webrobot's Scrapy extensions."""
