"""webrobot's downloader middlewares (thin Scrapy glue around pure policy modules)."""
