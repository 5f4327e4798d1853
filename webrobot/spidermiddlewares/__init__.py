"""webrobot's spider middlewares (thin Scrapy glue around pure policy modules)."""
